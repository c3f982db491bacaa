/**
 * How the explorer reads a file: with the very readers, sniffing and checks the service's ingest uses
 * (csvIngest.ts, jsonIngest.ts, parquetIngest.ts, xlsxIngest.ts), but into a database of the view's
 * own (attached from the store's scratch folder, so closing a view gives its disk space back).
 *
 * - CSV/TSV: sniffed once (header, month-first dates, DuckDB's pinned call), so the first rows come
 *   straight from the file while the whole file is read into a table in the background, with the
 *   ingest's escalation (whole-file sample, then text) when a later value does not fit.
 * - Parquet: read where it is (columnar: a page or a count reads only what it needs); its row number
 *   keeps sorted pages stable. A `.parquet.gz` is inflated into the scratch folder (gzipCopy.ts) and
 *   read there the same way, so the copy lives as long as the view reads it (see openParquet).
 * - JSON Lines and workbook sheets: read whole at open (a JSON value has to be flattened, a workbook
 *   parsed), then ready. An `.xlsx.gz` is inflated to scratch for the parse and the copy removed.
 */
import { open as openFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { EXPLORE_LIMITS } from '../../shared/explore';
import { IngestError, type ColumnInfo } from '../engine';
import { escalate, FIRST_ATTEMPT, lineCheckAlongside, missedHeader, readCsvCall, readCsvOptions, type CsvAttempt } from '../duckdb/csvIngest';
import { monthFirstFormat } from '../duckdb/csvDateOrder';
import { pinnedCsvSelect } from '../duckdb/csvPinned';
import { duckDbFileName, duckDbReason, fileFormatOf } from '../duckdb/fileKinds';
import { scanGzip } from '../duckdb/gzipScan';
import { isEncodingError, isGlobLike, prepareInput, transcodeLegacy, type PreparedInput } from '../duckdb/ingestInput';
import { checkJsonDepth, jsonDepthGuard } from '../duckdb/jsonDepth';
import { readJsonCall, readJsonOptions } from '../duckdb/jsonIngest';
import { jsonSelectList } from '../duckdb/jsonShape';
import { lineLengthGuard, MAX_LINE_BYTES } from '../duckdb/lineLength';
import { inflateToScratch, readInflated } from '../duckdb/gzipCopy';
import { checkParquetEnds } from '../duckdb/parquetIngest';
import { MAX_SPREADSHEET_BYTES, readSheetsOffThread } from '../duckdb/sheetWorkerClient';
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';
import { writeSheetTable } from '../duckdb/xlsxIngest';

export type ExploreFormat = 'csv' | 'tsv' | 'parquet' | 'json' | 'xlsx';

/** What a file gives once opened: its columns, where rows come from now, and what is left to read. */
export interface OpenedFile {
  format: ExploreFormat;
  columns: ColumnInfo[];
  /** Where pages come from: a relation (table or reader call) and its row order (a column or rowid). */
  relation: string;
  tiebreak?: string;
  /** True while `relation` is the file itself and a table is still to be read (`finish`). */
  reading: boolean;
  /** The reader over the file's own name, for Copy as SQL (`read_csv('sales.csv', ...)`). */
  shown: string;
  /** Bytes DuckDB reads (inflated for gzip). */
  bytes: number;
  sheets?: string[];
  sheet?: string;
  /**
   * Reads the whole file into `target` (a quoted table name); `conn` tracks its progress. Returns
   * the columns as read (a later value may have turned a column into text) and the shown reader.
   */
  finish?: (conn: DuckDBConnection, target: string, signal: AbortSignal) => Promise<{ columns: ColumnInfo[]; shown: string }>;
  /** The file DuckDB reads when it is not the user's (an inflated copy in scratch): named in no message. */
  readPath?: string;
  /** Removes temporary copies (a transcoded file). */
  cleanup(): Promise<void>;
}

export interface FileArgs {
  conn: DuckDBConnection;
  path: string;
  /** The base name the user sees (also the name in shown SQL). */
  fileName: string;
  /** A quoted table name in the view's own database, for formats read whole at open. */
  target: string;
  sheet?: string;
  scratch: string;
  maxInflatedBytes: number;
  signal: AbortSignal;
}

export function formatOf(fileName: string): { format: ExploreFormat; gzip: boolean } {
  const { kind, gzip } = fileFormatOf(fileName);
  if (kind === 'csv' || kind === 'tsv' || kind === 'parquet' || kind === 'json') return { format: kind, gzip };
  if (kind === 'spreadsheet' && /\.xlsx(\.gz)?$/i.test(fileName)) return { format: 'xlsx', gzip };
  throw new IngestError(`the explorer opens .csv, .tsv, .parquet, .jsonl, .ndjson and .xlsx files (and .csv.gz, .tsv.gz, .parquet.gz, .jsonl.gz, .ndjson.gz, .xlsx.gz); not ${fileName}`);
}

async function describe(conn: DuckDBConnection, select: string): Promise<ColumnInfo[]> {
  const r = await conn.runAndReadAll(`DESCRIBE ${select}`);
  return r.getRows().map((row) => ({ name: String(row[0]), type: String(row[1]) }));
}

function tooWide(fileName: string, n: number): IngestError {
  return new IngestError(`${fileName} has ${n.toLocaleString('en-US')} columns; the explorer shows at most ${EXPLORE_LIMITS.columns.toLocaleString('en-US')}. Select fewer columns (or ask a question about the file instead)`);
}

/** The first bytes of a plain text file, checked for a line DuckDB would refuse, and its header's field count. */
async function checkHead(path: string, fileName: string, label: string, delim: string): Promise<void> {
  const fh = await openFile(path, 'r');
  try {
    const buf = Buffer.alloc(MAX_LINE_BYTES + 1);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead);
    lineLengthGuard(fileName, label)(head);
    const nl = head.indexOf(10);
    const first = head.subarray(0, nl < 0 ? head.length : nl).toString('utf8');
    let fields = 1;
    let quoted = false;
    for (const ch of first) {
      if (ch === '"') quoted = !quoted;
      else if (ch === delim && !quoted) fields++;
    }
    if (fields > EXPLORE_LIMITS.columns) throw tooWide(fileName, fields);
  } finally {
    await fh.close();
  }
}

