/**
 * CSV/TSV -> one DuckDB table, read entirely by DuckDB (`CREATE TABLE AS SELECT * FROM read_csv`):
 * no row passes through JS, so ingestion runs at DuckDB's own speed.
 *
 * Options, and why:
 * - `auto_detect` (default): delimiter, quoting, header and types are sniffed; real files vary.
 *   TSV gets `delim='\t'` because a tab file with a single column would otherwise sniff as CSV.
 * - `null_padding = true`: ragged rows (fewer fields than the header) become NULLs instead of
 *   failing or confusing the header detection; extra fields get their own column.
 * - `sample_size`: the default (20,480 rows) first, for speed. A value later in the file that does
 *   not fit the sniffed type raises a conversion error; then the file is sniffed whole
 *   (`sample_size = -1`, a second pass), and as a last resort every column is read as VARCHAR, so a
 *   messy column degrades to text instead of failing the upload.
 * - `strict_mode = false` only as a retry after a parse error (stray quotes and the like), since
 *   the lenient mode can silently shift fields in well-formed files.
 * - Not `ignore_errors`: it drops rows silently, and profiles must count every row.
 * Non-UTF-8 files are transcoded (windows-1252 -> UTF-8) and read again. Gzip files (`.csv.gz`) are
 * read by DuckDB as they are (`compression = 'gzip'`) once gzipScan.ts has checked them.
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkLineLengths, lineLengthGuard } from './lineLength';
import type { DuckDBConnection } from '@duckdb/node-api';
import { IngestError, type IngestResult, type TableOrigin } from '../engine';
import { replaceSource, type BuiltView } from './catalog';
import { pinnedCsvSelect } from './csvPinned';
import { duckDbReason } from './fileKinds';
import { monthFirstFormat } from './csvDateOrder';
import { scanGzip } from './gzipScan';
import { LineSampler, sampling, textBytes, type RowGauge } from './rowGauge';
import { isEncodingError, prepareInput, transcodeLegacy, type PreparedInput } from './ingestInput';
import { quoteIdent, quoteLiteral, tableNameFor } from './sqlText';

export interface CsvAttempt {
  sampleAll: boolean;
  allVarchar: boolean;
  strict: boolean;
  /** The first line is the header (see missedHeader): said, since DuckDB's sniffer cannot tell when every column holds numbers. */
  header?: boolean;
  /** Dates are month-first (see csvDateOrder.ts). */
  dateFormat?: string;
}

export interface DelimitedArgs {
  conn: DuckDBConnection;
  sourceId: string;
  filePath: string;
  fileName: string;
  tab: boolean;
  /** The file is gzip-compressed (`.csv.gz`); DuckDB reads it as it is, after gzipScan.ts checked it. */
  gzip: boolean;
  /** Inflated bytes a gzip file may hold. */
  maxInflatedBytes: number;
  workDir: string;
  signal: AbortSignal;
  /** Define a view over the file instead of copying it into a table (files read in place). */
  inPlace?: boolean;
  /** Told how to estimate the rows read so far, for the read's progress. */
  rows?: RowGauge;
  /**
   * Told of the view a file read in place got (its final SELECT, date conversions included, and the
   * file DuckDB reads), once the read succeeded: the store copies it in the background (copyWriter.ts).
   */
  onView?: (view: InPlaceView) => void;
}

/** A view over a file read in place, as the ingest left it. */
export interface InPlaceView {
  table: string;
  select: string;
  file: string;
}

export const FIRST_ATTEMPT: CsvAttempt = { sampleAll: false, allVarchar: false, strict: true };

/** The named `read_csv` options of one attempt (everything after the path). */
export function readCsvOptions(tab: boolean, a: CsvAttempt = FIRST_ATTEMPT, gzip = false): string[] {
  const opts = ['auto_detect = true', 'null_padding = true'];
  if (tab) opts.push(`delim = '\\t'`);
  if (gzip) opts.push(`compression = 'gzip'`);
  if (a.sampleAll) opts.push('sample_size = -1');
  if (a.allVarchar) opts.push('all_varchar = true');
  if (!a.strict) opts.push('strict_mode = false');
  if (a.header === true) opts.push('header = true');
  if (a.dateFormat !== undefined) opts.push(`dateformat = ${quoteLiteral(a.dateFormat)}`);
  return opts;
}

