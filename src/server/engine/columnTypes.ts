/**
 * What a column really holds, beyond its storage type: text columns of numbers written with
 * currency signs, thousands separators, percent signs or an uncertainty (`$1,234.50`, `45%`,
 * `1.00794(4)`), text columns of dates in one or several formats (`Jun 12 1998`), and a date
 * spread over `year` / `quarter` / `month` / `day` columns. Each becomes a typed SQL expression
 * (the text stays as it is in the table), so questions can average, filter and group by it.
 */
import { quoteIdent, quoteLiteral, relationSql } from '../duckdb/sqlText';
import { TEXT_DATE_CANDIDATES } from '../duckdb/dateColumns';
import { num } from '../profile/cellValues';
import { NULL_MARKER_SQL } from './missingMarkers';
import type { ColumnMeta } from './types';

/** Runs a read-only statement; the engine passes the store's query with its deadline. */
export type RunSql = (sql: string) => Promise<unknown[][]>;

/** Placeholder for the table qualifier (`sales.` or nothing) in a column's SQL template. */
export const QUALIFIER = '{t}';
/** A text column is treated as numeric when this share of its non-empty values are numbers. */
export const NUMERIC_TEXT_SHARE = 0.8;
/** Rows looked at to recognise dates written as text. */
const DATE_SAMPLE_ROWS = 2000;
/** Share of sampled values that must read as dates. */
const DATE_SHARE = 0.9;

export type NumberStyle = 'plain' | 'us' | 'eu';

const SIGNS = String.raw`^[$€£¥]\s*|\s*([$€£¥%]|usd|eur|gbp)$|\s*\(\d+\)$|^\[|\]$`;

/** SQL reading a text column written in `style` as a DOUBLE. */
export function numberTextSql(column: string, style: NumberStyle, qualifier = QUALIFIER): string {
  const x = `trim(${qualifier}${quoteIdent(column)})`;
  if (style === 'plain') return `TRY_CAST(${x} AS DOUBLE)`;
  const bare = `regexp_replace(${x}, ${quoteLiteral(SIGNS)}, '', 'gi')`;
  if (style === 'us') return `TRY_CAST(replace(${bare}, ',', '') AS DOUBLE)`;
  return `TRY_CAST(replace(replace(${bare}, '.', ''), ',', '.') AS DOUBLE)`;
}

/** Per text column, how many values read as numbers in each style (three aggregates). */
export function numberStyleAggregates(column: string, i: number): string[] {
  return (['plain', 'us', 'eu'] as const).map((s) => `count(${numberTextSql(column, s, '')}) AS ${s}${i}`);
}

/**
 * Per text column, how many values hold something: not empty, and not a marker of "no value"
 * (`NA`, `n/a`, `-`), so an R export whose readings column holds 37 `NA` among 153 numbers is numbers with gaps, not text.
 */
export function filledTextAggregate(column: string, i: number): string {
  const x = `trim(${quoteIdent(column)})`;
  return `count(*) FILTER (WHERE ${x} <> '' AND lower(${x}) NOT IN (${NULL_MARKER_SQL})) AS ne${i}`;
}

/**
 * Per text column, the values holding four digits in a row. A text column is probed for dates and
 * quarters by statements of its own (two or more each); a 10,000-column file with 3,000 text
 * columns took minutes of such probes. Every date or quarter those probes accept has a four-digit
 * year, so a column without one is skipped, with the same outcome.
 */
export function yearRuns(column: string, i: number): string {
  return `count(*) FILTER (WHERE regexp_matches(CAST(${quoteIdent(column)} AS VARCHAR), '[0-9]{4}')) AS yr${i}`;
}

/**
 * Per text column, how many values are codes that mix letters and digits without a space (`c168`,
 * `12B`, `AB-12`) and read as no number: such a column is identifiers, whatever share are digits.
 */