async function openDelimited(a: FileArgs, tab: boolean, gzip: boolean): Promise<OpenedFile> {
  const label = tab ? 'TSV' : 'CSV';
  const { conn, fileName, signal } = a;
  const scan = gzip ? await scanGzip(a.path, fileName, { maxBytes: a.maxInflatedBytes, signal, onChunk: lineLengthGuard(fileName, label) }) : undefined;
  if (!gzip) await checkHead(a.path, fileName, label, tab ? '\t' : ',');
  let input: PreparedInput = await prepareInput(a.path, fileName, label, a.scratch, signal, scan);
  try {
    const attempt: CsvAttempt = { ...FIRST_ATTEMPT };
    if (!input.gzip && (await missedHeader(input.path, tab))) attempt.header = true;
    if (!input.gzip) {
      const format = await monthFirstFormat(conn, input.path, readCsvOptions(tab, attempt)).catch(() => undefined);
      if (format !== undefined) attempt.dateFormat = format;
    }
    const plain = `SELECT * FROM ${readCsvCall(input.path, tab, attempt, input.gzip)}`;
    const pinned = (await pinnedCsvSelect(conn, input.path, readCsvOptions(tab, attempt, input.gzip))) ?? plain;
    const columns = await describe(conn, pinned).catch((err: unknown) => {
      throw new IngestError(`could not read ${fileName} as ${label}: ${duckDbReason(err, input.path, fileName)}`);
    });
    if (columns.length > EXPLORE_LIMITS.columns) throw tooWide(fileName, columns.length);
    const shownOf = (at: CsvAttempt): string => {
      const options = readCsvOptions(tab, at, gzip);
      if (input.sourceEncoding === 'windows-1252') options.push(`encoding = 'latin-1'`);
      else if (input.sourceEncoding !== undefined) options.push(`encoding = 'utf-16'`);
      return `read_csv(${[quoteLiteral(fileName), ...options].join(', ')})`;
    };
    const bytes = scan?.bytes ?? (await stat(input.path)).size;
    const finish = async (c: DuckDBConnection, target: string, sig: AbortSignal): Promise<{ columns: ColumnInfo[]; shown: string }> => {
      // As the ingest does: lines measured beside DuckDB's read, which they stop when one is too long.
      const lines = input.gzip || input.transcoded ? undefined : lineCheckAlongside(c, input.path, fileName, label, sig, () => undefined);
      let at: CsvAttempt | undefined = attempt;
      let select = pinned;
      let lastError: unknown;
      try {
        while (at !== undefined) {
          try {
            await c.run(`CREATE OR REPLACE TABLE ${target} AS ${select}`);
            return { columns: await describe(c, `SELECT * FROM ${target}`), shown: shownOf(at) };
          } catch (err) {
            sig.throwIfAborted();
            const tooLong = await lines?.failure();
            if (tooLong !== undefined) throw tooLong;
            lastError = err;
            if (isEncodingError(err) && !input.transcoded) {
              input = await transcodeLegacy(input, a.scratch, sig);
            } else at = escalate(at, err);
            if (at !== undefined) select = `SELECT * FROM ${readCsvCall(input.path, tab, at, input.gzip)}`;
          }
        }
        throw new IngestError(`could not read ${fileName} as ${label}: ${duckDbReason(lastError, input.path, fileName)}`);
      } finally {
        lines?.stop();
      }
    };
    return {
      format: tab ? 'tsv' : 'csv', columns, relation: `(${pinned})`, reading: true, shown: shownOf(attempt), bytes, finish,
      cleanup: () => input.cleanup(),
    };
  } catch (err) {
    await input.cleanup();
    throw err;
  }
}

