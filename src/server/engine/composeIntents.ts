/**
 * Questions about the data itself rather than a figure: the distribution of a column, how two
 * columns move together, missing values, duplicate rows, outliers, an overview.
 */
import { pickCol, type Chooser } from './choose';
import { cmpFilter, valFilters, whenFilters } from './composeFilters';
import type { Part } from './parts';
import { isIdLike, isNumeric } from './shape';
import type { ColRef, Filter, Plan, TableMeta } from './types';

export type IntentResult = { ok: true; plan: Plan } | { ok: false; why: string; parts: Part[] };

/** The filters of the parts that are filters, or why one cannot be placed. */
function filtersOf(parts: readonly Part[], table: TableMeta, ch: Chooser): { filters: Filter[]; used: Set<Part> } | { why: string; part: Part } {
  const filters: Filter[] = [];
  const used = new Set<Part>();
  for (const p of parts) {
    const r = p.k === 'val' ? valFilters(ch, p, false) : p.k === 'when' ? whenFilters(p.when, table) : p.k === 'cmp' ? cmpFilter(ch, p, table) : undefined;
    if (r === undefined) continue;
    if (typeof r === 'string') return { why: r, part: p };
    if ('kind' in r) filters.push(r);
    else filters.push(...r.filters);
    used.add(p);
  }
  return { filters, used };
}

/** The plan of an intent question, or undefined when the question has no intent word. */
export function composeIntent(parts: readonly Part[], table: TableMeta, ch: Chooser): IntentResult | undefined {
  const intentPart = parts.find((p): p is Extract<Part, { k: 'intent' }> => p.k === 'intent');
  if (intentPart === undefined) return undefined;
  const intent = intentPart.intent;
  // "distribution of revenue by region" is a grouped figure, not a histogram: left to the rest.
  if (intent === 'histogram' && parts.some((p) => p.k === 'group' || p.k === 'measure')) return undefined;
  const f = filtersOf(parts, table, ch);
  if ('why' in f) return { ok: false, why: f.why, parts: [f.part] };
  const cols: ColRef[] = [];
  const chart = parts.some((p) => p.k === 'chart' && p.wish === 'table') ? 'none' : 'auto';
  const leftover: Part[] = [];
  for (const p of parts) {
    if (p === intentPart || f.used.has(p) || p.k === 'filler' || p.k === 'chart' || (p.k === 'edit' && p.edit === 'list')) continue;
    const mentions = p.k === 'col' ? [p.col] : p.k === 'measure' ? p.cols : p.k === 'count' && p.target !== undefined && !Array.isArray(p.target) && typeof p.target === 'object' && 'alts' in p.target && p.target.alts.some((a) => 'ref' in a) ? [p.target as Extract<Part, { k: 'col' }>['col']] : undefined;
    if (mentions !== undefined) {
      for (const m of mentions) {
        const c = pickCol(ch, m, intent === 'missing' || intent === 'duplicates' ? 'any' : 'measure');
        if (c !== undefined) cols.push(c);
      }
      continue;
    }
    // "how many duplicates", "which columns have missing values", "of sales.csv": said of the rows or the table.
    const rowsOnly = (p.k === 'rows' && p.vals === undefined) || (p.k === 'count' && (p.target === undefined || (typeof p.target === 'object' && !Array.isArray(p.target) && p.target.alts.every((a) => !('ref' in a)))));
    if (rowsOnly || p.k === 'which' || p.k === 'intent' || p.k === 'compare' || (p.k === 'edit' && p.edit !== 'instead')) continue;
    leftover.push(p);
  }
  if (leftover.length > 0) return { ok: false, why: 'words no part of the reading uses', parts: leftover };
  const on = cols[0]?.table ?? table;
  // "how many readings were anomalies": anomalies named of counted rows are a label in the data, not outliers found.
  if (intent === 'outliers' && parts.some((p) => p.k === 'count') && parts.some((p) => (p.k === 'count' && p.target !== undefined) || p.k === 'rows' || p.k === 'col')) return { ok: false, why: 'anomalies as a property of rows are a label the data would have to hold', parts: [intentPart] };
  const numeric = cols.filter((c) => isNumeric(c.column));
  switch (intent) {
    case 'histogram': {
      const col = cols[0];
      if (col === undefined) return { ok: false, why: "the question does not say which column's distribution to show", parts: [intentPart] };
      if (isNumeric(col.column)) return { ok: true, plan: { kind: 'histogram', col, filters: f.filters, chart } };
      return { ok: true, plan: { kind: 'aggregate', base: col.table, measures: [{ agg: 'count' }], dims: [col.column.kind === 'temporal' ? { col, grain: 'month' } : { col }], filters: f.filters, chart, order: 'desc' } };
    }
    case 'correlation': {
      const [x, y] = numeric;
      if (x !== undefined && y !== undefined) return { ok: true, plan: { kind: 'correlation', x, y, filters: f.filters, chart } };
      if (x !== undefined) {
        const others = x.table.columns.filter((c) => isNumeric(c) && !isIdLike(c) && c !== x.column).map((column) => ({ table: x.table, column }));
        if (others.length > 0) return { ok: true, plan: { kind: 'correlationScan', target: x, others, filters: f.filters, chart } };
      }
      return { ok: false, why: 'a correlation needs two numeric columns, and the question names fewer', parts: [intentPart] };
    }
    case 'missing': {
      const col = cols[0];
      return { ok: true, plan: col !== undefined ? { kind: 'missing', table: col.table, col, chart } : { kind: 'missing', table: on, chart } };
    }
    case 'duplicates':
      return { ok: true, plan: { kind: 'duplicates', table: on, cols: cols.filter((c) => c.table === on), chart } };
    case 'outliers': {
      const all = on.columns.filter((c) => isNumeric(c) && !isIdLike(c)).map((column) => ({ table: on, column }));
      return { ok: true, plan: { kind: 'outliers', table: on, cols: numeric.length > 0 ? numeric : all, filters: f.filters, chart } };
    }
    case 'overview':
      if (cols.length > 0 || f.filters.length > 0) return { ok: false, why: 'an overview is of whole tables', parts: [intentPart] };
      return { ok: true, plan: { kind: 'overview', tables: parts.some((p) => p.k === 'rows') ? [on] : [table], chart } };
  }
}