/** The `read_csv(...)` call for one attempt. Exported for the benchmark and tests. */
export function readCsvCall(path: string, tab: boolean, a: CsvAttempt = FIRST_ATTEMPT, gzip = false): string {
  return `read_csv(${[quoteLiteral(path), ...readCsvOptions(tab, a, gzip)].join(', ')})`;
}

/**
 * What users run against their own file: the same options, plus DuckDB's decoder for a file the
 * store transcoded (latin-1 is DuckDB's nearest built-in to windows-1252, hence "approximate").
 */
function csvOrigin(tab: boolean, a: CsvAttempt, input: PreparedInput, gzip: boolean): TableOrigin {
  const options = readCsvOptions(tab, a, gzip);
  if (input.sourceEncoding === 'windows-1252') options.push(`encoding = 'latin-1'`);
  else if (input.sourceEncoding !== undefined) options.push(`encoding = 'utf-16'`);
  const origin: TableOrigin = { reader: 'read_csv', options, dateColumns: [] };
  if (input.sourceEncoding === 'windows-1252') origin.approximate = true;
  return origin;
}

function isConversionError(err: unknown): boolean {
  const m = err instanceof Error ? err.message : String(err);
  return /conversion error|could not convert|could not cast/i.test(m);
}

/** The next, more lenient attempt after `err`, or undefined when nothing is left to try. */
export function escalate(a: CsvAttempt, err: unknown): CsvAttempt | undefined {
  if (isConversionError(err)) {
    if (!a.sampleAll) return { ...a, sampleAll: true };
    if (!a.allVarchar) return { ...a, allVarchar: true };
    return undefined;
  }
  if (a.strict) return { ...a, strict: false };
  return undefined;
}

/**
 * A view over a file read in place. The catalog then reads it once (catalog.ts, scanStats.ts): a
 * value later in the file that does not fit the sniffed type fails there, inside this attempt (and
 * the next attempt is tried), not in a user's question.
 */
export async function createView(conn: DuckDBConnection, view: string, select: string): Promise<BuiltView> {
  await conn.run(`CREATE VIEW ${quoteIdent(view)} AS ${select}`);
  return { body: select };
}

/** Ingests a CSV or TSV file into the source's table (or view, in place), replacing what the source had. */
export async function ingestDelimited(args: DelimitedArgs): Promise<IngestResult> {
  const { conn, sourceId, fileName, tab, gzip, workDir, signal } = args;
  const label = tab ? 'TSV' : 'CSV';
  const sampler = new LineSampler();
  const scan = gzip ? await scanGzip(args.filePath, fileName, { maxBytes: args.maxInflatedBytes, signal, onChunk: sampling(lineLengthGuard(fileName, label), sampler) }) : undefined;
  // A plain file's lines are measured while DuckDB reads it, not in a pass before: the check stops
  // DuckDB (which would take tens of seconds on a huge line) and its clear reason is what fails.
  const lines = scan === undefined ? lineCheckAlongside(conn, args.filePath, fileName, label, signal, sampler.observe) : undefined;
  const bytes = await textBytes(args.filePath, scan?.bytes);
  if (bytes !== undefined) args.rows?.fromLines(sampler, bytes, 1);
  let input: PreparedInput;
  try {
    input = await prepareInput(args.filePath, fileName, label, workDir, signal, scan);
  } catch (err) {
    lines?.stop();
    throw err;
  }
  const table = tableNameFor(sourceId);
  try {
    let attempt: CsvAttempt | undefined = { sampleAll: false, allVarchar: false, strict: true };
    if (!input.gzip && (await missedHeader(input.path, tab))) attempt.header = true;
    if (!input.gzip) {
      const format = await monthFirstFormat(conn, input.path, readCsvOptions(tab, attempt)).catch(() => undefined);
      if (format !== undefined) attempt.dateFormat = format;
    }
    let lastError: unknown;
    while (attempt !== undefined) {
      const current: CsvAttempt = attempt;
      const early = lines?.failedYet();
      if (early !== undefined) throw early;
      try {
        let view: BuiltView | undefined;
        const result = await replaceSource(conn, sourceId, signal, async () => {
          view = undefined;
          const select = `SELECT * FROM ${readCsvCall(input.path, tab, current, input.gzip)}`;
          const origin = csvOrigin(tab, current, input, gzip);
          // A file DuckDB cannot read as it is (transcoded, or a name DuckDB would take as a glob)
          // was copied to scratch and goes into a table; the others are read in place.
          if (args.inPlace === true && input.path === resolve(args.filePath)) {
            // Sniffed once here, not again on every read of the view (see csvPinned.ts).
            const pinned = await pinnedCsvSelect(conn, input.path, readCsvOptions(tab, current, input.gzip));
            view = await createView(conn, table, pinned ?? select);
            return { kind: 'tables', tables: [{ table, origin, view }] };
          }
          await conn.run(`CREATE TABLE ${quoteIdent(table)} AS ${select}`);
          return { kind: 'tables', tables: [{ table, origin }] };
        });
        const made = view as BuiltView | undefined;
        if (made !== undefined) args.onView?.({ table, select: made.body, file: input.path });
        return result;
      } catch (err) {
        signal.throwIfAborted();
        const tooLong = await lines?.failure();
        if (tooLong !== undefined) throw tooLong;
        lastError = err;
        if (isEncodingError(err) && !input.transcoded) {
          input = await transcodeLegacy(input, workDir, signal);
          continue;
        }
        attempt = escalate(current, err);
      }
    }
    throw new IngestError(`could not read ${fileName} as ${label}: ${duckDbReason(lastError, input.path, fileName)}`);
  } finally {
    lines?.stop();
    await input.cleanup();
  }
}