/** The select list that flattens nested values of `from` as the ingest does (jsonShape.ts), if any. */
async function flattened(conn: DuckDBConnection, from: string): Promise<string[] | undefined> {
  await conn.run(`CREATE OR REPLACE TEMP VIEW explore_shape AS SELECT * FROM ${from}`);
  try {
    return await jsonSelectList(conn, 'explore_shape');
  } finally {
    await conn.run('DROP VIEW IF EXISTS explore_shape').catch(() => undefined);
  }
}

/**
 * A `.parquet.gz` is inflated into scratch first. Its pages are read from the copy lazily, as a
 * plain file's are, so the copy is kept as long as the view and removed by its `cleanup` (the view
 * calls it when closed, and before reading an edited file again: the new file gets a new copy).
 */
async function openParquet(a: FileArgs, gzip: boolean): Promise<OpenedFile> {
  if (!gzip) return openParquetAt(a, a.path, async () => undefined);
  const copy = await inflateToScratch(a.path, a.fileName, { workDir: a.scratch, maxBytes: a.maxInflatedBytes, signal: a.signal, ext: '.parquet' });
  try {
    return { ...(await openParquetAt(a, copy.path, copy.cleanup)), readPath: copy.path };
  } catch (err) {
    await copy.cleanup();
    throw err;
  }
}

async function openParquetAt(a: FileArgs, path: string, cleanup: () => Promise<void>): Promise<OpenedFile> {
  const { conn, fileName } = a;
  await checkParquetEnds(path, fileName);
  if (isGlobLike(path)) throw new IngestError(`${fileName} cannot be opened where it is: its path holds one of * ? [ ] { }, which DuckDB reads as a pattern; rename it`);
  const reader = `read_parquet(${quoteLiteral(path)})`;
  let flat: string[] | undefined;
  let columns: ColumnInfo[];
  try {
    flat = await flattened(conn, reader);
    columns = await describe(conn, `SELECT ${flat?.join(', ') ?? '*'} FROM ${reader}`);
  } catch (err) {
    throw new IngestError(`could not read ${fileName} as Parquet (is it damaged?): ${duckDbReason(err, path, fileName)}`);
  }
  if (columns.length > EXPLORE_LIMITS.columns) throw tooWide(fileName, columns.length);
  // DuckDB reads Parquet only decompressed: shown SQL names the file gunzip makes of a .parquet.gz.
  const shownReader = `read_parquet(${quoteLiteral(duckDbFileName(fileName))})`;
  const shown = flat === undefined ? shownReader : `(SELECT ${flat.join(', ')} FROM ${shownReader})`;
  // The row number orders pages; a file with a column of that very name keeps DuckDB's order.
  const own = columns.some((c) => c.name === 'file_row_number' || c.name === ROW);
  const relation = own ? `(SELECT ${flat?.join(', ') ?? '*'} FROM ${reader})`
    : `(SELECT ${flat?.join(', ') ?? '* EXCLUDE (file_row_number)'}, file_row_number AS ${quoteIdent(ROW)} FROM read_parquet(${quoteLiteral(path)}, file_row_number = true))`;
  return {
    format: 'parquet', columns, relation, ...(own ? {} : { tiebreak: quoteIdent(ROW) }), reading: false, shown, bytes: (await stat(path)).size,
    cleanup,
  };
}

/** The row-order column the explorer adds to a Parquet reader. */
export const ROW = '__explore_row';