export function codeLikeAggregate(column: string, i: number): string {
  const x = `trim(${quoteIdent(column)})`;
  return `count(*) FILTER (WHERE TRY_CAST(${x} AS DOUBLE) IS NULL AND regexp_full_match(${x}, '[A-Za-z]{1,4}-?[0-9]+[A-Za-z0-9]*|[0-9]+-?[A-Za-z]{1,2}')) AS cd${i}`;
}

/** The style that reads the most values, if it reads enough of them. */
export function pickNumberStyle(counts: { plain: number; us: number; eu: number }, nonEmpty: number): NumberStyle | undefined {
  if (nonEmpty === 0) return undefined;
  const best = (['plain', 'us', 'eu'] as const).reduce((a, b) => (counts[b] > counts[a] ? b : a));
  return counts[best] >= nonEmpty * NUMERIC_TEXT_SHARE ? best : undefined;
}

/** SQL turning a text column of one or several date formats into a DATE (or TIMESTAMP when times appear). */
export function textDateSql(column: string, formats: readonly string[], qualifier = QUALIFIER): string {
  const col = `trim(${qualifier}${quoteIdent(column)})`;
  const type = formats.some((f) => /%[HIM]/.test(f)) ? 'TIMESTAMP' : 'DATE';
  const parts = formats.map((f) => `CAST(try_strptime(${col}, ${quoteLiteral(f)}) AS ${type})`);
  return parts.length === 1 ? parts[0] ?? 'NULL' : `coalesce(${parts.join(', ')})`;
}

/** Formats that read a text column's sampled values, most used first, if together they read nearly all. */
export async function textDateFormats(run: RunSql, table: string, column: string): Promise<string[] | undefined> {
  const col = quoteIdent(column);
  const sample = `WITH s AS (SELECT trim(CAST(${col} AS VARCHAR)) AS v FROM ${relationSql(table)} WHERE trim(CAST(${col} AS VARCHAR)) <> '' LIMIT ${DATE_SAMPLE_ROWS})`;
  const shape = (await run(`${sample} SELECT count(*), count(*) FILTER (WHERE regexp_full_match(v, '^[0-9A-Za-z ,./:+-]{6,40}$') AND regexp_matches(v, '(^|[^0-9])[0-9]{4}([^0-9]|$)')) FROM s`))[0] ?? [];
  const total = num(shape[0]);
  if (total === 0 || num(shape[1]) < total * DATE_SHARE) return undefined;
  const counts = TEXT_DATE_CANDIDATES.map((f, i) => `count(try_strptime(v, ${quoteLiteral(f)})) AS f${i}`).join(', ');
  const r = (await run(`${sample} SELECT ${counts} FROM s`))[0] ?? [];
  const ranked = TEXT_DATE_CANDIDATES.map((f, i) => ({ f, n: num(r[i]) })).filter((x) => x.n > 0).sort((a, b) => b.n - a.n);
  if (ranked.length === 0) return undefined;
  // Take formats until they cover the sample: the first that reads each value wins.
  const formats: string[] = [];
  for (const x of ranked.slice(0, 6)) {
    formats.push(x.f);
    const cover = formats.map((f) => `try_strptime(v, ${quoteLiteral(f)})`).join(', ');
    const covered = num((await run(`${sample} SELECT count(coalesce(${cover})) FROM s`))[0]?.[0]);
    if (covered >= total * DATE_SHARE) return formats;
  }
  return undefined;
}

/** "1974Q1", "1974-Q1", "Q1 1974": a year and a quarter written as text. */
const QUARTER_TEXT = String.raw`^\s*(\d{4})\s*[-/ ]?\s*[Qq]([1-4])\s*$|^\s*[Qq]([1-4])\s*[-/ ]?\s*(\d{4})\s*$`;

