/**
 * Plan -> SQL. Every statement reads the session's tables only through CTEs named after the files
 * (`sales`, `customers`), so the same text runs on the ingested tables (executed) and on the user's
 * own files (shown): only the CTE definitions differ, the body is identical.
 */
import { quoteIdent } from '../duckdb/sqlText';
import { joinKey } from './joins';
import { sqlName } from './schemaIndex';
import { aliasSql, colSql, filterSql, grainName, grainOrderSql, grainSql, measureName, measureSql, numberSql, whereSql } from './sqlExpr';
import type { AggregatePlan, ColRef, Filter, Grain, Plan, RowsPlan, TableMeta } from './types';

/** One statement of an answer: its purpose (a comment) and its body over the table CTEs. */
export interface Statement {
  comment: string;
  /** Extra CTEs (`name AS (...)`) after the table CTEs. */
  ctes: string[];
  select: string;
  /**
   * The only columns the statement reads, when its tables are far wider: the table CTEs then select
   * just these. A CTE read many times is materialised whole, and the profile of 200 columns of a
   * 10,000-column table read them all (half a gigabyte, three times as long).
   */
  columns?: readonly string[];
}

export interface BuiltQuery {
  /** Tables whose CTEs the statements need. */
  tables: TableMeta[];
  /** The statement whose rows are the answer's TABLE. */
  main: Statement;
  /** Result column names of {@link main}, in order. */
  columns: string[];
}

/** FROM clause for the base table and every other table the refs use (joined by their key). */
export function fromSql(base: TableMeta, refs: readonly ColRef[], filters: readonly Filter[] = []): { from: string; tables: TableMeta[]; qualify: boolean } {
  const others = [...new Set(refs.map((r) => r.table))].filter((t) => t !== base);
  // Tables only looked into by a subquery ("customers without orders") need their CTE, not a join.
  const looked = filters.flatMap((f) => (f.kind === 'absentIn' ? [f.other] : [])).filter((t) => t !== base && !others.includes(t));
  const tables = [base, ...others, ...new Set(looked)];
  let from = `FROM ${sqlName(base.alias)}`;
  for (const t of others) {
    const key = joinKey(base, t);
    if (!key) throw new Error(`no join key between ${base.label} and ${t.label}`);
    // A key found by its values is not declared anywhere: rows without a match are left out (and the answer says so).
    from += `\n${key.byValue !== undefined ? 'JOIN' : 'LEFT JOIN'} ${sqlName(t.alias)} ON ${sqlName(base.alias)}.${quoteIdent(key.left.name)} = ${sqlName(t.alias)}.${quoteIdent(key.right.name)}`;
  }
  return { from, tables, qualify: others.length > 0 };
}

function filterRefs(filters: readonly Filter[]): ColRef[] {
  return filters.map((f) => f.col);
}

/** A scope filter applies to the whole population (dates, "of manufacturing workers"); others select the part of a share. */
/** Whether a filter of a share names the whole (a period, "of crew") rather than the part counted. */
export function isScope(f: Filter, i: number, plan: AggregatePlan): boolean {
  return f.kind === 'dateRange' || f.kind === 'datePart' || (plan.shareScope?.includes(i) ?? false);
}

/** "average monthly total of visits": sum per month, then the average of those sums. */
function perBucketSql(plan: AggregatePlan & { perBucket: { col: ColRef; grain: Grain } }): BuiltQuery {
  const m = plan.measures[0];
  const refs = [plan.perBucket.col, ...(m?.col ? [m.col] : []), ...filterRefs(plan.filters)];
  const { from, tables, qualify } = fromSql(plan.base, refs, plan.filters);
  const total = m?.col !== undefined ? `sum(${colSql(m.col, qualify)})` : 'count(*)';
  const name = `avg_${plan.perBucket.grain === 'day' ? 'daily' : `${plan.perBucket.grain}ly`}_total${m?.col ? `_${m.col.column.name}` : '_rows'}`;
  const inner = `SELECT ${grainSql(plan.perBucket.grain, colSql(plan.perBucket.col, qualify))} AS bucket, ${total} AS bucket_total\n  ${from.replace(/\n/g, '\n  ')}${whereSql(plan.filters, qualify).replace(/\n/g, '\n  ')}\n  GROUP BY ALL`;
  return { tables, columns: [name], main: { comment: '', ctes: [], select: `SELECT avg(bucket_total) AS ${aliasSql(name)}\nFROM (\n  ${inner}\n)` } };
}