async function openJson(a: FileArgs, gzip: boolean): Promise<OpenedFile> {
  const { conn, fileName, signal, target } = a;
  const limits = { lines: true };
  const scan = gzip ? await scanGzip(a.path, fileName, { maxBytes: a.maxInflatedBytes, signal, onChunk: jsonDepthGuard(fileName, undefined, limits) }) : undefined;
  if (scan === undefined) await checkJsonDepth(a.path, fileName, signal, undefined, undefined, limits);
  let input: PreparedInput = await prepareInput(a.path, fileName, 'JSON', a.scratch, signal, scan);
  try {
    let sampleAll = false;
    for (;;) {
      try {
        const reader = readJsonCall(input.path, sampleAll, input.gzip);
        const flat = await flattened(conn, reader);
        await conn.run(`CREATE OR REPLACE TABLE ${target} AS SELECT ${flat?.join(', ') ?? '*'} FROM ${reader}`);
        const columns = await describe(conn, `SELECT * FROM ${target}`);
        if (columns.length > EXPLORE_LIMITS.columns) throw tooWide(fileName, columns.length);
        const shownReader = `read_json_auto(${[quoteLiteral(fileName), ...readJsonOptions(sampleAll, gzip)].join(', ')})`;
        return {
          format: 'json', columns, relation: target, tiebreak: 'rowid', reading: false, bytes: scan?.bytes ?? (await stat(input.path)).size,
          shown: flat === undefined ? shownReader : `(SELECT ${flat.join(', ')} FROM ${shownReader})`,
          cleanup: async () => undefined,
        };
      } catch (err) {
        signal.throwIfAborted();
        if (err instanceof IngestError) throw err;
        if (isEncodingError(err) && !input.transcoded) {
          input = await transcodeLegacy(input, a.scratch, signal);
          continue;
        }
        if (/conversion error|could not convert|could not cast|failed to cast/i.test(String(err)) && !sampleAll) {
          sampleAll = true;
          continue;
        }
        throw new IngestError(`could not read ${fileName} as JSON: ${duckDbReason(err, input.path, fileName)}`);
      }
    }
  } finally {
    await input.cleanup();
  }
}

async function openWorkbook(a: FileArgs, gzip: boolean): Promise<OpenedFile> {
  // A compressed workbook's copy is needed only while SheetJS parses it: the sheet goes into a table.
  const opts = { workDir: a.scratch, maxBytes: Math.min(a.maxInflatedBytes, MAX_SPREADSHEET_BYTES), signal: a.signal, ext: '.xlsx' };
  const sheets = gzip ? await readInflated(a.path, a.fileName, opts, (path) => readSheetsOffThread(path, a.fileName, a.signal)) : await readSheetsOffThread(a.path, a.fileName, a.signal);
  if (sheets.length === 0) throw new IngestError(`${a.fileName} has no sheet with data`);
  const chosen = a.sheet === undefined ? sheets[0] : sheets.find((s) => s.name === a.sheet);
  if (chosen === undefined) throw new IngestError(`${a.fileName} has no sheet "${a.sheet ?? ''}"; its sheets: ${sheets.map((s) => s.name).join(', ')}`);
  if (chosen.table.columns.length > EXPLORE_LIMITS.columns) throw tooWide(`${a.fileName} (${chosen.name})`, chosen.table.columns.length);
  await writeSheetTable(a.conn, a.target, chosen, a.signal);
  return {
    format: 'xlsx', columns: await describe(a.conn, `SELECT * FROM ${a.target}`), relation: a.target, tiebreak: 'rowid', reading: false,
    shown: `read_xlsx(${[quoteLiteral(duckDbFileName(a.fileName)), `sheet = ${quoteLiteral(chosen.name)}`, 'header = true'].join(', ')})`,
    bytes: (await stat(a.path)).size, sheets: sheets.map((s) => s.name), sheet: chosen.name,
    cleanup: async () => undefined,
  };
}

/** Opens the file at `a.path` (already checked to be one the client may read). */
export async function openExploreFile(a: FileArgs): Promise<OpenedFile> {
  const { format, gzip } = formatOf(a.fileName);
  switch (format) {
    case 'csv':
    case 'tsv':
      return openDelimited(a, format === 'tsv', gzip);
    case 'parquet':
      return openParquet(a, gzip);
    case 'json':
      if (!/\.(jsonl|ndjson)(\.gz)?$/i.test(a.fileName)) throw new IngestError(`the explorer opens JSON Lines files (.jsonl, .ndjson); ${basename(a.fileName)} is plain JSON: ask about it, or save it as JSON Lines`);
      return openJson(a, gzip);
    case 'xlsx':
      return openWorkbook(a, gzip);
  }
}
