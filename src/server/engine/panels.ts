/**
 * A panel holds one row per thing and period (a region's birth rate for each year). "Which region
 * has the highest birth rate" names no year: each year has its own leader, and an average or a
 * total over the years is one of several answers, not the answer. Unless the question says how to
 * combine the years ("average", "total", "ever"), the latest year is offered beside the reading
 * over all years, and the engine asks which is meant when their answers differ.
 * Tables with many rows per thing and period (sales), and counts or amounts, add up over time: not
 * panels of levels.
 */
import type { Tok } from '../language/tokens';
import { dateColumnOf, timeNamed, yearColumnOf } from './shape';
import type { ColRef, Plan } from './types';

/** Words that say how the periods combine. */
const COMBINED = /^(average|averages|avg|mean|means|total|totals|sum|sums|median|overall|combined|altogether|cumulative|cumulatively|ever|across|typical|typically|all)$/;

/**
 * The plan over the latest period, when `plan` ranks or sums a panel's things over all its periods
 * without the question saying how to combine them: offered beside it, so the engine asks when the
 * two answers differ. Undefined when the plan is not such a plan.
 */
export function latestPeriodPlan(plan: Plan, tokens: readonly Tok[]): Plan | undefined {
  if (plan.kind !== 'aggregate' || plan.measures.length === 0 || plan.perBucket !== undefined || plan.share === true || plan.shareOfFiltered === true) return undefined;
  if (tokens.some((t) => COMBINED.test(t.norm))) return undefined;
  const timed = (c: ColRef): boolean => c.column.kind === 'temporal' || timeNamed(c.column);
  if (plan.dims.some((d) => d.grain !== undefined || timed(d.col)) || plan.filters.some((f) => f.kind === 'dateRange' || f.kind === 'datePart' || f.kind === 'periods' || timed(f.col))) return undefined;
  // Levels (rates, prices, scores) only: counts and amounts add up over the years ("babies named Emma").
  const measured = plan.measures.flatMap((m) => (m.col !== undefined && (m.agg === 'avg' || m.agg === 'median') ? [m.col] : []));
  const first = measured[0];
  if (first === undefined || measured.length !== plan.measures.length) return undefined;
  const t = plan.base;
  const date = dateColumnOf(t);
  const year = yearColumnOf(t)?.column ?? date?.column;
  if (date === undefined || year === undefined || year.distinct < 2) return undefined;
  // The thing each row is about: a grouping, or a column filtered to one value.
  const one = plan.filters.find((f) => f.kind === 'in' && !f.negate && f.values.length === 1);
  const entity = plan.dims[0]?.col ?? one?.col;
  if (entity === undefined || entity.table !== t || entity.column.distinct < 2) return undefined;
  // A measure of a long table counts only its own rows (one key value among several).
  const key = first.column.keyedBy !== undefined ? t.columns.find((c) => c.name === first.column.keyedBy?.key) : undefined;
  const rows = t.rowCount / Math.max(1, key?.distinct ?? 1);
  // A full grid (each thing in every period), so the latest period holds every thing, not a straggler.
  const cells = entity.column.distinct * year.distinct;
  if (rows > cells * 1.05 || rows < cells * 0.9) return undefined;
  const latest = Number(typeof date.column.max === 'string' ? date.column.max.slice(0, 4) : NaN);
  if (!Number.isInteger(latest)) return undefined;
  return { ...plan, filters: [...plan.filters, { kind: 'dateRange', col: date, from: `${latest}-01-01`, to: `${latest + 1}-01-01`, label: String(latest) }] };
}
