/**
 * The statistics of a file read in place, gathered in the one scan that checks it. A view over a
 * large file costs a full read per query, and an exact profile (distinct counts, duplicate rows,
 * grouped top values per column) takes a dozen reads: on a 1 GB CSV that is half a minute before
 * the first answer. One pass gives what an overview needs (rows, missing values, ranges, means and
 * the frequent values of text columns), at about the cost of DuckDB reading the file once.
 *
 * Frequent values come from `approx_top_k`, a bounded summary. When a column has at most
 * {@link LISTED_VALUES} distinct values the summary holds every one of them, so their number is
 * exact; above that the count is not known, and the listed values are only "frequent": no
 * estimate is ever reported as a count.
 *
 * A Parquet file is stored by column, so reading one column again costs little, while
 * `approx_top_k` costs more than the rest of the scan together (300 vs 180 ms on 3 M rows). Its
 * text columns with few distinct values are counted exactly instead, by a grouped query per column
 * (about 15 ms each); only columns with many distinct values keep the summary.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnInfo } from '../engine';
import { classifyType, MAX_PROFILE_COLUMNS } from '../profile/profileSql';
import { quoteIdent } from './sqlText';

/** Distinct values a text column may have and still be listed (and counted) completely. */
export const LISTED_VALUES = 50;

export interface ColumnStats {
  name: string;
  nonNull: number;
  /** Numbers and dates, as DuckDB renders them; null for other columns or all-null ones. */
  min: string | null;
  max: string | null;
  /** Numbers only. */
  mean: string | null;
  /**
   * Text columns: the most frequent values, most frequent first. Every distinct value when
   * `complete` is true, else the first {@link SHOWN_WHEN_INCOMPLETE}. Values longer than
   * {@link VALUE_CHARS} are cut (and `cut` set): they are for showing, not for matching.
   */
  values?: string[];
  complete?: boolean;
  cut?: boolean;
}

export interface TableStats {
  rows: number;
  /** The first {@link MAX_PROFILE_COLUMNS} columns (the rest are checked but not summarised). */
  columns: ColumnStats[];
}

/** Values kept of a column with more distinct values than {@link LISTED_VALUES} (for showing). */
const SHOWN_WHEN_INCOMPLETE = 5;
/** Longest value kept, so the catalog entry stays small whatever the column holds. */
const VALUE_CHARS = 200;

/** Slots per summarised column in the result row: non-null count, min, max, mean, values. */
const SLOTS = 5;

/**
 * One SELECT over `relation` returning a single row: `row_count`, then per summarised column its
 * five slots, then `count()` of every remaining column (which makes DuckDB convert them too, so a
 * value that does not fit its column's type fails here rather than in a user's question).
 */
export function scanStatsSql(relation: string, columns: readonly ColumnInfo[], summarised: (c: ColumnInfo) => boolean = () => true): string {
  const parts = ['count(*) AS row_count'];
  columns.slice(0, MAX_PROFILE_COLUMNS).forEach((c, i) => {
    const col = quoteIdent(c.name);
    const cls = classifyType(c.type);
    const ranged = cls === 'numeric' || cls === 'temporal';
    parts.push(
      `count(${col}) AS c${i}_non_null`,
      ranged ? `CAST(min(${col}) AS VARCHAR) AS c${i}_min` : `NULL AS c${i}_min`,
      ranged ? `CAST(max(${col}) AS VARCHAR) AS c${i}_max` : `NULL AS c${i}_max`,
      cls === 'numeric' ? `CAST(avg(${col}) AS VARCHAR) AS c${i}_mean` : `NULL AS c${i}_mean`,
      cls === 'text' && summarised(c) ? `approx_top_k(CAST(${col} AS VARCHAR), ${LISTED_VALUES + 1}) AS c${i}_values` : `NULL AS c${i}_values`,
    );
  });
  columns.slice(MAX_PROFILE_COLUMNS).forEach((c, i) => parts.push(`count(${quoteIdent(c.name)}) AS rest${i}_non_null`));
  return `SELECT ${parts.join(',\n  ')}\nFROM ${relation}`;
}

