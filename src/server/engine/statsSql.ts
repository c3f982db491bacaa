/**
 * SQL of the statistical and data-quality answers: correlation, missing values, duplicates and
 * outliers (Tukey's fences: below Q1 - 1.5 IQR or above Q3 + 1.5 IQR). Like every statement of an
 * answer, they read the tables only through the file-named CTEs.
 */
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';
import { sqlName } from './schemaIndex';
import { fromSql, type Statement } from './sqlBuilder';
import { markersNote, presentSql } from './missingMarkers';
import { colSql, whereSql } from './sqlExpr';
import type { ColRef, Filter, TableMeta } from './types';

export interface StatsQuery {
  tables: TableMeta[];
  /** Run in order; `main` is the one published as the TABLE. */
  statements: Statement[];
  main: number;
}

const st = (comment: string, select: string, ctes: string[] = []): Statement => ({ comment, ctes, select });
/** Per-column listings stay readable up to this many columns. */
const MAX_COLUMNS = 200;

export function correlationSql(x: ColRef, y: ColRef, filters: readonly Filter[]): StatsQuery & { points: Statement } {
  const { from, tables, qualify } = fromSql(x.table, [x, y, ...filters.map((f) => f.col)]);
  const xs = colSql(x, qualify);
  const ys = colSql(y, qualify);
  const where = whereSql([...filters, { kind: 'null', col: x, isNull: false }, { kind: 'null', col: y, isNull: false }], qualify);
  const main = st(`Correlation of ${x.column.name} and ${y.column.name}`,
    `SELECT corr(${xs}, ${ys}) AS correlation,\n  regr_slope(${ys}, ${xs}) AS slope,\n  count(*) AS pairs\n${from}${where}`);
  // The scatter plot needs points, not all of a million rows: a fixed-seed sample keeps it repeatable.
  const points = st(`Up to 1,000 sampled points for the scatter plot`,
    `SELECT * FROM (\n  SELECT ${xs} AS x, ${ys} AS y\n  ${from.replace(/\n/g, '\n  ')}${where.replace(/\n/g, '\n  ')}\n) USING SAMPLE reservoir(1000 ROWS) REPEATABLE (7)`);
  return { tables, statements: [main], main: 0, points };
}

export function correlationScanSql(target: ColRef, others: readonly ColRef[], filters: readonly Filter[]): StatsQuery {
  const { from, tables, qualify } = fromSql(target.table, [target, ...others, ...filters.map((f) => f.col)]);
  const t = colSql(target, qualify);
  const where = whereSql(filters, qualify);
  const parts = others.slice(0, MAX_COLUMNS).map((o) => {
    const os = colSql(o, qualify);
    return `SELECT ${quoteLiteral(o.column.name)} AS column_name, corr(${t}, ${os}) AS correlation, count(${t} + ${os}) AS pairs\n${from}${where}`;
  });
  const select = `SELECT * FROM (\n${parts.join('\nUNION ALL\n')}\n)\nORDER BY abs(correlation) DESC NULLS LAST, column_name`;
  return { tables, statements: [st(`Correlation of ${target.column.name} with every other numeric column`, select)], main: 0 };
}

export function missingSql(table: TableMeta, col: ColRef | undefined): StatsQuery {
  const t = sqlName(table.alias);
  if (col !== undefined) {
    const raw = quoteIdent(col.column.name);
    // Text that is neither a number nor a "no value" marker ("Ancient" among years).
    const extra = col.column.converted ? `,\n  count(*) FILTER (WHERE ${presentSql(col.column, raw)} AND ${colSql(col, false)} IS NULL) AS unreadable_values` : '';
    const missing = `count(*) FILTER (WHERE NOT ${presentSql(col.column, raw)})`;
    return {
      tables: [table], main: 0,
      statements: [st(`Missing values of ${col.column.name}${markersNote(col.column)}`,
        `SELECT count(*) AS row_count,\n  ${missing} AS missing_values,\n  round(100.0 * ${missing} / nullif(count(*), 0), 2) AS missing_pct${extra}\nFROM ${t}`)],
    };
  }
  const parts = table.columns.slice(0, MAX_COLUMNS).map((c, i) => {
    const missing = `count(*) FILTER (WHERE NOT ${presentSql(c, quoteIdent(c.name))})`;
    return `SELECT ${i + 1} AS position, ${quoteLiteral(c.name)} AS column_name, ${missing} AS missing_values, round(100.0 * ${missing} / nullif(count(*), 0), 2) AS missing_pct FROM ${t}`;
  });
  const select = `SELECT column_name, missing_values, missing_pct FROM (\n${parts.join('\nUNION ALL\n')}\n)\nORDER BY missing_values DESC, position`;
  return { tables: [table], statements: [st(`Missing values per column of ${table.label}`, select)], main: 0 };
}