/**
 * Runs the line-length check next to DuckDB's read of the same file. A line too long interrupts the
 * connection; `failure()` waits for the check's verdict (the reason, or undefined when every line
 * fits). `stop()` ends a check no longer needed, after DuckDB read the file.
 */
export function lineCheckAlongside(conn: DuckDBConnection, path: string, fileName: string, label: 'CSV' | 'TSV', signal: AbortSignal, observe: (chunk: Buffer) => void): { failure(): Promise<unknown>; failedYet(): unknown; stop(): void } {
  const own = new AbortController();
  let failed: unknown;
  const stopWith = (): void => own.abort();
  signal.addEventListener('abort', stopWith, { once: true });
  const verdict = checkLineLengths(path, fileName, label, own.signal, undefined, observe).then(
    () => undefined,
    (err: unknown) => {
      if (own.signal.aborted) return undefined;
      failed = err;
      conn.interrupt();
      return err;
    },
  );
  return {
    failure: () => verdict,
    failedYet: () => failed,
    stop: () => {
      signal.removeEventListener('abort', stopWith);
      own.abort();
    },
  };
}

/**
 * Whether the file's first line is a header DuckDB's sniffer would miss, since with numbers for
 * column names the header looks like one more row:
 * - every field of it quoted ("state","1856","1860") while the next line writes numbers bare
 *   (Alabama,NA,51.44): R's write.csv and many exports write so;
 * - a wide table's years (country,1990,1995,2000), at least three of them rising from left to
 *   right, where the next line's fields in those places are not such years.
 */
export async function missedHeader(path: string, tab: boolean): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(65_536);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const [first, second] = buf.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
    if (first === undefined || second === undefined) return false;
    const head = splitFields(first, tab ? '\t' : ',');
    const next = splitFields(second, tab ? '\t' : ',');
    if (head.length < 2 || new Set(head).size !== head.length) return false;
    const quoted = head.every((f) => /^".*"$/.test(f));
    const bareNumber = next.some((f) => /^-?\d+(\.\d+)?$/.test(f.trim()));
    const numericNames = head.some((f) => /^"-?\d+(\.\d+)?"$/.test(f));
    return (quoted && bareNumber && numericNames) || (risingYears(head) && !risingYears(next));
  } finally {
    await handle.close();
  }
}

/** At least three fields are years (1600–2099), each later than the one before, and no other field is a number. */
function risingYears(fields: readonly string[]): boolean {
  const bare = fields.map((f) => f.trim().replace(/^"(.*)"$/, '$1').trim());
  const years = bare.filter((f) => /^(1[6-9]|20)\d\d$/.test(f)).map(Number);
  const others = bare.filter((f) => !/^(1[6-9]|20)\d\d$/.test(f));
  return years.length >= 3 && years.every((y, i) => i === 0 || y > (years[i - 1] ?? y)) && others.every((f) => !/^-?[\d.,]+$/.test(f));
}

/** The fields of one line as written (quotes kept), split at delimiters outside quotes. */
function splitFields(line: string, delim: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inQuotes = false;
  for (const ch of line) {
    if (ch === '"') inQuotes = !inQuotes;
    if (ch === delim && !inQuotes) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

