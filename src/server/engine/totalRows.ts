/**
 * Rows that hold the sum of the others ("Total", "All ages", "Total, all industries" in a category
 * column) are added in again by every sum, count and ranking: "which sex has the most cases" answers
 * "Total". A value is taken for a total only when its words say so and the data agrees: over some
 * number column, its rows add up to the same as all the other rows. Such rows are then left out of
 * every answer that does not ask for them, and the answer says so.
 */
import { quoteIdent, quoteLiteral, relationSql } from '../duckdb/sqlText';
import { num } from '../profile/cellValues';
import type { RunSql } from './columnTypes';
import { code, md } from './describe';
import { isIdLike, timeNamed } from './shape';
import type { ColumnMeta, Filter, Plan, TableMeta } from './types';

/** Words a total's label is made of: "Total", "All ages", "Grand total", "Overall". */
const TOTAL_WORDS = /^(?:(?:grand |sub)?totals?\b|all\b|overall\b)|\btotal$/i;
/** Relative gap allowed between a total and the sum of the rest (rounded published figures). */
const TOLERANCE = 0.02;

/**
 * Finds the total values of the indexed text columns; sets `totals` on the columns that have them.
 * Totals often come in several columns at once (sex "Total" only beside age "All ages"), so a total
 * is compared with the rest within each combination of the other columns' candidates.
 */
export async function markTotalRows(run: RunSql, table: string, columns: ColumnMeta[]): Promise<void> {
  const numbers = columns.filter((c) => c.kind === 'numeric' && !c.converted && c.derived === undefined && !isIdLike(c) && !timeNamed(c)).slice(0, 20);
  if (numbers.length === 0) return;
  const candidates = columns.flatMap((c) => {
    // `agegr` 1..4 with a last row "Total": a column of numbers whose one word is a total's.
    const word = c.unreadableExample?.trim();
    if (c.kind === 'numeric' && c.converted && (c.unreadable ?? 0) <= 3 && word !== undefined && TOTAL_WORDS.test(word)) return [{ column: c, values: [word] }];
    if (c.kind !== 'text' || c.values === undefined || c.values.length < 3) return [];
    const values = c.values.filter((v) => v.length <= 60 && v.trim().split(/\s+/).length <= 5 && TOTAL_WORDS.test(v.trim()));
    return values.length > 0 && values.length <= 3 ? [{ column: c, values }] : [];
  });
  for (const { column, values } of candidates) {
    const x = quoteIdent(column.name);
    const by = candidates.filter((o) => o.column !== column).map((o) => quoteIdent(o.column.name));
    const found: string[] = [];
    for (const v of values) {
      const rest = `(${x} IS NULL OR ${x} NOT IN (${values.map(quoteLiteral).join(', ')}))`;
      const sums = numbers.flatMap((n) => [`sum(${quoteIdent(n.name)}) FILTER (WHERE ${x} = ${quoteLiteral(v)})`, `sum(${quoteIdent(n.name)}) FILTER (WHERE ${rest})`]);
      const rows = await run(`SELECT ${sums.join(', ')} FROM ${relationSql(table)}${by.length > 0 ? ` GROUP BY ${by.join(', ')}` : ''}`);
      const agrees = numbers.some((_n, i) => {
        // Combinations holding only totals (the grand total) or only details say nothing either way.
        const pairs = rows.filter((row) => row[2 * i] != null && row[2 * i + 1] != null).map((row) => [num(row[2 * i]), num(row[2 * i + 1])] as const);
        return pairs.length > 0 && pairs.every(([total, sum]) => sum !== 0 && Math.abs(total - sum) <= TOLERANCE * Math.abs(sum));
      });
      if (agrees) found.push(v);
    }
    if (found.length > 0) column.totals = found;
  }
}

/** The table a plan's filters apply to. */
function filteredTable(plan: Plan): TableMeta | undefined {
  switch (plan.kind) {
    case 'aggregate': return plan.base;
    case 'rows': case 'outliers': return plan.table;
    case 'histogram': return plan.col.table;
    case 'correlation': return plan.x.table;
    case 'correlationScan': return plan.target.table;
    default: return undefined;
  }
}

