/**
 * How two tables of a question connect: a column both share by name (`customer_id` in orders and
 * customers), a table's `id` named after it in the other (`customers.id` <- `orders.customer_id`),
 * or, when no name connects them, columns whose values overlap (`Store Code` in one file and
 * `shop_ref` in the other). Only keys unique on the looked-up side are used, so a join never multiplies
 * the measured rows.
 */
import { identifierWords, singular as stem } from '../language/words';
import type { ColumnMeta, TableMeta } from './types';

export interface JoinKey {
  /** Column of the measured (fact) table. */
  left: ColumnMeta;
  /** Column of the looked-up table; unique there. */
  right: ColumnMeta;
  /**
   * Found by values, not names: rows of the measured table whose key has no match are left out
   * (an inner join), and the answer says how many distinct keys matched.
   */
  byValue?: { matched: number; unmatched: number };
}

const KEYISH = /(^|[^a-z])(id|key|code|no|number|uuid|sku)$/i;
/** Share of the measured column's distinct values that must occur in the looked-up column. */
const MIN_OVERLAP = 0.6;
const MIN_SHARED = 3;

function byName(fact: TableMeta, dim: TableMeta): JoinKey | undefined {
  const candidates: Array<JoinKey & { rank: number }> = [];
  for (const r of dim.columns) {
    if (!r.unique || r.derived !== undefined) continue;
    for (const l of fact.columns) {
      if (l.derived !== undefined) continue;
      const same = l.name.trim().toLowerCase() === r.name.trim().toLowerCase();
      // orders.customer_id -> customers.id
      const dimWords = dim.tokens.map(stem);
      const lw = identifierWords(l.name).map(stem);
      const named = /^id$/i.test(r.name.trim()) && lw.length >= 2 && lw[lw.length - 1] === 'id' && dimWords.includes(lw[lw.length - 2] ?? '');
      if (!same && !named) continue;
      if (l.kind !== r.kind && !(l.kind === 'text' || r.kind === 'text')) continue;
      candidates.push({ left: l, right: r, rank: (KEYISH.test(r.name) ? 2 : 0) + (same ? 1 : 0) });
    }
  }
  candidates.sort((a, b) => b.rank - a.rank);
  const best = candidates[0];
  return best ? { left: best.left, right: best.right } : undefined;
}

/** Text columns whose values mostly occur in a unique column of the other table. */
function byValues(fact: TableMeta, dim: TableMeta): JoinKey | undefined {
  let best: (JoinKey & { share: number }) | undefined;
  for (const r of dim.columns) {
    if (!r.unique || r.kind !== 'text' || r.values === undefined || r.derived !== undefined) continue;
    const theirs = new Set(r.values);
    for (const l of fact.columns) {
      if (l.kind !== 'text' || l.values === undefined || l.values.length < MIN_SHARED || l.derived !== undefined || l.listLike === true) continue;
      const matched = l.values.filter((v) => theirs.has(v)).length;
      const share = matched / l.values.length;
      if (matched < MIN_SHARED || share < MIN_OVERLAP) continue;
      if (best === undefined || share > best.share || (share === best.share && KEYISH.test(l.name))) {
        best = { left: l, right: r, share, byValue: { matched, unmatched: l.values.length - matched } };
      }
    }
  }
  if (best === undefined) return undefined;
  return { left: best.left, right: best.right, byValue: best.byValue ?? { matched: 0, unmatched: 0 } };
}

const cache = new WeakMap<TableMeta, WeakMap<TableMeta, JoinKey | null>>();

/** The join key from `fact` to `dim`, or undefined when they share none that is safe. */
export function joinKey(fact: TableMeta, dim: TableMeta): JoinKey | undefined {
  let row = cache.get(fact);
  if (row === undefined) {
    row = new WeakMap();
    cache.set(fact, row);
  }
  const hit = row.get(dim);
  if (hit !== undefined) return hit ?? undefined;
  const key = byName(fact, dim) ?? byValues(fact, dim);
  row.set(dim, key ?? null);
  return key;
}
