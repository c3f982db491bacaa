/**
 * Which data folder a window's local service uses: the setting when it names one, else the folder
 * the CLI and `team-data mcp` use too, so datasets and sessions are shared. Earlier versions kept
 * the extension's data in VS Code's global storage; the first start moves it to the shared folder
 * when that folder holds nothing yet, so nobody loses their datasets. Plain Node (no vscode).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { defaultDataDir } from '../../cli/dataDir';

/** The setting, else TEAM_DATA_DATA_DIR (as the CLI reads it), else the CLI's default folder. */
export function chosenDataFolder(setting: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env['TEAM_DATA_DATA_DIR'];
  return setting !== '' ? setting : fromEnv && isAbsolute(fromEnv) ? fromEnv : defaultDataDir(env);
}

const stateOf = (dir: string): string => join(dir, 'meta', 'state.json');

/**
 * Moves the data of the old per-extension folder to `shared` when `shared` has no data of its own.
 * Returns what happened, in words for the log (undefined when there was nothing to do).
 */
export async function adoptOldFolder(old: string, shared: string): Promise<string | undefined> {
  if (!existsSync(stateOf(old)) || existsSync(stateOf(shared))) return undefined;
  // A service may have been started on the shared folder (it holds only its own service files then).
  const present = await readdir(shared).catch(() => [] as string[]);
  if (present.some((n) => n !== 'service')) return `Your earlier local datasets stay in ${old}: ${shared} already holds other files. Set teamData.localDataFolder to ${old} to use them.`;
  try {
    await mkdir(dirname(shared), { recursive: true, mode: 0o700 });
    if (present.length > 0) {
      for (const name of await readdir(old)) await rename(join(old, name), join(shared, name));
    } else {
      await rename(old, shared);
    }
    return `Moved your local datasets and sessions from ${old} to ${shared}, where the team-data command and MCP clients see them too.`;
  } catch (e) {
    return `Your earlier local datasets stay in ${old} (they could not be moved to ${shared}: ${(e as Error).message}). Set teamData.localDataFolder to ${old} to use them.`;
  }
}
