/**
 * How two tables of a question connect: a column both share by name (`customer_id` in orders and
 * customers), or a table's `id` named after it in the other (`customers.id` <- `orders.customer_id`).
 * Only keys unique on the looked-up side are used, so a join never multiplies the measured rows.
 */
import { identifierWords, stem } from './text';
import type { ColumnMeta, TableMeta } from './types';

export interface JoinKey {
  /** Column of the measured (fact) table. */
  left: ColumnMeta;
  /** Column of the looked-up table; unique there. */
  right: ColumnMeta;
}

const KEYISH = /(^|[^a-z])(id|key|code|no|number|uuid|sku)$/i;

/** The join key from `fact` to `dim`, or undefined when they share none that is safe. */
export function joinKey(fact: TableMeta, dim: TableMeta): JoinKey | undefined {
  const candidates: Array<JoinKey & { rank: number }> = [];
  for (const r of dim.columns) {
    if (!r.unique) continue;
    for (const l of fact.columns) {
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
