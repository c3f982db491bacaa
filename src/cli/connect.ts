/**
 * Where a command's requests go: the hosted service named by `--base-url`, or else the data
 * folder's shared local service (attached to, or started for every later client too; see
 * localAttach.ts), whose lease is given back when the command is done.
 * Every command that talks to a service (ask, sessions, datasets) goes through `withClient`, so how
 * the local service is reached is decided in this one place.
 */
import { TeamDataClient } from '../api/index';
import type { ConnectionArgs } from './args';
import { defaultDataDir } from './dataDir';
import { attachLocal } from './localAttach';

/**
 * The connection options every service command takes (flags and environment already merged). A
 * missing user id is sent as none: on the local service that means every user's records.
 */
export type Connection = ConnectionArgs;

/** The connection options of parsed arguments (the rest of the arguments left out). */
export function connectionOf(args: Connection): Connection {
  const out: Connection = { apiVersion: args.apiVersion };
  if (args.baseUrl !== undefined) out.baseUrl = args.baseUrl;
  if (args.apiKey !== undefined) out.apiKey = args.apiKey;
  if (args.userId !== undefined) out.userId = args.userId;
  if (args.dataDir !== undefined) out.dataDir = args.dataDir;
  return out;
}

/** Runs `fn` with a client of the hosted or the embedded local service, then releases the service. */
export async function withClient<T>(conn: Connection, env: NodeJS.ProcessEnv, fn: (client: TeamDataClient) => Promise<T>): Promise<T> {
  const user = conn.userId !== undefined && conn.userId !== '' ? { userId: conn.userId } : {};
  if (conn.baseUrl !== undefined) {
    return fn(new TeamDataClient({ baseUrl: conn.baseUrl, apiKey: conn.apiKey ?? '', apiVersion: conn.apiVersion, ...user }));
  }
  const service = await attachLocal(conn.dataDir ?? defaultDataDir(env), env, 'cli', (line) => process.stderr.write(`${line}\n`));
  try {
    return await fn(new TeamDataClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, apiVersion: conn.apiVersion, ...user }));
  } finally {
    await service.close();
  }
}