function aggregateSql(plan: AggregatePlan): BuiltQuery & { count?: Statement } {
  if (plan.perBucket !== undefined && plan.dims.length === 0) return perBucketSql({ ...plan, perBucket: plan.perBucket });
  const refs = [...plan.measures.flatMap((m) => (m.col ? [m.col] : [])), ...plan.dims.map((d) => d.col), ...filterRefs(plan.filters)];
  const { from, tables, qualify } = fromSql(plan.base, refs, plan.filters);
  const select: string[] = [];
  const columns: string[] = [];
  const taken = new Set(plan.base.columns.map((c) => c.name.toLowerCase()));
  for (const d of plan.dims) {
    const x = colSql(d.col, qualify);
    const name = d.grain ? grainName(d.grain, taken, d.col.column.name) : d.col.column.name;
    select.push(d.grain ? `${grainSql(d.grain, x)} AS ${aliasSql(name)}` : (x === quoteIdent(name) ? x : `${x} AS ${aliasSql(name)}`));
    columns.push(name);
  }
  if (plan.shareOfFiltered) {
    const scope = plan.filters.filter((f, i) => isScope(f, i, plan));
    const part = plan.filters.filter((f, i) => !isScope(f, i, plan)).map((f) => filterSql(f, qualify)).join(' AND ');
    const m = plan.measures[0] ?? { agg: 'count' as const };
    const name = measureName(m);
    select.push(`${measureSql(m, qualify, part)} AS ${aliasSql(`matching_${name}`)}`, `${measureSql(m, qualify)} AS ${aliasSql(`all_${name}`)}`,
      `100.0 * ${measureSql(m, qualify, part)} / nullif(${measureSql(m, qualify)}, 0) AS share_pct`);
    columns.push(`matching_${name}`, `all_${name}`, 'share_pct');
    // Within each group: the groups in their own order (time in time order).
    const groups = plan.dims.length > 0 ? `\nGROUP BY ALL\nORDER BY ${plan.dims.map((d, i) => (d.grain !== undefined ? grainOrderSql(d.grain, colSql(d.col, qualify), aliasSql(columns[i] ?? '')) : aliasSql(columns[i] ?? ''))).join(', ')}` : '';
    return { tables, columns, main: { comment: '', ctes: [], select: `SELECT ${select.join(',\n  ')}\n${from}${whereSql(scope, qualify)}${groups}` } };
  }
  for (const m of plan.measures) {
    select.push(`${measureSql(m, qualify)} AS ${aliasSql(measureName(m))}`);
    columns.push(measureName(m));
  }
  const first = plan.measures[0];
  if (plan.share && first) {
    // The share of the whole, before any LIMIT: window functions run after grouping.
    select.push(`100.0 * ${measureSql(first, qualify)} / sum(${measureSql(first, qualify)}) OVER () AS share_pct`);
    columns.push('share_pct');
  }
  let sql = `SELECT ${select.join(',\n  ')}\n${from}${whereSql(plan.filters, qualify)}`;
  if (plan.dims.length > 0) sql += '\nGROUP BY ALL';
  const order: string[] = [];
  const timeDims = plan.dims.map((d, i) => ({ d, name: columns[i] ?? '' })).filter((x) => x.d.grain !== undefined);
  const firstName = first ? aliasSql(measureName(first)) : undefined;
  if (plan.order && firstName) order.push(`${firstName} ${plan.order === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`);
  for (const t of timeDims) order.push(grainOrderSql(t.d.grain ?? 'day', colSql(t.d.col, qualify), aliasSql(t.name)));
  for (const [i, d] of plan.dims.entries()) if (d.grain === undefined) order.push(aliasSql(columns[i] ?? ''));
  const orderBy = plan.dims.length > 0 && order.length > 0 ? `\nORDER BY ${[...new Set(order)].join(', ')}` : '';
  // A top N or a capped result shows part of the groups: the answer states how many there are.
  const groups = plan.dims.length > 0 ? { count: { comment: '', ctes: [], select: `SELECT count(*) AS groups_in_all\nFROM (\n  ${sql.replace(/\n/g, '\n  ')}\n)` } } : {};
  if (plan.limit !== undefined && plan.order !== undefined && firstName !== undefined && plan.dims.length > 0) {
    // "the top 3" keeps whatever ties with the third: cutting a tie in two would pick a winner at random.
    const dir = plan.order === 'asc' ? 'ASC' : 'DESC';
    // Outside the grouped query only its result columns exist, so ties are ordered by them (a weekday
    // by its name: its calendar order needs the date, which is inside).
    const outer = [`${firstName} ${dir} NULLS LAST`, ...timeDims.map((t) => aliasSql(t.name)), ...plan.dims.flatMap((d, i) => (d.grain === undefined ? [aliasSql(columns[i] ?? '')] : []))];
    sql = `SELECT * FROM (\n  ${sql.replace(/\n/g, '\n  ')}\n)\nQUALIFY rank() OVER (ORDER BY ${firstName} ${dir} NULLS LAST) <= ${plan.limit}\nORDER BY ${[...new Set(outer)].join(', ')}\nLIMIT ${tieCap(plan.limit)}`;
    return { tables, columns, main: { comment: '', ctes: [], select: sql }, ...groups };
  }
  sql += orderBy;
  if (plan.limit !== undefined) sql += `\nLIMIT ${plan.limit}`;
  return { tables, columns, main: { comment: '', ctes: [], select: sql }, ...groups };
}