const asCount = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : Number(v ?? 0));
const asText = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** Reads the single row of {@link scanStatsSql} (values as `getRowsJS` gives them). */
export function readScanStats(row: readonly unknown[], columns: readonly ColumnInfo[]): TableStats {
  const out: ColumnStats[] = columns.slice(0, MAX_PROFILE_COLUMNS).map((c, i) => {
    const at = 1 + i * SLOTS;
    const s: ColumnStats = { name: c.name, nonNull: asCount(row[at]), min: asText(row[at + 1]), max: asText(row[at + 2]), mean: asText(row[at + 3]) };
    const values = row[at + 4];
    if (Array.isArray(values)) setValues(s, values.map((v) => String(v)));
    return s;
  });
  return { rows: asCount(row[0]), columns: out };
}

/** Keeps `all` (most frequent first, at most {@link LISTED_VALUES} + 1) as the column's listed values. */
function setValues(s: ColumnStats, all: readonly string[]): void {
  s.complete = all.length <= LISTED_VALUES;
  s.values = (s.complete ? all : all.slice(0, SHOWN_WHEN_INCOMPLETE)).map((v) => (v.length > VALUE_CHARS ? `${v.slice(0, VALUE_CHARS - 1)}…` : v));
  if (s.values.some((v, i) => v !== all[i])) s.cut = true;
}

/** Rows looked at to tell a column of few distinct values from one of many. */
const PROBE_ROWS = 100_000;
/**
 * Distinct values among the probed rows under which a column is counted exactly: a grouped count
 * costs with the number of distinct values (10 ms for 5,000 over 3 M rows, 450 ms for 3 M).
 */
const FEW_DISTINCT = PROBE_ROWS / 10;

/**
 * The statistics of `view`, in one read of the file; `columnar` files (Parquet) have their text
 * columns' frequent values counted column by column (see the top of this file).
 */
export async function gatherStats(conn: DuckDBConnection, view: string, columns: readonly ColumnInfo[], signal: AbortSignal, columnar: boolean): Promise<TableStats> {
  signal.throwIfAborted();
  const relation = quoteIdent(view);
  const text = columns.slice(0, MAX_PROFILE_COLUMNS).filter((c) => classifyType(c.type) === 'text');
  const grouped = columnar ? await fewDistinct(conn, relation, text) : new Set<string>();
  const reader = await conn.runAndReadAll(scanStatsSql(relation, columns, (c) => !grouped.has(c.name)));
  const stats = readScanStats(reader.getRowsJS()[0] ?? [], columns);
  for (const s of stats.columns) {
    if (!grouped.has(s.name)) continue;
    signal.throwIfAborted();
    const col = quoteIdent(s.name);
    // Ties are broken by the value, so the same file always lists the same values.
    const top = await conn.runAndReadAll(`SELECT CAST(${col} AS VARCHAR) AS v, count(*) AS n FROM ${relation} WHERE ${col} IS NOT NULL GROUP BY ALL ORDER BY n DESC, v LIMIT ${LISTED_VALUES + 1}`);
    setValues(s, top.getRowsJS().map((r) => String(r[0])));
  }
  return stats;
}

/** The text columns whose first {@link PROBE_ROWS} rows hold few distinct values (a guess about cost only). */
async function fewDistinct(conn: DuckDBConnection, relation: string, text: readonly ColumnInfo[]): Promise<Set<string>> {
  if (text.length === 0) return new Set();
  const counts = text.map((c, i) => `count(DISTINCT ${quoteIdent(c.name)}) AS d${i}`);
  const reader = await conn.runAndReadAll(`SELECT ${counts.join(', ')} FROM (SELECT * FROM ${relation} LIMIT ${PROBE_ROWS})`);
  const row = reader.getRowsJS()[0] ?? [];
  return new Set(text.filter((_, i) => asCount(row[i]) < FEW_DISTINCT).map((c) => c.name));
}
