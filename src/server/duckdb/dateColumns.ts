/**
 * Second chance for dates. DuckDB's CSV sniffer picks ONE date format per file, so a file with
 * `03/15/2024` in one column and `15.03.2024` in another types the second as VARCHAR; spreadsheets
 * and JSON often hold dates as text too. This pass turns a VARCHAR column into DATE or TIMESTAMP
 * when every non-empty value parses with one of the common formats below.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DateConversion } from '../engine';
import { quoteIdent, quoteLiteral } from './sqlText';

/**
 * Candidate formats, most specific first. Month-first slashes come before day-first ones (as in
 * DuckDB's own sniffer): a column where every day is <= 12 is ambiguous and gets read month-first;
 * any value with a day > 12 rules the month-first format out.
 */
const DATE_FORMATS = [
  '%d.%m.%Y', '%m/%d/%Y', '%d/%m/%Y', '%Y/%m/%d', '%Y.%m.%d', '%d-%m-%Y', '%m-%d-%Y', '%Y-%m-%d',
  '%d %b %Y', '%d-%b-%Y', '%b %d %Y', '%b %d, %Y', '%b-%d-%Y', '%d %B %Y', '%d-%B-%Y', '%B %d %Y', '%B %d, %Y', '%B-%d-%Y',
  '%a, %d %b %Y', '%a %b %d %Y', '%Y %b %d', '%Y-%b-%d', '%Y %B %d',
];
const TIME_SUFFIXES = [' %H:%M:%S', ' %H:%M', 'T%H:%M:%S', 'T%H:%M:%SZ', 'T%H:%M:%S.%f', 'T%H:%M:%S.%fZ', ' %H:%M:%S.%f', 'T%H:%M', ' %I:%M:%S %p', ' %I:%M %p'];
/** Month-only values ("2014-05", "Jan 2014"): read as the first day of the month. */
const MONTH_FORMATS = ['%Y-%m', '%Y/%m', '%m/%Y', '%b %Y', '%B %Y', '%b-%Y', '%Y %b', '%Y-%b'];

interface Candidate {
  format: string;
  withTime: boolean;
}

const CANDIDATES: Candidate[] = [
  ...DATE_FORMATS.map((format) => ({ format, withTime: false })),
  ...DATE_FORMATS.flatMap((d) => TIME_SUFFIXES.map((t) => ({ format: d + t, withTime: true }))),
  ...MONTH_FORMATS.map((format) => ({ format, withTime: false })),
];

/** Every date format tried on text columns, most specific first (shared with the question-time check). */
export const TEXT_DATE_CANDIDATES: readonly string[] = CANDIDATES.map((c) => c.format);

/** Values looked at to pick a format; the winner is then checked against the whole column. */
const SAMPLE_ROWS = 500;

/**
 * strptime's `%Y` also takes 1-3 digit years, which would turn version numbers like `1.2.3` into
 * dates in year 3. Requiring a standalone 4-digit number keeps the pass to real calendar dates.
 */
function hasYear(expr: string): string {
  return `regexp_matches(${expr}, '(^|[^0-9])[0-9]{4}([^0-9]|$)')`;
}

async function varcharColumns(conn: DuckDBConnection, table: string): Promise<string[]> {
  // Result metadata of an empty scan: much cheaper than querying duckdb_columns().
  const reader = await conn.runAndReadAll(`SELECT * FROM ${quoteIdent(table)} LIMIT 0`);
  return reader.columnNames().filter((_n, i) => reader.columnType(i).toString() === 'VARCHAR');
}

/**
 * Shape every date candidate shares: digits, month names and separators only, with a 4-digit
 * year. One cheap regex over the sample rules out ordinary text before 60 strptime formats run.
 */
const DATE_SHAPE = '^[0-9A-Za-z ,./:T-]{6,40}$';

/**
 * The first candidate format that parses every sampled value, if any. strptime needs a constant
 * format, so each candidate is its own FILTER aggregate over the sample, all in one scan.
 */
