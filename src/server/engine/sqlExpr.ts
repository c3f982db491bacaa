/**
 * SQL fragments for columns, filters and aggregates. Column references go through
 * {@link colSql}, which qualifies them with the table's CTE name when a query joins tables.
 */
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';
import { presentSql } from './missingMarkers';
import { mixedDateExpr, sqlName } from './schemaIndex';
import type { Agg, ColRef, Filter, Grain, Measure } from './types';

/** A number as a SQL literal (never exponent notation). */
export function numberSql(n: number): string {
  if (!Number.isFinite(n)) return 'NULL';
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  const s = String(n);
  return /e/i.test(s) ? n.toFixed(12).replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** The typed value of a column, qualified by its table's CTE name when `qualify` is set. */
export function colSql(ref: ColRef, qualify: boolean): string {
  const q = qualify ? `${sqlName(ref.table.alias)}.` : '';
  const c = ref.column;
  if (c.sqlTemplate !== undefined) return c.sqlTemplate.split('{t}').join(q);
  if (c.dateFormats !== undefined) return mixedDateExpr(c.name, c.dateFormats, qualify ? sqlName(ref.table.alias) : undefined);
  const name = `${q}${quoteIdent(c.name)}`;
  if (c.converted && c.kind === 'numeric') return `TRY_CAST(trim(${name}) AS DOUBLE)`;
  return name;
}

function dateLiteral(d: string): string {
  return `DATE ${quoteLiteral(d)}`;
}

/** One filter as a boolean SQL expression. */
export function filterSql(f: Filter, qualify: boolean): string {
  const x = colSql(f.col, qualify);
  switch (f.kind) {
    case 'in': {
      const list = f.values.map(quoteLiteral).join(', ');
      // A word among numbers written as text ("Total" in `agegr`) is matched as written.
      const c = f.col.column;
      if (c.converted && c.kind === 'numeric' && f.values.some((v) => !Number.isFinite(Number(v)))) {
        const raw = `trim(${qualify ? `${sqlName(f.col.table.alias)}.` : ''}${quoteIdent(c.name)})`;
        return `${f.negate ? 'NOT ' : ''}coalesce(${raw} IN (${list}), false)`;
      }
      const single = f.values.length === 1;
      if (!f.negate) return single ? `${x} = ${list}` : `${x} IN (${list})`;
      // "not in Europe" keeps rows whose region is unknown: they are not in Europe either.
      return single ? `${x} IS DISTINCT FROM ${list}` : `(${x} NOT IN (${list}) OR ${x} IS NULL)`;
    }
    case 'contains': {
      // Whole words, any case: "ford" finds "ford torino" but not "stanford".
      const one = (t: string): string => `regexp_matches(CAST(${x} AS VARCHAR), ${quoteLiteral(`(?i)(^|[^[:alnum:]])${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^[:alnum:]]|$)`)})`;
      const any = f.texts.length === 1 ? one(f.texts[0] ?? '') : `(${f.texts.map(one).join(' OR ')})`;
      return f.negate ? `NOT coalesce(${any}, false)` : any;
    }
    case 'cmp':
      return `${x} ${f.op} ${numberSql(f.value)}`;
    case 'between':
      return `${x} BETWEEN ${numberSql(f.lo)} AND ${numberSql(f.hi)}`;
    case 'dateRange': {
      const parts: string[] = [];
      if (f.from !== undefined) parts.push(`${x} >= ${dateLiteral(f.from)}`);
      if (f.to !== undefined) parts.push(`${x} < ${dateLiteral(f.to)}`);
      return parts.length > 0 ? parts.join(' AND ') : 'true';
    }
    case 'periods':
      return `(${f.ranges.map((r) => `(${x} >= ${dateLiteral(r.from)} AND ${x} < ${dateLiteral(r.to)})`).join(' OR ')})`;
    case 'datePart':
      return f.values.length === 1 ? `${f.part}(${x}) = ${f.values[0]}` : `${f.part}(${x}) IN (${f.values.join(', ')})`;
    case 'none':
      return f.col.column.kind === 'numeric' ? `coalesce(${x}, 0) = 0` : `NOT ${presentSql(f.col.column, x)}`;
    case 'absentIn': {
      const y = quoteIdent(f.otherColumn.name);
      return `${x} NOT IN (SELECT ${y} FROM ${sqlName(f.other.alias)} WHERE ${y} IS NOT NULL)`;
    }
    case 'bool':
      return f.value ? `${x}` : `NOT ${x}`;
    case 'null':
      return f.isNull ? `NOT ${presentSql(f.col.column, x)}` : presentSql(f.col.column, x);
  }
}

