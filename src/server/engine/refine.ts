/**
 * Follow-up questions change the previous plan instead of starting over: "and the lowest?" turns
 * the ranking round, "by month instead" replaces the grouping, "what about Asia?" swaps a value,
 * "only online" adds a filter and keeps the others, "top 3" re-ranks, "as a table" drops the chart.
 */
import { pickCol, type Chooser } from './choose';
import type { Composition } from './compose';
import { dimOf } from './compose';
import { cmpFilter, valFilters, whenFilters } from './composeFilters';
import type { Part } from './parts';
import { defaultAgg, frequencyWeight, isFlag, isNumeric } from './shape';
import type { Dim, Filter, Plan, TableMeta, ColRef } from './types';
import { placesOfValue } from '../language/places';

/** Words that make a question a change to the previous one. */
export function looksLikeFollowUp(parts: readonly Part[], question: string): boolean {
  if (/^\s*(and|now|also|what about|how about|only|just|same|but|then|ok|okay|instead|except|excluding|without)\b/i.test(question)) return true;
  if (parts.some((p) => p.k === 'edit' && p.edit !== 'list')) return true;
  return /\b(those|these|them|their|they|it|same)\b/i.test(question) || question.trim().split(/\s+/).length <= 3;
}

const sameColumn = (a: Filter, b: Filter): boolean => a.col.column === b.col.column;
/** "and japan?" after "us employment": a place in `isocode` replaces a place in `country` (both name nations). */
const samePlaces = (a: Filter, b: Filter): boolean => a.kind === 'in' && b.kind === 'in' && !a.negate && !b.negate && a.col.table === b.col.table
  && [...a.values, ...b.values].every((v) => placesOfValue(v).length > 0);