async function pickFormat(conn: DuckDBConnection, table: string, column: string): Promise<Candidate | undefined> {
  const col = quoteIdent(column);
  const counts = CANDIDATES.map(
    (c, i) => `count(*) FILTER (WHERE try_strptime(v, ${quoteLiteral(c.format)}) IS NOT NULL AND ${hasYear('v')}) AS f${i}`,
  ).join(', ');
  const sample = `WITH s AS (SELECT trim(${col}) AS v FROM ${quoteIdent(table)} WHERE ${col} IS NOT NULL AND trim(${col}) <> '' LIMIT ${SAMPLE_ROWS})`;
  const shape = await conn.runAndReadAll(
    `${sample} SELECT count(*) AS n, count(*) FILTER (WHERE regexp_full_match(v, '${DATE_SHAPE}') AND ${hasYear('v')}) FROM s`,
  );
  const [total, shaped] = shape.getRows()[0] ?? [];
  if (Number(total ?? 0) === 0 || Number(total) !== Number(shaped)) return undefined;
  const reader = await conn.runAndReadAll(`${sample} SELECT count(*) AS n, ${counts} FROM s`);
  const row = reader.getRows()[0] ?? [];
  const n = Number(row[0] ?? 0);
  if (n === 0) return undefined;
  const index = CANDIDATES.findIndex((_c, i) => Number(row[i + 1] ?? -1) === n);
  return index >= 0 ? CANDIDATES[index] : undefined;
}

/** Beyond this many text columns, those without a four-digit run are set aside first ({@link withYears}). */
const MANY_COLUMNS = 40;
/** Columns per statement of {@link withYears}: DuckDB plans a row of aggregates in superlinear time. */
const YEAR_BATCH = 100;

/**
 * The columns among `columns` with a value holding four digits in a row, for a table with many:
 * each column's format is picked by statements of its own, and a 10,000-column Parquet file with
 * 3,000 text columns spent over a minute of its ingest on them. A column in which no value has a
 * four-digit year is never converted (see pickFormat), so setting it aside changes nothing.
 */
async function withYears(conn: DuckDBConnection, table: string, columns: string[]): Promise<string[]> {
  if (columns.length <= MANY_COLUMNS) return columns;
  const out: string[] = [];
  for (let from = 0; from < columns.length; from += YEAR_BATCH) {
    const batch = columns.slice(from, from + YEAR_BATCH);
    const counts = batch.map((c) => `count(*) FILTER (WHERE regexp_matches(${quoteIdent(c)}, '[0-9]{4}'))`);
    const row = (await conn.runAndReadAll(`SELECT ${counts.join(', ')} FROM ${quoteIdent(table)}`)).getRows()[0] ?? [];
    batch.forEach((c, i) => {
      if (Number(row[i] ?? 1) > 0) out.push(c);
    });
  }
  return out;
}

/** True when every non-empty value of the column parses with the format. */
async function allParse(conn: DuckDBConnection, table: string, column: string, format: string): Promise<boolean> {
  const col = quoteIdent(column);
  const reader = await conn.runAndReadAll(
    `SELECT count(*) FROM ${quoteIdent(table)} WHERE ${col} IS NOT NULL AND trim(${col}) <> '' AND (try_strptime(trim(${col}), ${quoteLiteral(format)}) IS NULL OR NOT ${hasYear(col)})`,
  );
  return Number(reader.getRows()[0]?.[0] ?? 1) === 0;
}

/** The SQL expression the conversion applies to a VARCHAR column (also shown to users). */
export function dateConversionExpr(columnSql: string, format: string, type: 'DATE' | 'TIMESTAMP'): string {
  if (format === EXCEL_SERIAL) {
    // Excel counts days from 1899-12-30 (its 1900 leap-year bug included); a fraction is the time of day.
    const days = `CAST(${columnSql} AS DOUBLE)`;
    return type === 'DATE'
      ? `CAST(DATE '1899-12-30' + CAST(floor(${days}) AS INTEGER) AS DATE)`
      : `CAST(TIMESTAMP '1899-12-30 00:00:00' + to_microseconds(CAST(round(${days} * 86400000000) AS BIGINT)) AS TIMESTAMP)`;
  }
  const text = `trim(CAST(${columnSql} AS VARCHAR))`;
  return `CASE WHEN ${text} = '' THEN NULL ELSE CAST(try_strptime(${text}, ${quoteLiteral(format)}) AS ${type}) END`;
}

