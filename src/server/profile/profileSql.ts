/**
 * The SQL of a table profile. It is shown to the user as a CODE block and must run as-is in DuckDB,
 * so everything the profile reports comes out of these statements: nothing is computed on the side.
 */
import type { ColumnInfo } from '../engine';
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';

/** How a column is summarised. */
export type ColumnClass = 'numeric' | 'temporal' | 'text' | 'other';

/** Columns of the profile result (and of the published CSV), in order. */
export const PROFILE_COLUMNS = [
  'column_name', 'column_type', 'non_null_count', 'null_count', 'distinct_count', 'min_value', 'max_value',
  'mean_value', 'top_values',
] as const;

/** Profiles stay readable (and their SQL reasonable) up to this many columns; the rest are counted. */
export const MAX_PROFILE_COLUMNS = 200;
/** Most frequent values listed for text columns. */
export const TOP_VALUES = 5;
/** Longer values are cut in the top-values list (display only; grouping uses the full value). */
const TOP_VALUE_CHARS = 60;

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|REAL|DOUBLE|DECIMAL(\(\d+,\s*\d+\))?|INT\d*|BIGNUM|VARINT)$/i;
const TEMPORAL = /^(DATE|TIME|TIMESTAMP|TIMESTAMP_S|TIMESTAMP_MS|TIMESTAMP_NS|TIMESTAMP WITH TIME ZONE|TIMESTAMPTZ|TIME WITH TIME ZONE)$/i;
const TEXT = /^(VARCHAR|BOOLEAN|UUID|JSON|ENUM\(.*\))$/i;

/** Classifies a DuckDB type name. */
export function classifyType(type: string): ColumnClass {
  const t = type.trim();
  if (NUMERIC.test(t)) return 'numeric';
  if (TEMPORAL.test(t)) return 'temporal';
  if (TEXT.test(t)) return 'text';
  return 'other';
}

export interface ProfileSql {
  /** One row: `row_count`, `duplicate_rows`. */
  overview: string;
  /** Fallback overview without the duplicate count (for column types DISTINCT cannot compare). */
  overviewSimple: string;
  /** One row per profiled column, columns as in {@link PROFILE_COLUMNS}. */
  columns: string;
  /** The columns that were profiled (at most {@link MAX_PROFILE_COLUMNS}). */
  profiled: ColumnInfo[];
}

/** Text safe inside a `--` comment: one line, no fence-closing backticks. */
export function commentText(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ').replace(/`/g, "'");
}

function topValuesExpr(col: string, table: string): string {
  const v = 'v';
  const shown = `CASE WHEN length(${v}) > ${TOP_VALUE_CHARS} THEN left(${v}, ${TOP_VALUE_CHARS - 3}) || '...' ELSE ${v} END`;
  return `(SELECT string_agg(regexp_replace(${shown}, '\\s+', ' ', 'g') || ' (' || n || ')', '; ' ORDER BY n DESC, ${v})
      FROM (SELECT CAST(${col} AS VARCHAR) AS ${v}, count(*) AS n FROM ${table} WHERE ${col} IS NOT NULL
            GROUP BY ${v} ORDER BY n DESC, ${v} LIMIT ${TOP_VALUES}))`;
}

function columnBranch(index: number, column: ColumnInfo, table: string): string {
  const col = quoteIdent(column.name);
  const cls = classifyType(column.type);
  const ranged = cls === 'numeric' || cls === 'temporal';
  const stat = (fn: string): string => (ranged ? `CAST(${fn}(${col}) AS VARCHAR)` : 'CAST(NULL AS VARCHAR)');
  const top = cls === 'text' ? topValuesExpr(col, table) : 'CAST(NULL AS VARCHAR)';
  return `  SELECT ${index} AS column_index, ${quoteLiteral(column.name)} AS column_name, ${quoteLiteral(column.type)} AS column_type,
    count(${col}) AS non_null_count, count(*) - count(${col}) AS null_count, count(DISTINCT ${col}) AS distinct_count,
    ${stat('min')} AS min_value, ${stat('max')} AS max_value, ${stat('avg')} AS mean_value,
    ${top} AS top_values
  FROM ${table}`;
}

/** Builds the profile statements for a table. */
export function buildProfileSql(table: string, columns: readonly ColumnInfo[]): ProfileSql {
  const t = quoteIdent(table);
  const profiled = columns.slice(0, MAX_PROFILE_COLUMNS);
  const branches = profiled.map((c, i) => columnBranch(i + 1, c, t));
  const columnsSql = `SELECT ${PROFILE_COLUMNS.join(', ')}
FROM (
${branches.join('\n  UNION ALL\n')}
)
ORDER BY column_index`;
  return {
    overview: `SELECT count(*) AS row_count,
  count(*) - (SELECT count(*) FROM (SELECT DISTINCT * FROM ${t})) AS duplicate_rows
FROM ${t}`,
    overviewSimple: `SELECT count(*) AS row_count FROM ${t}`,
    columns: columnsSql,
    profiled,
  };
}

/** A fenced ```sql block with the statements that ran, each preceded by its comment. */
export function sqlCodeBlock(parts: ReadonlyArray<{ comment: string; sql: string }>): string {
  const body = parts.map((p) => `-- ${commentText(p.comment)}\n${p.sql};`).join('\n\n');
  // A fence longer than any backtick run inside (quoted column names may contain backticks).
  const longest = Math.max(0, ...(body.match(/`+/g) ?? []).map((s) => s.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}sql\n${body}\n${fence}`;
}