/** SQL reading quarter text as the first day of the quarter. */
export function quarterTextSql(column: string, qualifier = QUALIFIER): string {
  const x = `trim(${qualifier}${quoteIdent(column)})`;
  const y = `coalesce(nullif(regexp_extract(${x}, ${quoteLiteral(QUARTER_TEXT)}, 1), ''), regexp_extract(${x}, ${quoteLiteral(QUARTER_TEXT)}, 4))`;
  const q = `coalesce(nullif(regexp_extract(${x}, ${quoteLiteral(QUARTER_TEXT)}, 2), ''), regexp_extract(${x}, ${quoteLiteral(QUARTER_TEXT)}, 3))`;
  return `CAST(try_strptime(${y} || '-' || CAST((TRY_CAST(${q} AS INTEGER) - 1) * 3 + 1 AS VARCHAR) || '-01', '%Y-%m-%d') AS DATE)`;
}

/** Whether nearly all sampled values of a text column are quarters written as text. */
export async function holdsQuarters(run: RunSql, table: string, column: string): Promise<boolean> {
  const col = quoteIdent(column);
  const r = (await run(`WITH s AS (SELECT trim(CAST(${col} AS VARCHAR)) AS v FROM ${relationSql(table)} WHERE trim(CAST(${col} AS VARCHAR)) <> '' LIMIT ${DATE_SAMPLE_ROWS})
SELECT count(*), count(*) FILTER (WHERE regexp_full_match(v, ${quoteLiteral(QUARTER_TEXT)})) FROM s`))[0] ?? [];
  return num(r[0]) > 0 && num(r[1]) >= num(r[0]) * DATE_SHARE;
}

const PART_NAMES: Record<'year' | 'quarter' | 'month' | 'day', RegExp> = {
  year: /^(year|yr|yyyy|fiscal[ _]?year|calendar[ _]?year)$/i,
  quarter: /^(quarter|qtr|q)$/i,
  month: /^(month|mo|mm|month[ _]?(num|number|no))$/i,
  day: /^(day|dd|day[ _]?of[ _]?month|date[ _]?of[ _]?month|dom|mday)$/i,
};
const PART_RANGE: Record<keyof typeof PART_NAMES, [number, number]> = { year: [1000, 2999], quarter: [1, 4], month: [1, 12], day: [1, 31] };

/**
 * A date made of part columns (`year` alone, `year` + `quarter`, `year` + `month` [+ `day`]), as
 * a column of its own, when the table has no date column. Undefined when the parts are not there.
 */
export function dateFromParts(columns: readonly ColumnMeta[]): ColumnMeta | undefined {
  if (columns.some((c) => c.kind === 'temporal')) return undefined;
  const part = (p: keyof typeof PART_NAMES): ColumnMeta | undefined => columns.find((c) => {
    const [lo, hi] = PART_RANGE[p];
    return PART_NAMES[p].test(c.name.trim()) && c.kind === 'numeric' && typeof c.min === 'number' && typeof c.max === 'number'
      && c.min >= lo && c.max <= hi && Number.isInteger(c.min) && Number.isInteger(c.max);
  });
  const year = part('year');
  if (year === undefined) return undefined;
  const month = part('month');
  const quarter = month === undefined ? part('quarter') : undefined;
  const day = month !== undefined ? part('day') : undefined;
  const ref = (c: ColumnMeta): string => `CAST(${QUALIFIER}${quoteIdent(c.name)} AS INTEGER)`;
  const m = month !== undefined ? ref(month) : quarter !== undefined ? `(${ref(quarter)} - 1) * 3 + 1` : '1';
  const d = day !== undefined ? ref(day) : '1';
  const used = [year, quarter, month, day].filter((c): c is ColumnMeta => c !== undefined);
  const name = columns.some((c) => c.name.toLowerCase() === 'date') ? 'date_from_parts' : 'date';
  return {
    name, type: 'DATE', kind: 'temporal', expr: '', converted: false, tokens: ['date'], nonNull: Math.min(...used.map((c) => c.nonNull)),
    partsGrain: day !== undefined ? 'day' : month !== undefined ? 'month' : quarter !== undefined ? 'quarter' : 'year',
    distinct: 0, unique: false, derived: used.map((c) => c.name),
    // try_strptime rather than make_date: an impossible date (Feb 30) becomes NULL instead of failing
    // the query, and DuckDB's try() trips an internal binder error under GROUP BY ALL.
    sqlTemplate: `CAST(try_strptime(printf('%04d-%02d-%02d', ${ref(year)}, ${m}, ${d}), '%Y-%m-%d') AS DATE)`,
  };
}

