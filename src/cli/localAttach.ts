/**
 * The CLI's way to the embedded local service: attach to the data folder's shared service (or
 * start it, detached, for every later client too) and hold a lease until done. `team-data ask`
 * and `team-data mcp` therefore share datasets and sessions with every VS Code window on the same
 * data folder, and never collide on its database.
 */
import { resolve } from 'node:path';
import { TeamDataClient } from '../api/index';
import type { ApiVersion } from '../api/options';
import { attachOrStart } from './serviceAttach';
import { BUILD_VERSION } from './serveShared';

export interface LocalConnection {
  baseUrl: string;
  apiKey: string;
  /** Gives the lease back (the service outlives this command; it stops after its last client). */
  close(): Promise<void>;
}

/**
 * The built CLI that runs `serve --shared`: this very bundle when it is one (an installed CLI
 * always starts its own version), else `TEAM_DATA_CLI_PATH` (tests and tools running the source).
 */
export function ownCliPath(env: NodeJS.ProcessEnv): string {
  if (/\.c?js$/.test(__filename)) return __filename;
  const fromEnv = env['TEAM_DATA_CLI_PATH'];
  if (fromEnv) return resolve(fromEnv);
  const script = process.argv[1];
  if (script && /\.c?js$/.test(script)) return resolve(script);
  throw new Error('cannot tell where the team-data program is to start the local service; set TEAM_DATA_CLI_PATH to dist/cli.js');
}

export async function attachLocal(dataDir: string, given: NodeJS.ProcessEnv, client: 'cli' | 'mcp', note: (line: string) => void, onLost?: () => void): Promise<LocalConnection> {
  // The command's environment over the process's (a caller may pass only what it changes).
  const env = given === process.env ? given : { ...process.env, ...given };
  const attached = await attachOrStart({
    dataDir,
    cliPath: ownCliPath(env),
    env,
    version: BUILD_VERSION,
    client,
    onNote: (m) => note(`team-data: note: ${m} To restart it with this version now (once no job runs): team-data service stop`),
    log: (level, message) => {
      if (level === 'warn' || level === 'error' || env['TEAM_DATA_DEBUG']) note(`team-data: ${message}`);
    },
    ...(onLost ? { onLost } : {}),
  });
  const { baseUrl, apiKey } = attached.discovery;
  return { baseUrl, apiKey, close: () => attached.lease.release() };
}

/**
 * A long-lived client of the shared service (`team-data mcp`): when the service goes away (a
 * restart for another window's folder, `team-data service stop`, a crash), the next call attaches
 * to its successor, or starts one, instead of failing until the agent restarts this server.
 */
export class LocalClients {
  private conn: LocalConnection | undefined;
  private client: TeamDataClient | undefined;
  private lost = false;
  private pending: Promise<TeamDataClient> | undefined;

  constructor(private readonly o: { dataDir: string; env: NodeJS.ProcessEnv; apiVersion: ApiVersion; userId: string; note(line: string): void }) {}

  /** The client of the live service (attaching again when the last one was lost). */
  get(): Promise<TeamDataClient> {
    if (this.client && !this.lost) return Promise.resolve(this.client);
    this.pending ??= (async () => {
      await this.conn?.close().catch(() => undefined);
      this.lost = false;
      this.conn = await attachLocal(this.o.dataDir, this.o.env, 'mcp', this.o.note, () => {
        this.lost = true;
      });
      this.client = new TeamDataClient({ baseUrl: this.conn.baseUrl, apiKey: this.conn.apiKey, apiVersion: this.o.apiVersion, userId: this.o.userId });
      return this.client;
    })().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** A call could not reach the service: the next `get` attaches again. */
  markLost(): void {
    this.lost = true;
  }

  async close(): Promise<void> {
    await this.conn?.close();
  }
}