export function duplicatesSql(table: TableMeta, cols: readonly ColRef[]): StatsQuery {
  const t = sqlName(table.alias);
  if (cols.length === 0) {
    const summary = st(`Rows of ${table.label} that repeat an earlier row exactly`,
      `SELECT count(*) AS row_count,\n  count(*) - (SELECT count(*) FROM (SELECT DISTINCT * FROM ${t})) AS duplicate_rows\nFROM ${t}`);
    const listing = st('The repeated rows, most copies first',
      `SELECT *, count(*) AS copies\nFROM ${t}\nGROUP BY ALL\nHAVING count(*) > 1\nORDER BY copies DESC\nLIMIT 100`);
    return { tables: [table], statements: [summary, listing], main: 1 };
  }
  const names = cols.map((c) => quoteIdent(c.column.name));
  const notNull = names.map((n) => `${n} IS NOT NULL`).join(' AND ');
  const label = cols.map((c) => c.column.name).join(', ');
  const summary = st(`Values of ${label} that occur more than once`,
    `SELECT count(*) AS duplicated_values,\n  coalesce(sum(occurrences) - count(*), 0) AS extra_rows\nFROM (\n  SELECT ${names.join(', ')}, count(*) AS occurrences\n  FROM ${t}\n  WHERE ${notNull}\n  GROUP BY ALL\n  HAVING count(*) > 1\n)`);
  const listing = st(`The repeated values of ${label}, most frequent first`,
    `SELECT ${names.join(', ')}, count(*) AS occurrences\nFROM ${t}\nWHERE ${notNull}\nGROUP BY ALL\nHAVING count(*) > 1\nORDER BY occurrences DESC, ${names.join(', ')}\nLIMIT 100`);
  return { tables: [table], statements: [summary, listing], main: 1 };
}

export function outliersSql(table: TableMeta, cols: readonly ColRef[], filters: readonly Filter[]): StatsQuery {
  const { from, tables, qualify } = fromSql(table, [...cols, ...filters.map((f) => f.col)]);
  const where = whereSql(filters, qualify);
  const ctes: string[] = [];
  const parts = cols.slice(0, MAX_COLUMNS).map((c, i) => {
    const x = colSql(c, qualify);
    const q = `q${i + 1}`;
    ctes.push(`${q} AS (\n  SELECT quantile_cont(${x}, 0.25) AS q1, quantile_cont(${x}, 0.75) AS q3, count(${x}) AS n, min(${x}) AS lo, max(${x}) AS hi\n  ${from.replace(/\n/g, '\n  ')}${where.replace(/\n/g, '\n  ')}\n)`);
    const outside = `${x} < ${q}.q1 - 1.5 * (${q}.q3 - ${q}.q1) OR ${x} > ${q}.q3 + 1.5 * (${q}.q3 - ${q}.q1)`;
    const cond = where === '' ? `WHERE ${outside}` : `${where}\n  AND (${outside})`;
    return `SELECT ${i + 1} AS position, ${quoteLiteral(c.column.name)} AS column_name, q1, q3,\n  q1 - 1.5 * (q3 - q1) AS lower_fence, q3 + 1.5 * (q3 - q1) AS upper_fence,\n  (SELECT count(*) ${from.replace(/\n/g, ' ')}, ${q} ${cond.replace(/\n/g, ' ')}) AS outliers,\n  n AS non_null_values, lo AS min_value, hi AS max_value\nFROM ${q}`;
  });
  const select = `SELECT column_name, q1, q3, lower_fence, upper_fence, outliers, non_null_values, min_value, max_value FROM (\n${parts.join('\nUNION ALL\n')}\n)\nORDER BY outliers DESC, position`;
  return { tables, statements: [st(`Outliers by Tukey's fences (1.5 x IQR beyond the quartiles)`, select, ctes)], main: 0 };
}