/** `WHERE a AND b`, or '' when there is nothing to filter. */
export function whereSql(filters: readonly Filter[], qualify: boolean): string {
  return filters.length === 0 ? '' : `\nWHERE ${filters.map((f) => filterSql(f, qualify)).join('\n  AND ')}`;
}

const PREFIX: Record<Agg, string> = {
  count: 'row_count', count_distinct: 'distinct', sum: 'total', avg: 'avg', median: 'median', min: 'min', max: 'max',
};

/** Result column name of a measure: `total_revenue`, `avg_price`, `row_count`. */
export function measureName(m: Measure): string {
  if (m.agg === 'count' || m.col === undefined) return 'row_count';
  if (m.agg === 'count_distinct' && m.grain !== undefined) return `${grainName(m.grain, new Set(), m.col.column.name)}_count`;
  return `${PREFIX[m.agg]}_${m.col.column.name}`;
}

/** Aggregate expression of a measure (without alias). */
export function measureSql(m: Measure, qualify: boolean, filter?: string): string {
  const f = filter !== undefined ? ` FILTER (WHERE ${filter})` : '';
  if (m.agg === 'count' || m.col === undefined) return `count(*)${f}`;
  const x = colSql(m.col, qualify);
  const key = m.col.table.columns.find((c) => c.name === m.col?.column.entityKey);
  if (key !== undefined && (m.agg === 'sum' || m.agg === 'avg' || m.agg === 'median')) {
    // One value per territory, not per row: the distinct (territory, value) pairs are what add up.
    const k = colSql({ table: m.col.table, column: key }, qualify);
    const pairs = `list(DISTINCT {'k': ${k}, 'v': ${x}}) FILTER (WHERE ${x} IS NOT NULL${filter !== undefined ? ` AND ${filter}` : ''})`;
    return `list_aggregate(list_transform(${pairs}, p -> p.v), '${m.agg}')`;
  }
  switch (m.agg) {
    case 'count_distinct':
      return `count(DISTINCT ${m.grain !== undefined ? grainSql(m.grain, x) : x})${f}`;
    case 'sum':
      return `sum(${x})${f}`;
    case 'avg':
      return `avg(${x})${f}`;
    case 'median':
      return `median(${x})${f}`;
    case 'min':
      return `min(${x})${f}`;
    case 'max':
      return `max(${x})${f}`;
  }
}

/** Result column name of a time bucket. */
export function grainName(g: Grain, taken: ReadonlySet<string>, column: string): string {
  const name = g === 'hourOfDay' ? 'hour_of_day' : g === 'monthOfYear' ? 'month_of_year' : g === 'quarterOfYear' ? 'quarter_of_year' : g;
  return taken.has(name) ? `${name}_of_${column}` : name;
}

/** ORDER BY term of a time bucket: weekdays in calendar order, the rest by their value. */
export function grainOrderSql(g: Grain, x: string, alias: string): string {
  return g === 'weekday' ? `min(isodow(${x}))` : alias;
}

/** A time bucket: a DATE (or TIMESTAMP for hours) at the bucket's start; years as integers. */
export function grainSql(g: Grain, x: string): string {
  if (g === 'year') return `year(${x})`;
  if (g === 'decade') return `CAST(floor(year(${x}) / 10) * 10 AS INTEGER)`;
  if (g === 'weekday') return `dayname(${x})`;
  if (g === 'hourOfDay') return `hour(${x})`;
  if (g === 'monthOfYear') return `month(${x})`;
  if (g === 'quarterOfYear') return `quarter(${x})`;
  if (g === 'hour') return `date_trunc('hour', ${x})`;
  return `CAST(date_trunc('${g}', ${x}) AS DATE)`;
}

/** An alias as SQL (bare when possible). */
export function aliasSql(name: string): string {
  return sqlName(name);
}
