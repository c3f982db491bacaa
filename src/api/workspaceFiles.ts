/**
 * The analysis tools as VS Code's language-model tools use them: a model names the paths, and what
 * it read may steer it, so only files inside the open workspace folders are read (as the file
 * system resolves them: no absolute path, `../` or symlink out of them), like `team-data mcp`'s
 * roots. The confirmation shows each path as it will be read, relative to its workspace folder,
 * so the user approves the files rather than their bare names (`secret.csv` could be any folder's).
 * No vscode import here: the extension passes its folders in, and node tests check the rules.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { AnalysisTools, type PathResolver } from './analysisTools';
import type { TeamDataClient } from './index';
import { OutsideRootsError, realPathInRoots, toolRoots, within } from './toolRoots';

/** An open workspace folder: its name (as VS Code shows it) and its path on disk. */
export interface WorkspaceFolderPath {
  name: string;
  path: string;
}

/** Reads only inside `folders()`, asked at each call: folders are opened and closed while tools live. */
export function workspaceResolver(folders: () => readonly WorkspaceFolderPath[]): PathResolver {
  return async (path) => {
    const open = folders();
    if (open.length === 0) throw new OutsideRootsError('no workspace folder is open, and this tool reads files only inside the open workspace folders; open the folder that holds the file');
    const roots = await toolRoots(open.map((f) => f.path));
    if (roots.given.length === 0) throw new OutsideRootsError('none of the open workspace folders exists on disk, and this tool reads files only inside them');
    return realPathInRoots(path, roots);
  };
}

/** The tools the language-model tools run: relative paths from the first folder, nothing outside the folders. */
export function workspaceAnalysisTools(client: TeamDataClient, folders: () => readonly WorkspaceFolderPath[], hosted: boolean): AnalysisTools {
  return new AnalysisTools(client, folders()[0]?.path ?? process.cwd(), hosted, workspaceResolver(folders));
}

/**
 * `path` as the confirmation shows it: relative to the workspace folder it is in (led by the
 * folder's name when several are open), else absolute and flagged, since the tool will refuse it.
 * Read as written (no file system): the tool itself checks where links lead.
 */
export function shownPath(path: string, folders: readonly WorkspaceFolderPath[]): { shown: string; inside: boolean } {
  const first = folders[0];
  const abs = isAbsolute(path) ? resolve(path) : first ? resolve(first.path, path) : resolve(path);
  for (const f of folders) {
    const root = resolve(f.path);
    if (!within(abs, root)) continue;
    const rel = relative(root, abs);
    const shown = folders.length > 1 ? (rel === '' ? f.name : `${f.name}/${rel}`) : rel === '' ? '.' : rel;
    return { shown, inside: true };
  }
  return { shown: abs, inside: false };
}

/** `text` as a markdown code span that no backtick in it can end early. */
export function markdownCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 || text.startsWith(' ') || text.endsWith(' ') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${fence}`;
}
