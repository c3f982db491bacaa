/**
 * What DuckDB may reach and use. The SQL guard checks model- and engine-written SQL, but a guard is
 * one bug away from reading any file the process can; so the database itself is set up so that no
 * statement, guarded or not, can touch the file system beyond the folders ingest must read
 * (`enable_external_access = false` with `allowed_directories`), and memory and threads are capped
 * with a spill directory inside the data folder, so a hostile file cannot take the machine's memory.
 */
import { mkdir, rm } from 'node:fs/promises';
import { availableParallelism, totalmem } from 'node:os';
import { basename, join, resolve, sep } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { linkOrCopy } from '../files/linkOrCopy';

export interface StoreLimits {
  /** DuckDB `memory_limit`, e.g. `'1GB'` or `'25%'` of the machine (default: a quarter, at most {@link DEFAULT_MAX_MEMORY}). */
  memoryLimit?: string;
  /** Worker threads DuckDB may use (default: the machine's cores, at most 8). */
  threads?: number;
  /** Folders ingest may read besides the store's own scratch folder (the service passes its sources folder). */
  readableDirs?: readonly string[];
  /** Bytes a gzip-compressed file may inflate to (default 8 GiB; the service passes its upload limit). */
  maxInflatedBytes?: number;
  /** Copy CSVs read in place into a columnar cache in the data folder (inPlaceCache.ts); default true. */
  inPlaceCache?: boolean;
  /** Largest copy kept, as a share of the file (default 0.25; tests keep every copy to check answers from it). */
  maxCacheShare?: number;
  /**
   * Smallest file copied (default {@link MIN_CACHE_BYTES} in inPlaceCache.ts: a small file is read
   * again in milliseconds, and a copy would only add a file and a word in the tree).
   */
  minCacheBytes?: number;
}

const GIB = 1024 ** 3;
/**
 * The default memory limit's ceiling. The service as a whole should stay under 2 GB, and DuckDB's
 * limit counts only its buffer manager: the JS heap, DuckDB's own bookkeeping and the allocator's
 * slack come on top. At 2 GiB a query stopped at the limit left the process at 2.1 GB.
 */
export const DEFAULT_MAX_MEMORY = 1.5 * GIB;

/** `'25%'` → bytes of this machine; `'1.5GB'`, `'800MB'` pass through as DuckDB reads them. */
export function memoryLimitSetting(limit: string | undefined): string {
  const share = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(limit ?? '');
  if (limit !== undefined && share === null) {
    if (!/^\s*\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i.test(limit)) throw new Error(`memory limit "${limit}" is not a size such as 2GB or a share such as 25%`);
    return limit.trim();
  }
  const fraction = share !== null ? Math.min(90, Math.max(1, Number(share[1]))) / 100 : 0.25;
  const bytes = share !== null ? totalmem() * fraction : Math.min(totalmem() * fraction, DEFAULT_MAX_MEMORY);
  return `${Math.max(64, Math.floor(bytes / 1024 ** 2))}MiB`;
}

/** A directory as DuckDB compares it: absolute, ending with the separator (so `/a/src` never admits `/a/src-x`). */
const asDir = (d: string): string => {
  const r = resolve(d);
  return r.endsWith(sep) ? r : r + sep;
};

/** Applies the limits on the first connection; afterwards no statement can widen them again. */
export async function lockDown(conn: DuckDBConnection, spillDir: string, readable: readonly string[], limits: StoreLimits): Promise<void> {
  await mkdir(spillDir, { recursive: true });
  const threads = Math.max(1, Math.floor(limits.threads ?? Math.min(availableParallelism(), 8)));
  const dirs = readable.map((d) => `'${asDir(d).replace(/'/g, "''")}'`).join(', ');
  await conn.run(`SET temp_directory = '${resolve(spillDir).replace(/'/g, "''")}'`);
  await conn.run(`SET memory_limit = '${memoryLimitSetting(limits.memoryLimit)}'`);
  await conn.run(`SET threads = ${threads}`);
  // jemalloc keeps what a query freed for the thread that freed it; without its background threads a
  // query that failed at the memory limit left the process at that size until the thread ran again.
  await conn.run('SET allocator_background_threads = true');
  await conn.run(`SET allowed_directories = [${dirs}]`);
  await conn.run('SET enable_external_access = false');
  // The one setting a locked connection may still change: how far a streamed result runs ahead of
  // its reader (queryRunner.ts lowers it; it reaches no file and no limit).
  await conn.run(`SET allowed_configs = ['streaming_buffer_size']`);
  // Settings that would undo the above are refused from now on (DuckDB locks them itself).
  await conn.run('SET lock_configuration = true');
}

/** Whether `path` lies inside one of `dirs`. */
export function isInside(path: string, dirs: readonly string[]): boolean {
  const p = resolve(path);
  return dirs.some((d) => p.startsWith(asDir(d)));
}

/**
 * A path DuckDB may read for `filePath`: the file itself when it lies in a readable folder, else a
 * hard link (or, across file systems, a copy) in the scratch folder, removed by `release`.
 */
export async function readablePath(filePath: string, readable: readonly string[], scratch: string, id: string): Promise<{ path: string; release(): Promise<void> }> {
  if (isInside(filePath, readable)) return { path: filePath, release: async () => undefined };
  const target = join(scratch, `${id.replace(/[^A-Za-z0-9_-]/g, '_')}-${basename(filePath)}`);
  await rm(target, { force: true });
  await linkOrCopy(filePath, target);
  return { path: target, release: () => rm(target, { force: true }) };
}
