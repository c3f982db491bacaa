/**
 * Parquet files and workbooks inside gzip (`sales.parquet.gz`, `book.xlsx.gz`). DuckDB inflates
 * gzip only for its text readers, and both formats are read from their end (Parquet's footer, the
 * ZIP directory of an XLSX), so such a file is inflated once, in a stream, into the store's scratch
 * folder and read from there by the usual Parquet or workbook path (parquetIngest.ts, xlsxIngest.ts).
 * - Capped: a small file can inflate to gigabytes ("gzip bomb"). The bytes are counted as they come
 *   out (the size a gzip trailer states is the sender's to choose), and past the cap the copy stops
 *   and is removed.
 * - Cancellable: the job's signal destroys the pipeline mid-stream; the partial copy is removed.
 * - A stream cut short or damaged gives the same reasons as gzipScan.ts, naming the user's file.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { IngestError, type IngestResult } from '../engine';
import { inflatedTooLarge, zlibReason } from './gzipScan';
import { ingestParquet, type ParquetArgs } from './parquetIngest';
import { MAX_SPREADSHEET_BYTES } from './sheetWorkerClient';
import { ingestSpreadsheet } from './xlsxIngest';

export interface InflatedCopy {
  /** The inflated file, in `workDir`. */
  path: string;
  /** Its size. */
  bytes: number;
  /** Removes the copy. Safe to call twice. */
  cleanup(): Promise<void>;
}

export interface InflateOptions {
  /** The scratch folder the copy goes to (one DuckDB may read, emptied when the store opens). */
  workDir: string;
  /** Inflated bytes beyond which the file is refused. */
  maxBytes: number;
  signal: AbortSignal;
  /** The copy's extension (`.parquet`, `.xlsx`): what it holds, for anyone looking at the folder. */
  ext: string;
}

/** Passes chunks on until `maxBytes` have passed, then fails with the reason for `fileName`. */
function byteCap(fileName: string, maxBytes: number): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback): void {
      bytes += chunk.length;
      if (bytes > maxBytes) done(inflatedTooLarge(fileName, maxBytes));
      else done(null, chunk);
    },
  });
}

/**
 * Inflates the gzip file at `path` into `o.workDir`. Throws {@link IngestError} for an empty,
 * truncated or damaged file and one inflating beyond `o.maxBytes`, the abort reason when `o.signal`
 * aborts; no partial copy is left behind either way.
 */
export async function inflateToScratch(path: string, fileName: string, o: InflateOptions): Promise<InflatedCopy> {
  if ((await stat(path)).size === 0) throw new IngestError(`${fileName} is empty`);
  const dst = join(o.workDir, `${randomUUID()}${o.ext}`);
  const cleanup = (): Promise<void> => rm(dst, { force: true });
  try {
    // `flags: 'wx'`: a fresh name, never someone else's file.
    await pipeline(createReadStream(path), createGunzip(), byteCap(fileName, o.maxBytes), createWriteStream(dst, { flags: 'wx' }), { signal: o.signal });
  } catch (err) {
    await cleanup();
    o.signal.throwIfAborted();
    if (err instanceof IngestError) throw err;
    const reason = zlibReason(err, fileName);
    if (reason !== undefined) throw new IngestError(reason);
    throw err;
  }
  const bytes = (await stat(dst)).size;
  if (bytes === 0) {
    await cleanup();
    throw new IngestError(`${fileName} is empty once decompressed`);
  }
  return { path: dst, bytes, cleanup };
}

/**
 * Runs `read` on an inflated copy of `path` and removes the copy afterwards, whatever `read` did.
 * For reads that copy the data into DuckDB (a table, or SheetJS's grids): nothing reads the copy
 * once `read` is done.
 */
export async function readInflated<T>(path: string, fileName: string, o: InflateOptions, read: (copy: string) => Promise<T>): Promise<T> {
  const copy = await inflateToScratch(path, fileName, o);
  try {
    return await read(copy.path);
  } finally {
    await copy.cleanup();
  }
}

/** What the ingest of a compressed Parquet file or workbook needs besides the source's own arguments. */
export interface InflatedIngest {
  workDir: string;
  /** The store's cap on inflated bytes (StoreLimits.maxInflatedBytes). */
  maxInflatedBytes: number;
}

/**
 * Ingests a `.parquet.gz` or `.xlsx.gz`: inflated to scratch, read into the source's table(s), and
 * the copy removed at once. Even a file added in place gets a table, not a view over the copy, as
 * csvIngest.ts does for its transcoded scratch copies: a view would read the copy on every question,
 * and the scratch folder is emptied whenever the store opens, so the view would break at the next
 * start. An edit of the file is still seen: the ingest queue reads an in-place file again when its
 * size or modification time changes, whatever its kind.
 */
export async function ingestInflated(kind: 'parquet' | 'spreadsheet', args: ParquetArgs, o: InflatedIngest): Promise<IngestResult> {
  const parquet = kind === 'parquet';
  // A workbook larger than the sheet reader takes is refused at that size, not after inflating gigabytes.
  const opts = { workDir: o.workDir, signal: args.signal, ext: parquet ? '.parquet' : '.xlsx', maxBytes: parquet ? o.maxInflatedBytes : Math.min(o.maxInflatedBytes, MAX_SPREADSHEET_BYTES) };
  return readInflated(args.filePath, args.fileName, opts, (path) => (parquet
    ? ingestParquet({ ...args, filePath: path, inPlace: false })
    : ingestSpreadsheet({ ...args, filePath: path })));
}