/**
 * A day in one column and the time of day in another (`date` 2013-01-01, `time` 01:00): the moment
 * each row was taken, so "how many hours" and "by hour" count hours rather than days. It is not in
 * the file; the overview says what it is made of.
 */
export function dateTimeFromParts(columns: readonly ColumnMeta[]): ColumnMeta | undefined {
  const days = columns.filter((c) => /^DATE$/i.test(c.type.trim()) && c.derived === undefined);
  const times = columns.filter((c) => /^TIME$/i.test(c.type.trim()));
  const [day, time] = [days[0], times[0]];
  if (days.length !== 1 || times.length !== 1 || day === undefined || time === undefined) return undefined;
  const name = columns.some((c) => c.name.toLowerCase() === 'date_time') ? 'date_and_time' : 'date_time';
  return {
    name, type: 'TIMESTAMP', kind: 'temporal', expr: '', converted: false, tokens: ['date', 'time'], nonNull: Math.min(day.nonNull, time.nonNull),
    distinct: 0, unique: false, derived: [day.name, time.name],
    sqlTemplate: `(${QUALIFIER}${quoteIdent(day.name)} + ${QUALIFIER}${quoteIdent(time.name)})`,
  };
}

const PRICE = /(^|[^a-z])(list[ _]?)?(unit[ _]?)?(sale[ _]?)?price([^a-z]|$)/i;
const COST = /(^|[^a-z])(unit[ _]?)?cost([^a-z]|$)/i;

/**
 * A table with one price column and one cost column (`list_price_usd`, `unit_cost_usd`): their
 * difference as a column `margin`, so "which products have the highest margin" has a column to
 * name. It is not in the file; the overview says what it is made of, and its SQL is shown.
 */
export function marginFromPriceAndCost(columns: readonly ColumnMeta[]): ColumnMeta | undefined {
  if (columns.some((c) => /^(margin|profit|markup)$/i.test(c.name.trim()))) return undefined;
  const prices = columns.filter((c) => c.kind === 'numeric' && PRICE.test(c.name));
  const costs = columns.filter((c) => c.kind === 'numeric' && COST.test(c.name) && !PRICE.test(c.name));
  const price = prices[0];
  const cost = costs[0];
  if (prices.length !== 1 || costs.length !== 1 || price === undefined || cost === undefined) return undefined;
  const ref = (c: ColumnMeta): string => c.sqlTemplate ?? `${QUALIFIER}${quoteIdent(c.name)}`;
  return {
    name: 'margin', type: 'DOUBLE', kind: 'numeric', expr: '', converted: false, tokens: ['margin'], nonNull: Math.min(price.nonNull, cost.nonNull),
    distinct: 0, unique: false, derived: [price.name, cost.name], role: 'level',
    sqlTemplate: `(CAST(${ref(price)} AS DOUBLE) - CAST(${ref(cost)} AS DOUBLE))`,
  };
}

/** "price per hp": one number over another, row by row (a zero divisor gives no value). */
export function ratioColumn(x: ColumnMeta, y: ColumnMeta): ColumnMeta {
  const ref = (c: ColumnMeta): string => `CAST(${c.sqlTemplate ?? `${QUALIFIER}${quoteIdent(c.name)}`} AS DOUBLE)`;
  return {
    name: `${x.name} per ${y.name}`, type: 'DOUBLE', kind: 'numeric', expr: '', converted: false, tokens: [], nonNull: Math.min(x.nonNull, y.nonNull),
    distinct: 0, unique: false, derived: [x.name, y.name], ratio: true, role: 'level', sqlTemplate: `(${ref(x)} / nullif(${ref(y)}, 0))`,
  };
}
