/**
 * Converts a Parquet, JSON Lines or gzip-compressed file to a plain CSV with DuckDB, for services
 * that accept only CSV-like uploads (the hosted service). It reads the file with the same readers
 * and checks as local ingestion (gzip inflated and checked first, nested columns flattened; a
 * `.parquet.gz` inflated next to the output, as the store does in its scratch folder), so the CSV
 * holds the same table the local service would have analyzed.
 *
 * DuckDB runs in memory, may touch only the input's and the output's folders, and writes to a
 * `.part` file renamed at the end: a cancelled or failed conversion leaves nothing behind.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { IngestError } from '../engine';
import { isGlobLike } from './ingestInput';
import { duckDbReason, fileFormatOf } from './fileKinds';
import { inflateToScratch, type InflatedCopy } from './gzipCopy';
import { DEFAULT_MAX_INFLATED_BYTES, scanGzip } from './gzipScan';
import { jsonDepthGuard } from './jsonDepth';
import { readJsonOptions } from './jsonIngest';
import { readCsvOptions } from './csvIngest';
import { lineLengthGuard } from './lineLength';
import { selectFrom, jsonSelectList } from './jsonShape';
import { checkParquetEnds } from './parquetIngest';
import { memoryLimitSetting } from './sandbox';
import { quoteLiteral } from './sqlText';

export type ConvertPhase = 'checking' | 'converting';

export interface ConvertOptions {
  signal?: AbortSignal;
  /** `fraction` is 0..1 while converting, undefined while checking (its length is unknown). */
  onProgress?: (phase: ConvertPhase, fraction: number | undefined) => void;
  /** Bytes a gzip file may inflate to (default 8 GiB). */
  maxInflatedBytes?: number;
}


function readerCall(path: string, fileName: string): string {
  // DuckDB's readers take `*`, `?`, `[` and `{` as a pattern, which could read other files.
  if (isGlobLike(path)) throw new IngestError(`${fileName} cannot be converted where it is: its path holds one of * ? [ ] { }, which DuckDB reads as a pattern; rename it and try again`);
  const { kind, gzip } = fileFormatOf(fileName);
  const lit = quoteLiteral(path);
  // A `.parquet.gz` is read from its inflated copy (`path`), so the call is the same.
  if (kind === 'parquet') return `read_parquet(${lit})`;
  if (kind === 'json') return `read_json_auto(${[lit, ...readJsonOptions(false, gzip)].join(', ')})`;
  if ((kind === 'csv' || kind === 'tsv') && gzip) return `read_csv(${[lit, ...readCsvOptions(kind === 'tsv', undefined, true)].join(', ')})`;
  throw new IngestError(`${fileName} needs no conversion to CSV (only Parquet, JSON Lines and compressed files do)`);
}

/**
 * Writes `inputPath` as CSV (header, comma-separated, UTF-8) to `outputPath`. Resolves with the
 * number of rows; rejects with {@link IngestError} (a reason for the user) or the abort reason.
 */
export async function convertToCsv(inputPath: string, outputPath: string, o: ConvertOptions = {}): Promise<{ rows: number }> {
  const signal = o.signal ?? new AbortController().signal;
  const input = resolve(inputPath);
  const output = resolve(outputPath);
  const fileName = basename(input);
  const { kind, gzip } = fileFormatOf(fileName);
  // The hosted service takes the workbook itself; only the compression is in the way.
  if (kind === 'spreadsheet' && gzip) throw new IngestError(`${fileName} needs no conversion to CSV: decompress it to ${fileName.replace(/\.gz$/i, '')}, which the hosted service accepts, and add that instead`);
  let call = readerCall(input, fileName);
  if (gzip && kind !== 'parquet') {
    // DuckDB reads a gzip file cut short without complaint; check it whole first (gzipScan.ts).
    o.onProgress?.('checking', undefined);
    const onChunk = kind === 'json' ? jsonDepthGuard(fileName) : lineLengthGuard(fileName, kind === 'tsv' ? 'TSV' : 'CSV');
    await scanGzip(input, fileName, { maxBytes: o.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES, signal, onChunk });
  }
  await mkdir(dirname(output), { recursive: true });
  let copy: InflatedCopy | undefined;
  if (kind === 'parquet' && gzip) {
    o.onProgress?.('checking', undefined);
    copy = await inflateToScratch(input, fileName, { workDir: dirname(output), maxBytes: o.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES, signal, ext: '.parquet' });
    call = readerCall(copy.path, fileName);
  }
  try {
    if (kind === 'parquet') await checkParquetEnds(copy?.path ?? input, fileName);
    signal.throwIfAborted();
    return await convertWith(call, input, output, fileName, signal, o);
  } finally {
    await copy?.cleanup();
  }
}

/** Runs the conversion of `call` (a reader over `input`, or over its inflated copy beside `output`). */
async function convertWith(call: string, input: string, output: string, fileName: string, signal: AbortSignal, o: ConvertOptions): Promise<{ rows: number }> {
  const part = `${output}.part`;
  const spill = join(dirname(output), `.spill-${process.pid}`);
  const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  let conn: DuckDBConnection | undefined;
  let timer: NodeJS.Timeout | undefined;
  const onAbort = (): void => conn?.interrupt();
  signal.addEventListener('abort', onAbort);
  try {
    conn = await instance.connect();
    const c = conn;
    const dirs = [...new Set([dirname(input), dirname(output)])].map((d) => quoteLiteral(d.endsWith(sep) ? d : d + sep)).join(', ');
    await c.run(`SET temp_directory = ${quoteLiteral(spill)}`);
    await c.run(`SET memory_limit = '${memoryLimitSetting(undefined)}'`);
    await c.run(`SET allowed_directories = [${dirs}]`);
    await c.run('SET enable_external_access = false');
    await c.run('SET enable_progress_bar = true');
    await c.run('SET enable_progress_bar_print = false');
    await c.run('SET progress_bar_time = 0');
    await c.run('SET lock_configuration = true');
    await c.run(`CREATE TEMP VIEW source_rows AS SELECT * FROM ${call}`);
    const select = await jsonSelectList(c, 'source_rows');
    const query = select === undefined ? 'SELECT * FROM source_rows' : selectFrom(select, 'source_rows');
    o.onProgress?.('converting', 0);
    timer = setInterval(() => {
      const p = c.progress.percentage;
      if (p >= 0) o.onProgress?.('converting', Math.min(1, p / 100));
    }, 250);
    const result = await c.runAndReadAll(`COPY (${query}) TO ${quoteLiteral(part)} (FORMAT csv, HEADER)`);
    const rows = Number(result.getRows()[0]?.[0] ?? 0);
    signal.throwIfAborted();
    await rename(part, output);
    o.onProgress?.('converting', 1);
    return { rows };
  } catch (err) {
    await rm(part, { force: true });
    signal.throwIfAborted();
    if (err instanceof IngestError) throw err;
    throw new IngestError(`could not convert ${fileName} to CSV: ${duckDbReason(err, input, fileName)}`);
  } finally {
    if (timer !== undefined) clearInterval(timer);
    signal.removeEventListener('abort', onAbort);
    conn?.disconnectSync();
    instance.closeSync();
    await rm(spill, { recursive: true, force: true });
  }
}
