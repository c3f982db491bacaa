/**
 * `team-data serve --shared`: the data folder's one service. Clients start it detached (see
 * serviceAttach.ts) and find it through the discovery file it writes once it answers. It ends when
 * it has had no client lease and no work for a few minutes, or on SIGTERM, and removes the file
 * only after DuckDB let go of the database, so a successor never collides with it on the lock.
 * A start that fails prints its cause as one plain line and exits at once (no child lingers).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_FORMAT, ensureServiceDir, removeDiscovery, serviceDir, writeDiscovery } from '../server/daemon/discovery';
import { CANNOT_START, startFailureText } from '../server/daemon/startFailure';
import { startLocalService, type LocalService } from '../server/localService';
import { allowPrivateNetworksFromEnv, duckdbLimitsFromEnv, exitIfStuck } from '../server/serviceEnv';
import { writeFileAtomic } from '../server/state/atomicFile';
import type { ServeArgs } from './args';
import { defaultDataDir, randomApiKey } from './dataDir';

declare const TEAM_DATA_VERSION: string | undefined;
export const BUILD_VERSION = typeof TEAM_DATA_VERSION === 'string' ? TEAM_DATA_VERSION : 'dev';

/** Default wait after the last client before the service stops. */
export const DEFAULT_IDLE_MS = 3 * 60_000;
export const DEFAULT_LEASE_TTL_MS = 60_000;

function msFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = Number(env[name]);
  return Number.isFinite(v) && v >= 100 ? v : fallback;
}

/** Refuses a data folder written by a newer build (its format would be misread, then overwritten). */
async function checkFormat(dataDir: string): Promise<void> {
  const file = join(serviceDir(dataDir), 'format.json');
  const raw = await readFile(file, 'utf8').catch(() => undefined);
  const found = raw === undefined ? undefined : Number((JSON.parse(raw) as { dataFormat?: unknown }).dataFormat);
  if (found !== undefined && Number.isFinite(found) && found > DATA_FORMAT) {
    throw new Error(`the data folder ${dataDir} was written by a newer Team Data (data format ${found}; this one reads ${DATA_FORMAT}). Update this client (the extension or the team-data command), or choose another data folder.`);
  }
  if (found !== DATA_FORMAT) await writeFileAtomic(file, JSON.stringify({ dataFormat: DATA_FORMAT }));
}

export async function serveShared(args: ServeArgs, env: NodeJS.ProcessEnv): Promise<number> {
  const dataDir = args.dataDir ?? defaultDataDir(env);
  const log = (level: string, message: string): void => {
    if (level !== 'debug' || env['TEAM_DATA_DEBUG']) process.stderr.write(`${new Date().toISOString()} [${level}] ${message}\n`);
  };
  let service: LocalService;
  let idle: (why: string) => void = () => undefined;
  try {
    await ensureServiceDir(dataDir);
    await checkFormat(dataDir);
    service = await startLocalService({
      dataDir,
      apiKey: args.apiKey ?? randomApiKey(),
      host: '127.0.0.1',
      port: args.port,
      duckdb: duckdbLimitsFromEnv(env),
      allowPrivateNetworks: allowPrivateNetworksFromEnv(env),
      readRoots: args.readRoots,
      readHardLinks: args.readHardLinks,
      logger: log,
      shared: {
        version: BUILD_VERSION,
        ttlMs: msFromEnv(env, 'TEAM_DATA_LEASE_TTL_MS', DEFAULT_LEASE_TTL_MS),
        idleMs: msFromEnv(env, 'TEAM_DATA_IDLE_MS', DEFAULT_IDLE_MS),
        onIdle: (why) => idle(why),
      },
    });
    await writeDiscovery(dataDir, { pid: process.pid, baseUrl: service.baseUrl, apiKey: service.apiKey, version: BUILD_VERSION, dataFormat: DATA_FORMAT, startedAt: Date.now() });
  } catch (err) {
    process.stderr.write(`${CANNOT_START}${startFailureText(err, dataDir)}\n`);
    // DuckDB's threads or an open handle must not keep a failed service alive.
    process.exit(1);
  }
  log('info', `shared local service ${BUILD_VERSION} (pid ${process.pid}) serving ${dataDir} at ${service.baseUrl}; read roots: ${service.readRoots.join(', ') || 'none'}`);
  const why = await new Promise<string>((resolve) => {
    idle = resolve;
    const stop = (): void => resolve('stopped by a signal');
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  log('info', `stopping: ${why}`);
  exitIfStuck((l) => process.stderr.write(l));
  await service.close();
  await removeDiscovery(dataDir, process.pid);
  return 0;
}
