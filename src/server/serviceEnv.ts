/** Settings of the local service that come from the environment, shared by `main` and `team-data serve`. */
import type { StoreLimits } from './duckdb/duckDbStore';

/**
 * `TEAM_DATA_MEMORY_LIMIT` (`2GB`, `25%`) and `TEAM_DATA_THREADS` for DuckDB; `TEAM_DATA_IN_PLACE_CACHE=0`
 * keeps no columnar copies of CSVs read in place (every question reads the file, as before issue 27).
 */
export function duckdbLimitsFromEnv(env: NodeJS.ProcessEnv): Omit<StoreLimits, 'readableDirs'> {
  const out: Omit<StoreLimits, 'readableDirs'> = {};
  const mem = env['TEAM_DATA_MEMORY_LIMIT'];
  if (mem !== undefined && mem !== '') out.memoryLimit = mem;
  const threads = env['TEAM_DATA_THREADS'];
  if (threads !== undefined && threads !== '') {
    if (!/^[1-9]\d{0,2}$/.test(threads)) throw new Error('TEAM_DATA_THREADS: expected a whole number from 1 to 999');
    out.threads = Number(threads);
  }
  if (/^(0|false|no|off)$/i.test(env['TEAM_DATA_IN_PLACE_CACHE'] ?? '')) out.inPlaceCache = false;
  return out;
}

/** Time a stop request gets to finish cleanly before the process exits anyway. */
export const STOP_GRACE_MS = 4_000;

/**
 * Exits after {@link STOP_GRACE_MS} if a clean stop has not finished by then: SIGTERM must stop the
 * service within seconds even while DuckDB is stuck in a statement that does not see interrupts.
 * State files are replaced atomically, so an exit here loses nothing already acknowledged.
 */
export function exitIfStuck(write: (line: string) => void): void {
  setTimeout(() => {
    write('[error] the service did not stop within its grace period; exiting now\n');
    process.exit(1);
  }, STOP_GRACE_MS).unref();
}

/** `TEAM_DATA_ALLOW_PRIVATE_NETWORKS=1`: `url` data sources may fetch from private networks and this machine. */
export function allowPrivateNetworksFromEnv(env: NodeJS.ProcessEnv): boolean {
  return /^(1|true|yes)$/i.test(env['TEAM_DATA_ALLOW_PRIVATE_NETWORKS'] ?? '');
}