/** The pseudo-format of a number column holding Excel day serials. */
export const EXCEL_SERIAL = 'excel-serial';
/** Number columns are only read as dates when their name says so. */
const DATE_NAME = /(^|[^a-z])(date|day|dt|time|timestamp|when)([^a-z]|$)|date$|_at$|^dt_|_dt$/i;

/**
 * A number column named like a date holding YYYYMMDD integers (`19580329`) or Excel serials
 * (`45292` = 2024-01-01, with a fraction for the time of day), and the format that reads it.
 */
async function numericDateFormat(conn: DuckDBConnection, table: string, column: string): Promise<Candidate | undefined> {
  const col = quoteIdent(column);
  const r = (await conn.runAndReadAll(`SELECT count(${col}), count(*) FILTER (WHERE ${col} = floor(${col}) AND ${col} BETWEEN 10000101 AND 29991231 AND try_strptime(CAST(CAST(${col} AS BIGINT) AS VARCHAR), '%Y%m%d') IS NOT NULL),
  count(*) FILTER (WHERE ${col} BETWEEN 20000 AND 80000), count(*) FILTER (WHERE ${col} <> floor(${col})), count(DISTINCT ${col}) FROM ${quoteIdent(table)}`)).getRows()[0] ?? [];
  const [n, ymd, serial, fractional, distinct] = r.map((x) => Number(x ?? 0)) as [number, number, number, number, number];
  if (n === 0 || distinct < 2) return undefined;
  if (ymd === n) return { format: '%Y%m%d', withTime: false };
  if (serial === n) return { format: EXCEL_SERIAL, withTime: fractional > 0 };
  return undefined;
}

async function numberColumns(conn: DuckDBConnection, table: string): Promise<string[]> {
  const reader = await conn.runAndReadAll(`SELECT * FROM ${quoteIdent(table)} LIMIT 0`);
  return reader.columnNames().filter((n, i) => DATE_NAME.test(n) && /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|U\w*INT|DOUBLE|FLOAT|DECIMAL.*)$/.test(reader.columnType(i).toString()));
}

/** Applies one conversion: by default the table's column changes type; a view is redefined instead. */
export type ApplyConversion = (column: string, target: 'DATE' | 'TIMESTAMP', expr: string) => Promise<void>;

/**
 * Converts date-like VARCHAR columns of `table` in place (inside the caller's transaction).
 * Returns the converted columns with the format used, so the conversion can be replayed.
 */
export async function convertDateLikeColumns(conn: DuckDBConnection, table: string, apply?: ApplyConversion): Promise<DateConversion[]> {
  const change: ApplyConversion = apply ?? ((column, target, expr) =>
    conn.run(`ALTER TABLE ${quoteIdent(table)} ALTER ${quoteIdent(column)} SET DATA TYPE ${target} USING ${expr}`).then(() => undefined));
  const converted: DateConversion[] = [];
  for (const column of await withYears(conn, table, await varcharColumns(conn, table))) {
    const pick = await pickFormat(conn, table, column);
    if (pick === undefined || !(await allParse(conn, table, column, pick.format))) continue;
    const col = quoteIdent(column);
    const target = pick.withTime ? 'TIMESTAMP' : 'DATE';
    // Empty strings become NULL: they were "no value" in the source, not an unparseable date.
    await change(column, target, dateConversionExpr(col, pick.format, target));
    converted.push({ column, format: pick.format, type: target });
  }
  for (const column of await numberColumns(conn, table)) {
    const pick = await numericDateFormat(conn, table, column);
    if (pick === undefined) continue;
    const col = quoteIdent(column);
    const target = pick.withTime ? 'TIMESTAMP' : 'DATE';
    await change(column, target, dateConversionExpr(col, pick.format, target));
    converted.push({ column, format: pick.format, type: target });
  }
  return converted;
}
