/**
 * A columnar copy of a CSV read in place. A view over a CSV re-reads (and re-parses) the whole file
 * on every query: 1.8 s a question on 1 GB, and the question index's dozens of aggregate scans took
 * 10 s. So once the ingest has read the file (its statistics scan, which the overview answers from),
 * a background step (copyWriter.ts) writes the rows, as the view gives them, into a Parquet file with
 * ZSTD in the data folder, and the view is then swapped to read that copy. Measured on the
 * benchmark's 1 GB CSV (2 cores): written inside the read, the copy made the first answer come
 * about 1.5 s later (3.9 s + 0.5 s against 3.0 s for the statistics scan alone), hence after the
 * read; every later question reads 64 MB (6% of the file) instead of parsing 1 GB (a grouped
 * average: 0.05 s against 1.2 s). A DuckDB database file was larger (22%) and slower to write
 * (5.6 s); LZ4 saved 0.25 s of the write for a copy 2.4 times larger, and an uncompressed one saved
 * 0.3 s but was 28% of the file. The price is memory: DuckDB keeps the rows in the file's order by
 * holding finished batches until their turn, which took the process to 790 MiB (with DuckDB's limit
 * at 1.5 GiB) against 200 MiB for the statistics scan.
 *
 * The copy is a cache, never the data: it is used while the file has the size and modification time
 * it had just before it was copied (checked before the view is swapped to it, and whenever the store
 * describes the source, so before every job), it is dropped with its source and when the file is
 * read again (a copy still being written then is stopped and never used), and when it cannot be made
 * (disk full, folder not writable, out of memory), is larger than {@link MAX_CACHE_SHARE} of the
 * file, or would not read back with the view's exact columns and types, or the table is wider than
 * {@link MAX_CACHE_COLUMNS}, the view simply keeps reading the file.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnInfo, InPlaceCache } from '../engine';
import { quoteIdent, quoteLiteral } from './sqlText';

/** Folder of the copies, inside the data folder. */
export const CACHE_DIR = 'inplace-cache';
/** Largest copy kept, as a share of the file's size. */
export const MAX_CACHE_SHARE = 0.25;
/**
 * Widest table copied. The Parquet writer keeps buffers per column: a 2,000-column CSV of 5,000 rows
 * took the read from 3.7 s and 680 MiB to 5.7 s and 1,030 MiB with a copy, and wide files already
 * read close to DuckDB's memory limit (issue 25).
 */
export const MAX_CACHE_COLUMNS = 500;
/**
 * Smallest file copied: below it a question re-reads the file in well under a tenth of a second
 * (a 16 MB CSV: about 0.05 s on 2 cores), so a copy buys nothing a user notices.
 */
export const MIN_CACHE_BYTES = 16 * 1024 * 1024;

/** Where a source's copy may be written (set by the store when caching is on). */
export interface CacheRequest {
  dir: string;
  /** The file read, as DuckDB reads it. */
  file: string;
  /** Largest copy kept, as a share of the file (default {@link MAX_CACHE_SHARE}). */
  maxShare?: number;
  /** Smallest file copied (default {@link MIN_CACHE_BYTES}). */
  minBytes?: number;
}

/** The copy could not be written (disk full, folder not writable, out of memory): the view keeps reading the file. */
export class CacheWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CacheWriteError';
  }
}

/** The view over a copy. */
export function cacheSelect(path: string): string {
  return `SELECT * FROM read_parquet(${quoteLiteral(path)})`;
}

/** The copies of a table are named `<table>-<stamp>.parquet`; table names never hold a `-`. */
function cacheName(table: string): string {
  return `${table}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}.parquet`;
}

/** Whether `name` (a file in the cache folder) is a copy of one of the tables named by `prefix` (a source's). */
export function isCacheOf(name: string, prefix: string): boolean {
  return name.endsWith('.parquet') && (name.startsWith(`${prefix}-`) || name.startsWith(`${prefix}__`));
}

/** The file's size and modification time, or undefined when it is gone. */
async function stampOf(path: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  const s = await stat(path).catch(() => undefined);
  return s === undefined ? undefined : { size: s.size, mtimeMs: s.mtimeMs };
}

/**
 * Copies `view` (whose columns are `columns`) into a Parquet file in `req.dir`, on `conn`. The file's
 * stamp is taken before: when `expected` is given (the stamp the ingest's read saw) and the file no
 * longer has it, no copy is made. A failure to write the copy throws {@link CacheWriteError}; other
 * errors (an interrupt) pass as they are, and no file is left either way. Returns the copy, and
 * whether it may be kept: a copy over {@link MAX_CACHE_SHARE} of the file, or one that reads back
 * with other columns or types, may not.
 */
export async function writeCache(conn: DuckDBConnection, view: string, columns: readonly ColumnInfo[], req: CacheRequest, table: string, expected?: { size: number; mtimeMs: number }): Promise<{ cache: Omit<InPlaceCache, 'fileSelect'>; keep: boolean } | undefined> {
  const before = await stampOf(req.file);
  if (before === undefined || columns.length > MAX_CACHE_COLUMNS || before.size < (req.minBytes ?? MIN_CACHE_BYTES)) return undefined;
  if (expected !== undefined && (expected.size !== before.size || expected.mtimeMs !== before.mtimeMs)) return undefined;
  const path = resolve(req.dir, cacheName(table));
  try {
    await conn.run(`COPY (SELECT * FROM ${quoteIdent(view)}) TO ${quoteLiteral(path)} (FORMAT parquet, COMPRESSION zstd)`);
  } catch (err) {
    await rm(path, { force: true }).catch(() => undefined);
    const m = err instanceof Error ? err.message : String(err);
    // Out of memory too: the copy holds more than the read alone.
    if (m.includes(resolve(req.dir)) || /no space left|disk (is )?full|could not write|read-only file system|out of memory/i.test(m)) throw new CacheWriteError(m);
    throw err;
  }
  let bytes: number;
  let back: Awaited<ReturnType<DuckDBConnection['runAndReadAll']>>;
  try {
    bytes = (await stat(path)).size;
    back = await conn.runAndReadAll(`${cacheSelect(path)} LIMIT 0`);
  } catch (err) {
    // Stopped (a re-read, a delete) or failed after the copy was written: it goes too.
    await rm(path, { force: true }).catch(() => undefined);
    throw err;
  }
  const sameRows = back.columnCount === columns.length && columns.every((c, i) => back.columnName(i) === c.name && back.columnType(i).toString() === c.type);
  const keep = sameRows && bytes < before.size * (req.maxShare ?? MAX_CACHE_SHARE);
  return { cache: { path, bytes, file: req.file, fileBytes: before.size, fileMtimeMs: before.mtimeMs }, keep };
}

/** Whether a copy may still stand for its file: the file unchanged since it was copied, and the copy there. */
export async function cacheHolds(cache: InPlaceCache): Promise<boolean> {
  const [file, copy] = await Promise.all([stampOf(cache.file), stampOf(cache.path)]);
  return file !== undefined && copy !== undefined && file.size === cache.fileBytes && file.mtimeMs === cache.fileMtimeMs && copy.size === cache.bytes;
}

/** Removes the copies in `dir` that `drop` picks (by file name). Missing folder or files are fine. */
export async function removeCaches(dir: string, drop: (name: string) => boolean): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.endsWith('.parquet') && drop(n)).map((n) => rm(join(dir, n), { force: true }).catch(() => undefined)));
}
