/** Helpers the case modules share to compute expected answers without resting on ties. */
import { aggregate, topKeys } from '../expect';

/** The row with the largest (or smallest) value, missing values left out; throws on a tie at the extreme, so no case rests on one. */
export function extreme<T>(rows: readonly T[], value: (r: T) => number | null, dir: 'max' | 'min' = 'max'): { row: T; value: number } {
  const present = rows.filter((r) => { const v = value(r); return v !== null && Number.isFinite(v); });
  if (present.length === 0) throw new Error('no rows');
  const best = aggregate(present.map(value), dir);
  const hits = present.filter((r) => value(r) === best);
  if (hits.length !== 1 || hits[0] === undefined) throw new Error(`tie at the ${dir} (${hits.length} rows)`);
  return { row: hits[0], value: best };
}

/** topKeys, but throws when the n-th and (n+1)-th groups tie. */
export function topStrict(groups: Record<string, number>, n: number, dir: 'desc' | 'asc' = 'desc'): string[] {
  const all = topKeys(groups, n + 1, dir);
  const last = all[n - 1];
  const next = all[n];
  if (last !== undefined && next !== undefined && groups[last] === groups[next]) throw new Error(`tie at the cut: ${last} / ${next}`);
  return all.slice(0, n);
}

/** The one row matching a predicate; throws unless exactly one matches. */
export function only<T>(rows: readonly T[], pred: (r: T) => boolean): T {
  const hits = rows.filter(pred);
  if (hits.length !== 1) throw new Error(`expected one row, found ${hits.length}`);
  return hits[0] as T;
}