/** The previous plan changed by the follow-up's parts, or why a part cannot change it. */
export function refine(prev: Plan, parts: readonly Part[], ch: Chooser, question = ''): Composition {
  const fail = (why: string, ps: Part[] = []): Composition => ({ ok: false, why, words: ps.map((p) => `${p.from}:${p.to}`), cost: ch.cost });
  const live = parts.filter((p) => p.k !== 'filler');
  if (live.some((p) => p.k === 'unknown')) return fail('unknown words', live.filter((p) => p.k === 'unknown'));
  // "how many of them died": a verb ending the follow-up is a condition the data must hold.
  const predicate = parts.find((p) => p.k === 'filler' && p.predicate === true);
  if (predicate !== undefined && live.some((p) => p.k === 'count')) return fail('a verb the data holds nothing about', [predicate]);
  if (prev.kind !== 'aggregate' && prev.kind !== 'rows' && prev.kind !== 'histogram' && prev.kind !== 'correlation' && prev.kind !== 'outliers') return fail('nothing to refine');
  const table: TableMeta = prev.kind === 'aggregate' ? prev.base : prev.kind === 'rows' ? prev.table : prev.kind === 'histogram' ? prev.col.table : prev.kind === 'correlation' ? prev.x.table : prev.table;
  ch.prefer = table;
  let filters: Filter[] = [...prev.filters];
  const add = (fs: readonly Filter[]): void => {
    filters = [...filters.filter((f) => !fs.some((n) => sameColumn(f, n) || samePlaces(f, n))), ...fs];
  };
  const additive = live.some((p) => p.k === 'edit' && p.edit === 'also') || /^\s*(and|also|plus)\b/i.test(question);
  const instead = live.some((p) => p.k === 'edit' && p.edit === 'instead');
  let dims: Dim[] | undefined;
  let changed = false;
  // "titles released in 2021", then "by month": the listed rows, counted per month (still in 2021).
  const regroup = prev.kind === 'rows' && live.some((p) => p.k === 'group') && !live.some((p) => p.k === 'rank' || p.k === 'top' || p.k === 'order');
  const weight = frequencyWeight(table);
  const plan: Plan = regroup
    ? { kind: 'aggregate', base: table, measures: [weight !== undefined ? { agg: 'sum', col: weight } : { agg: 'count' }], dims: [], filters: prev.filters, chart: 'auto' }
    : { ...prev } as Plan;
  for (const p of live) {
    if (p.k === 'val' || ((p.k === 'rows' || p.k === 'count') && p.vals !== undefined)) {
      const r = valFilters(ch, p.k === 'val' ? p : { k: 'val', vals: p.vals ?? [], from: p.from, to: p.to, cost: 0 }, false);
      if (typeof r === 'string') return fail(r, [p]);
      add(r.filters);
    } else if (p.k === 'cmp') {
      const f = cmpFilter(ch, p, table);
      if (typeof f === 'string') return fail(f, [p]);
      add([f]);
    } else if (p.k === 'when') {
      const r = whenFilters(p.when, table);
      if (typeof r === 'string') return fail(r, [p]);
      // A new time replaces the old one, whichever column it was on.
      filters = filters.filter((f) => f.kind !== 'dateRange' && f.kind !== 'datePart' && f.kind !== 'periods' && !(f.col.column.name.match(/year/i) && f.kind !== 'in'));
      add(r.filters);
    } else if (p.k === 'edit' && p.edit === 'all') {
      filters = filters.filter((f) => f.kind !== 'dateRange' && f.kind !== 'datePart' && f.kind !== 'periods');
    } else if (p.k === 'edit' && p.edit === 'clear') {
      filters = [];
    } else if (p.k === 'group' && plan.kind === 'aggregate') {
      const got: Dim[] = [];
      for (const s of p.dims) {
        const d = dimOf(ch, s, table);
        if (typeof d === 'string') return fail(d === 'rows' ? 'per row' : d, [p]);
        got.push(d);
      }
      dims = additive ? [...plan.dims, ...got] : instead || plan.dims.length <= 1 ? got : [...plan.dims, ...got];
    } else if (p.k === 'rank' && plan.kind === 'aggregate' && p.cols === undefined && p.rows === undefined && p.attr === undefined) {
      plan.order = p.dir;
      plan.limit ??= 1;
    } else if (p.k === 'rank' && plan.kind === 'rows' && plan.orderBy !== undefined && p.cols === undefined) {
      // "and the youngest?" after "the oldest patient": the adjective's own column and direction
      // ("young" runs down `age`).
      const attr = p.attr?.alts.slice().sort((a, b) => a.cost - b.cost)[0];
      const dir = attr?.dir === 'asc' ? (p.dir === 'desc' ? 'asc' : 'desc') : p.dir;
      plan.orderBy = { col: attr?.ref ?? plan.orderBy.col, dir };
    } else if (p.k === 'top' && p.dim === undefined && p.by === undefined && (plan.kind === 'aggregate' || plan.kind === 'rows')) {
      if (plan.kind === 'aggregate') plan.order = p.dir;
      else if (plan.orderBy !== undefined) plan.orderBy = { ...plan.orderBy, dir: p.dir };
      plan.limit = p.n;
    } else if (p.k === 'col' && p.col.alts.some((a) => isFlag(a.ref.column) && a.cost <= 1)) {
      // "same but only workers in the south" with a `south` yes/no column: a condition.
      const flag = p.col.alts.filter((a) => isFlag(a.ref.column)).sort((a, b) => a.cost - b.cost)[0] as (typeof p.col.alts)[number];
      const yes = (p.neg !== true) !== (flag.negated === true);
      add([flag.ref.column.kind === 'boolean' ? { kind: 'bool', col: flag.ref, value: yes } : { kind: 'cmp', col: flag.ref, op: '=', value: yes ? 1 : 0 }]);
    } else if (p.k === 'col' && plan.kind === 'aggregate' && p.col.alts.some((a) => plan.dims.some((d) => d.col.column === a.ref.column))) {
      // "which year was the lowest" after "average score by year": the grouping said again, not a new measure.
      continue;
    } else if ((p.k === 'measure' || p.k === 'col' || p.k === 'aggs') && plan.kind === 'aggregate') {
      const prior = plan.measures[0];
      const mention = p.k === 'measure' ? p.cols[0] : p.k === 'col' ? p.col : undefined;
      const col = mention !== undefined ? pickCol(ch, mention, 'measure') : prior?.col;
      if (col === undefined || !isNumeric(col.column)) return fail('no number to measure', [p]);
      const agg = p.k === 'col' ? (prior?.col !== undefined && prior.agg !== 'count_distinct' ? prior.agg : defaultAgg(col.column)) : p.aggs[0] ?? defaultAgg(col.column);
      plan.measures = [{ agg, col }, ...plan.measures.slice(1)];
    } else if (p.k === 'order' && (plan.kind === 'aggregate' || plan.kind === 'rows')) {
      // "sort by golds instead": the ranking's direction here; its column, if said, as a measure above.
      const col = p.col !== undefined ? pickCol(ch, p.col, 'measure') : undefined;
      if (plan.kind === 'aggregate') {
        plan.order = p.dir ?? 'desc';
        if (col !== undefined) plan.measures = [{ agg: plan.measures[0]?.col !== undefined ? plan.measures[0].agg : defaultAgg(col.column), col }, ...plan.measures.slice(1)];
      } else if (col !== undefined || plan.orderBy !== undefined) plan.orderBy = { col: col ?? (plan.orderBy as { col: ColRef }).col, dir: p.dir ?? 'desc' };
    } else if (p.k === 'count' && plan.kind === 'aggregate' && p.target === undefined) {
      plan.measures = [{ agg: 'count' }];
    } else if (p.k === 'chart') {
      plan.chart = p.wish === 'table' ? 'none' : p.wish === 'line' ? 'line' : p.wish === 'bar' ? 'bar' : 'auto';
    } else if (p.k === 'null') {
      const col = pickCol(ch, p.col, 'filter');
      if (col === undefined) return fail('no column', [p]);
      add([p.none === true ? { kind: 'none', col } : { kind: 'null', col, isNull: p.isNull }]);
    } else if (p.k === 'rows') {
      // "those who got a transplant": a noun for the rows changes nothing, and costs what reading it so costs
      // (the column of the same name is the likelier meaning).
      ch.cost += Math.min(...p.rows.alts.map((a) => a.cost));
    } else if (p.k === 'edit' || p.k === 'compare' || (p.k === 'count' && plan.kind === 'aggregate')) {
      // "same for", "what about", "how many of those": the words of a change, not a change themselves.
    } else return fail('a change I cannot make to the previous answer', [p]);
    changed = true;
  }
  if (!changed) return fail('nothing to change');
  if (plan.kind === 'aggregate' && dims !== undefined) {
    plan.dims = dims.slice(0, 3);
    if (!additive) {
      delete plan.limit;
      if (plan.dims.every((d) => d.grain !== undefined)) delete plan.order;
      else plan.order ??= 'desc';
    }
  }
  (plan as { filters: Filter[] }).filters = filters;
  if (plan.kind === 'aggregate' && prev.kind === 'aggregate' && prev.shareOfFiltered === true) {
    // "what % have a bmi above 30" then "same for sex 2 only": a condition added later narrows the
    // whole the share is of, not only its part.
    const whole = new Set((prev.shareScope ?? []).map((i) => prev.filters[i]));
    const scope = filters.map((f, i) => (whole.has(f) || !prev.filters.includes(f) ? i : -1)).filter((i) => i >= 0);
    if (scope.length > 0 && scope.length < filters.length) plan.shareScope = scope;
    else delete plan.shareScope;
  }
  return { ok: true, plan, cost: ch.cost };
}
