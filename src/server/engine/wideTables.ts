/**
 * A wide table holds one measure in one column per year (`country, 1990, 1991, …, 2020`, or R's
 * `X1990`). Questions about it ("population of France in 2010", "total by year", "which country
 * grew most") are about rows of (country, year, value), so the engine reads such a table through
 * DuckDB's UNPIVOT: the year columns become a `year` column and a value column named after the file
 * (`population.csv` -> `population`). The shown SQL carries the same UNPIVOT, so it runs as-is on
 * the user's file, and the overview and each answer say how the table was read.
 */
import type { ColumnInfo, IngestedTable } from '../engine';
import { classifyType } from '../profile/profileSql';
import { quoteIdent, slug } from '../duckdb/sqlText';
import type { RunSql } from './columnTypes';

export interface LongShape {
  /** The year columns of the file, in file order. */
  years: string[];
  /** Year columns typed as text (an "NA" among numbers): read with TRY_CAST. */
  text: string[];
  /** The other columns, kept as they are. */
  keep: string[];
  /** Name of the value column (the file's name when it is a plain word or two, else `value`). */
  value: string;
  /** Year columns empty in every row, left out. */
  empty?: string[];
  /** Common type of the year columns: BIGINT when all are whole numbers, else DOUBLE. */
  valueType: 'BIGINT' | 'DOUBLE';
}

/** `1990`, `X1990` (R's names), `yr_1990`, `y.1990`, `year 1990`: a column named by a year (1600–2099). */
const YEAR_NAME = /^(?:(?:x|y|yr|year)[_. ]?)?((?:1[6-9]|20)\d\d)$/i;
/** Wider tables, or longer long shapes, are left as they are: every statement would unpivot them again. */
const MAX_COLUMNS = 400;
const MAX_LONG_ROWS = 20_000_000;
/** At least this many year columns make a table wide. */
const MIN_YEARS = 4;
const WHOLE = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|INT\d*)$/i;
const VAGUE = new Set(['data', 'table', 'sheet', 'export', 'file', 'dataset', 'download', 'wide', 'raw', 'year', 'years']);

/** The long shape of a wide table, or undefined when the table is not one. */
export function longShape(t: IngestedTable, fileBase: string): LongShape | undefined {
  // A year column with an "NA" in it is text: read as numbers, "NA" is missing.
  const years = t.columns.filter((c) => YEAR_NAME.test(c.name.trim()) && (classifyType(c.type) === 'numeric' || /^VARCHAR$/i.test(c.type.trim())));
  const numeric = years.filter((c) => classifyType(c.type) === 'numeric');
  if (years.length < MIN_YEARS || numeric.length * 2 < years.length || new Set(years.map((c) => yearOf(c.name))).size < years.length) return undefined;
  if (t.columns.length > MAX_COLUMNS || t.rowCount * years.length > MAX_LONG_ROWS) return undefined;
  const keep = t.columns.filter((c) => !years.includes(c)).map((c) => c.name);
  const taken = new Set(keep.map((k) => k.toLowerCase()));
  if (taken.has('year')) return undefined;
  const words = slug(fileBase, 40).split('_').filter((w) => w.length > 0);
  const plain = words.length >= 1 && words.length <= 3 && words.every((w) => /^[a-z]{2,}$/.test(w)) && !words.some((w) => VAGUE.has(w));
  let value = plain ? words.join('_') : 'value';
  if (taken.has(value)) value = taken.has('value') ? `${value}_value` : 'value';
  return { years: years.map((c) => c.name), text: years.filter((c) => !numeric.includes(c)).map((c) => c.name), keep, value, valueType: years.every((c) => WHOLE.test(c.type.trim())) ? 'BIGINT' : 'DOUBLE' };
}

function yearOf(name: string): number {
  return Number(YEAR_NAME.exec(name.trim())?.[1]);
}

/**
 * The shape without year columns that are empty in every row (a file's last years not yet filled
 * in): their years are no rows, so "the latest year" is the latest with a figure. One scan.
 */
export async function withoutEmptyYears(run: RunSql, table: string, l: LongShape): Promise<LongShape> {
  const row = (await run(`SELECT ${l.years.map((y) => `count(${l.text.includes(y) ? `TRY_CAST(trim(${quoteIdent(y)}) AS DOUBLE)` : quoteIdent(y)})`).join(', ')} FROM ${quoteIdent(table)}`))[0] ?? [];
  const empty = l.years.filter((_y, i) => Number(row[i] ?? 0) === 0);
  if (empty.length === 0 || l.years.length - empty.length < MIN_YEARS) return l;
  return { ...l, years: l.years.filter((y) => !empty.includes(y)), text: l.text.filter((y) => !empty.includes(y)), empty };
}

/** The columns of the long shape, as the ingest would have typed them. */
export function longColumns(t: IngestedTable, l: LongShape): ColumnInfo[] {
  const kept = l.keep.map((k) => t.columns.find((c) => c.name === k) ?? { name: k, type: 'VARCHAR' });
  return [...kept, { name: 'year', type: 'INTEGER' }, { name: l.value, type: l.valueType }];
}

/**
 * SELECT of the long shape over `relation` (a quoted table name or a parenthesised query). Every
 * cell is a row, an empty one too, so "rows with no value for 1960" are counted as in the file.
 */
export function longSelect(relation: string, l: LongShape): string {
  const cast = l.years.map((y) => (l.text.includes(y) ? `TRY_CAST(trim(${quoteIdent(y)}) AS ${l.valueType})` : `CAST(${quoteIdent(y)} AS ${l.valueType})`) + ` AS ${quoteIdent(y)}`).join(', ');
  const keep = l.keep.map((k) => `${quoteIdent(k)}, `).join('');
  return `SELECT ${keep}CAST(regexp_extract(year_column, '(\\d{4})$', 1) AS INTEGER) AS "year", ${quoteIdent(l.value)}\n    FROM (SELECT * REPLACE (${cast}) FROM ${relation}) UNPIVOT INCLUDE NULLS (${quoteIdent(l.value)} FOR year_column IN (${l.years.map(quoteIdent).join(', ')}))`;
}

/** "`population.csv` has one column per year (1990 to 2020): read as rows of `year` and `population`." */
export function longNote(label: string, l: LongShape): string {
  const ys = l.years.map(yearOf);
  const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;
  const empty = (l.empty ?? []).length > 0 ? ` (${(l.empty ?? []).map(code).join(', ')} ${(l.empty ?? []).length === 1 ? 'is' : 'are'} empty)` : '';
  return `${code(label)} has one column per year (${Math.min(...ys)} to ${Math.max(...ys)}${empty}): read as rows of ${code('year')} and ${code(l.value)}.`;
}
