/**
 * Answers that are rows, not figures: "the 5 most recent orders", "cars with more than 200 hp",
 * and the row behind an extreme when its date or person is asked ("max price and when").
 */
import { checkJoins, unanswerable, type Parts } from './planKit';
import { dateColumn, pickColumn, type Parse } from './roles';
import type { ColRef, Filter, Plan, TableMeta, Understanding } from './types';

/** A row count written in a listing: "show 10 rows", "10 sample rows". */
function listedCount(p: Parse): number | undefined {
  const t = p.tokens.find((x, i) => x.kind === 'number' && !x.yearLike && !p.used.has(i) && Number.isInteger(x.value) && (x.value ?? 0) >= 1 && (x.value ?? 0) <= 1000);
  return t?.value;
}

/**
 * "max price and when", "max wage and who earns it": the date or the person of the extreme is asked
 * too, which one figure would drop. Read as the row holding the extreme (its columns say when and
 * who); another figure with "and when" is refused. ("average price when discount > 0" is a
 * condition: untouched.)
 */
export function askedWhen(p: Parse, parts: Parts, u: Understanding): Understanding {
  if (u.kind !== 'aggregate' || u.dims.length > 0) return u;
  const asked = p.tokens.find((t, i) => (t.norm === 'when' || t.norm === 'who') && (p.tokens[i - 1]?.norm === 'and' || i === p.tokens.length - 1));
  if (asked === undefined) return u;
  const m = u.measures[0];
  if (u.measures.length === 1 && m !== undefined && (m.agg === 'max' || m.agg === 'min') && m.col !== undefined && m.col.table === u.base) {
    return rowsPlan(p, u.base, u.filters, parts, 1, { col: m.col, dir: m.agg === 'max' ? 'desc' : 'asc' });
  }
  return unanswerable(`"${asked.raw}" asks for the row behind the figure, which one figure does not give; ask for the values per group or per day, month or year instead`, [asked.raw]);
}

export function rowsPlan(p: Parse, table: TableMeta | undefined, filters: Filter[], parts: Parts, n?: number, orderBy?: { col: ColRef; dir: 'desc' | 'asc' }): Understanding {
  if (!table) return unanswerable('no table is selected');
  const plan: Plan = { kind: 'rows', table, filters, limit: Math.min(n ?? listedCount(p) ?? 20, 1000), chart: parts.chart };
  // Columns the question names but nothing else uses are what it wants to see ("the manager of ...").
  const show = p.spans.flatMap((s) => (s.kind === 'column' && !p.taken.has(s) ? [pickColumn(s, 'dim', table)].filter((c): c is ColRef => c !== undefined && c.table === table) : []));
  if (show.length > 0) plan.show = show;
  if (orderBy) plan.orderBy = orderBy;
  else {
    // "the 5 most recent orders", "the oldest entries": order by the date.
    const recent = p.tokens.some((t) => /^(recent|latest|newest|last)$/.test(t.norm));
    const oldest = p.tokens.some((t) => /^(oldest|earliest|first)$/.test(t.norm));
    const date = recent || oldest ? dateColumn(p, table) : undefined;
    if (date && date.table === table) plan.orderBy = { col: date, dir: recent ? 'desc' : 'asc' };
  }
  return checkJoins(plan);
}