function rowsSql(plan: RowsPlan): BuiltQuery & { count: Statement } {
  const refs = [...filterRefs(plan.filters), ...(plan.orderBy ? [plan.orderBy.col] : [])];
  const { from, tables, qualify } = fromSql(plan.table, refs, plan.filters);
  const star = qualify ? `${sqlName(plan.table.alias)}.*` : '*';
  // Asked-for columns first ("the manager of the Lisbon store"), then the whole row for context.
  const shown = (plan.show ?? []).filter((c, i, all) => all.findIndex((x) => x.column === c.column) === i);
  const lead = shown.map((c) => (c.column.derived !== undefined || c.column.sqlTemplate !== undefined ? `${colSql(c, qualify)} AS ${aliasSql(c.column.name)}` : colSql(c, qualify)));
  const plain = shown.filter((c) => c.column.derived === undefined && c.column.sqlTemplate === undefined).map((c) => quoteIdent(c.column.name));
  const rest = plain.length > 0 && !qualify ? `* EXCLUDE (${plain.join(', ')})` : star;
  let sql = `SELECT ${[...lead, rest].join(', ')}\n${from}${whereSql(plan.filters, qualify)}`;
  if (plan.orderBy) {
    const by = `${colSql(plan.orderBy.col, qualify)} ${plan.orderBy.dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`;
    // Rows tied with the last one shown are shown too ("the highest" may be two rows).
    sql += `\nQUALIFY rank() OVER (ORDER BY ${by}) <= ${plan.limit}\nORDER BY ${by}\nLIMIT ${tieCap(plan.limit)}`;
  } else sql += `\nLIMIT ${plan.limit}`;
  const count = `SELECT count(*) AS matching_rows\n${from}${whereSql(plan.filters, qualify)}`;
  return {
    tables, columns: plan.table.columns.map((c) => c.name),
    main: { comment: '', ctes: [], select: sql },
    count: { comment: '', ctes: [], select: count },
  };
}

/** Rows kept when a ranking ties: all the tied ones, up to a bound that keeps the answer readable. */
export function tieCap(limit: number): number {
  return Math.max(limit + 100, limit * 2);
}

/** The main statement of a plan kind that is a single grouped query. */
export function buildQuery(plan: Plan): BuiltQuery & { count?: Statement } {
  switch (plan.kind) {
    case 'aggregate':
      return aggregateSql(plan);
    case 'rows':
      return rowsSql(plan);
    default:
      throw new Error(`${plan.kind} plans are built by their own module`);
  }
}

/** Composes a statement with the table CTEs (executed or shown). */
export function composeSql(tableCtes: readonly string[], st: Statement): string {
  const ctes = [...tableCtes, ...st.ctes];
  return ctes.length === 0 ? st.select : `WITH ${ctes.join(',\n')}\n${st.select}`;
}

/** The histogram statement for a bin width chosen from the filtered range. */
export function histogramStatement(col: ColRef, filters: readonly Filter[], width: number, offset: number): BuiltQuery {
  const { from, tables, qualify } = fromSql(col.table, [col, ...filterRefs(filters)]);
  const x = colSql(col, qualify);
  const w = numberSql(width);
  const o = numberSql(offset);
  const bin = offset === 0 ? `floor(${x} / ${w}) * ${w}` : `floor((${x} - ${o}) / ${w}) * ${w} + ${o}`;
  const where = whereSql([...filters, { kind: 'null', col, isNull: false }], qualify);
  return {
    tables, columns: ['bin_start', 'bin_end', 'row_count'],
    main: { comment: '', ctes: [], select: `SELECT ${bin} AS bin_start,\n  ${bin} + ${w} AS bin_end,\n  count(*) AS row_count\n${from}${where}\nGROUP BY ALL\nORDER BY bin_start` },
  };
}

/** min, max and count of a column under filters (to choose histogram bins). */
export function rangeStatement(col: ColRef, filters: readonly Filter[]): Statement & { tables: TableMeta[] } {
  const { from, tables, qualify } = fromSql(col.table, [col, ...filterRefs(filters)]);
  const x = colSql(col, qualify);
  return { comment: '', ctes: [], tables, select: `SELECT min(${x}) AS min_value, max(${x}) AS max_value, count(${x}) AS non_null_values, count(DISTINCT ${x}) AS distinct_values\n${from}${whereSql(filters, qualify)}` };
}
