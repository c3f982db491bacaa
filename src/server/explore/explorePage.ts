/**
 * The SQL of one page. Two shortcuts keep a page as fast as the bare query a user would write:
 * - unsorted and unfiltered: the file's own row number (`rowid` of a table, Parquet's row number)
 *   selects the page, so DuckDB skips to it instead of counting rows up to the offset;
 * - sorted: the view adds the row number as a last sort key so that rows with equal values keep
 *   one order from page to page. That extra key costs DuckDB its fast path for `ORDER BY one column
 *   LIMIT n` (120 ms instead of 15 on 10 M rows). So the first key's value at the page's last
 *   position is found first, with that fast path; the page then comes from the rows strictly before
 *   it plus, in full order, the first rows that equal it: exactly the rows of the full order.
 */
import type { ExploreColumn, ExploreQuery } from '../../shared/explore';
import { quoteIdent, quoteLiteral } from '../duckdb/sqlText';
import { orderSql, selectList, whereSql } from './exploreQuery';

/** Pages reaching further than this are sorted whole (the shortcut's gain is gone there). */
const SHORTCUT_ROWS = 100_000;

export interface PageView {
  columns: readonly ExploreColumn[];
  relation: string;
  tiebreak: string | undefined;
}

/** Runs SQL; `cells` cuts long cells to the grid's size (never for a value the next statement uses). */
type Run = (sql: string, cells: boolean) => Promise<unknown[][]>;

export function plainSql(v: PageView, q: ExploreQuery, offset: number, limit: number): string {
  const where = whereSql(q, v.columns);
  return [`SELECT ${selectList(v.columns)} FROM ${v.relation}`, where, orderSql(q, v.tiebreak), `LIMIT ${limit} OFFSET ${offset}`].filter((s) => s !== '').join('\n');
}

/** The rows of one page, in the view's order. */
export async function pageRows(run: Run, v: PageView, q: ExploreQuery, offset: number, limit: number): Promise<unknown[][]> {
  const plain = q.sort.length === 0 && q.filters.length === 0;
  if (plain && v.tiebreak !== undefined) {
    return run(`SELECT ${selectList(v.columns)} FROM ${v.relation} WHERE ${v.tiebreak} >= ${offset} AND ${v.tiebreak} < ${offset + limit} ORDER BY ${v.tiebreak}`, true);
  }
  const first = q.sort[0];
  const col = first === undefined ? undefined : v.columns.find((c) => c.name === first.column);
  const end = offset + limit;
  if (first === undefined || col === undefined || v.tiebreak === undefined || end > SHORTCUT_ROWS || col.kind === 'other') return run(plainSql(v, q, offset, limit), true);
  const key = quoteIdent(first.column);
  const where = whereSql(q, v.columns);
  const dir = first.desc ? 'DESC' : 'ASC';
  // The bound as DuckDB writes it, cast outside: a cast inside the ordered select costs the fast path.
  const at = await run(`SELECT CAST(b AS VARCHAR) FROM (SELECT ${key} AS b FROM ${v.relation}\n${where}\nORDER BY ${key} ${dir} NULLS LAST\nLIMIT 1 OFFSET ${end - 1})`, false);
  const bound = at[0]?.[0];
  // Fewer rows than the page reaches, or the page reaches the missing values: sorted whole.
  if (typeof bound !== 'string') return run(plainSql(v, q, offset, limit), true);
  // A number as a bare literal: DuckDB plans the union far slower with a cast constant (145 ms vs 8).
  const value = col.kind === 'number' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(bound) ? bound
    : col.kind === 'text' ? quoteLiteral(bound) : `CAST(${quoteLiteral(bound)} AS ${col.type})`;
  const and = (cond: string): string => (where === '' ? `WHERE ${cond}` : `${where}\n  AND ${cond}`);
  const cols = `${selectList(v.columns)}, ${v.tiebreak} AS ${quoteIdent(TIE)}`;
  const rest: ExploreQuery = { sort: q.sort.slice(1), filters: [] };
  const order = orderSql(q, quoteIdent(TIE));
  return run([
    `SELECT ${selectList(v.columns)} FROM (`,
    `  SELECT ${cols} FROM ${v.relation} ${and(`${key} ${first.desc ? '>' : '<'} ${value}`)}`,
    '  UNION ALL',
    `  (SELECT ${cols} FROM ${v.relation} ${and(`${key} = ${value}`)} ${orderSql(rest, v.tiebreak)} LIMIT ${end})`,
    `)\n${order}\nLIMIT ${limit} OFFSET ${offset}`,
  ].join('\n'), true);
}

/** The row order carried through the shortcut's union (a name no file's column has). */
const TIE = '__explore_tie';