/**
 * The plan with the total rows of its table left out, unless the question picks them itself
 * ("where sex is Total"). The leaving out is a filter of its own, so the SQL shows it.
 */
export function withoutTotals<P extends Plan>(plan: P): { plan: P; left: TotalsLeft } {
  const table = filteredTable(plan);
  if (table === undefined || !('filters' in plan)) return { plan, left: [] };
  const named = new Set(plan.filters.map((f) => f.col.column));
  // A column of codes and its column of names mark the same group rows: one filter says it.
  const grouped = table.columns.filter((c) => (c.placeGroups ?? []).length > 0 && !named.has(c));
  const left: Array<TotalsLeft[number]> = [
    ...table.columns.filter((c) => (c.totals ?? []).length > 0 && !named.has(c)).map((c) => ({ column: c, values: c.totals ?? [] })),
    // (Unless the question names one of those columns: "population of the World".)
    ...(table.columns.some((c) => (c.placeGroups ?? []).length > 0 && named.has(c)) || countsRows(plan, grouped) ? [] : grouped)
      .sort((a, b) => Number((b.placeGroups ?? []).some((v) => /[a-z]/.test(v))) - Number((a.placeGroups ?? []).some((v) => /[a-z]/.test(v))))
      .slice(0, 1).map((c) => ({ column: c, values: c.placeGroups ?? [], groups: true })),
  ];
  const extra: Filter[] = left.map((l) => ({ kind: 'in', col: { table, column: l.column }, values: l.values, negate: true }));
  // "which country has the most titles": rows with no country (empty, NA) are no country, so never the winner.
  const ranked = plan.kind === 'aggregate' && plan.order !== undefined && plan.limit !== undefined ? plan.dims.filter((d) => d.grain === undefined && !named.has(d.col.column)) : [];
  for (const d of ranked.filter((x) => x.col.column.nonNull < x.col.table.rowCount || (x.col.column.nullMarkers ?? []).length > 0)) {
    extra.push({ kind: 'null', col: d.col, isNull: false });
    left.push({ column: d.col.column, values: [], missing: true });
  }
  return extra.length === 0 ? { plan, left } : { plan: { ...plan, filters: [...plan.filters, ...extra] }, left };
}

/** "how many rows have no value for 1960": rows are rows, groups among them too (unless grouped by their column). */
function countsRows(plan: Plan, grouped: readonly ColumnMeta[]): boolean {
  return plan.kind === 'aggregate' && plan.measures.every((m) => m.agg === 'count' && m.col === undefined) && !plan.dims.some((d) => grouped.includes(d.col.column));
}

export type TotalsLeft = ReadonlyArray<{ column: ColumnMeta; values: string[]; missing?: boolean; groups?: boolean }>;

/** "Rows where `sex` is "Total" hold the sum of the others: they are left out." */
export function totalsNote(left: TotalsLeft): string {
  const totals = left.filter((l) => l.missing !== true && l.groups !== true).map((l) => `${code(l.column.name)} is ${l.values.map((v) => `"${md(v)}"`).join(' or ')}`);
  const groups = left.filter((l) => l.groups === true).map((l) => `${l.values.slice(0, 3).map((v) => `"${md(v)}"`).join(', ')}${l.values.length > 3 ? ` and ${l.values.length - 3} more` : ''} in ${code(l.column.name)} are groups of nations, not single nations`);
  const missing = left.filter((l) => l.missing === true).map((l) => code(l.column.name));
  return [
    ...(totals.length > 0 ? [`_Rows where ${totals.join(', or ')} hold the sum of the others: they are left out._`] : []),
    ...(missing.length > 0 ? [`_Rows with no ${missing.join(' or ')} are left out of the ranking._`] : []),
    ...groups.map((g) => `_Rows where ${g}: they are left out._`),
  ].join('\n\n');
}
