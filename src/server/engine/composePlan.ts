/**
 * The plan a finished draft makes: figures (an aggregate, with its ranking, share or comparison)
 * or rows (ranked, searched or listed). Split from composeFinish.ts, which places the question's
 * parts on the draft and checks the plan.
 */
import type { Part } from './parts';
import { isChangeOfAmount } from '../language/concepts';
import type { Draft } from './composeFinish';
import type { Ranking } from './composeRanking';
import { dateColumnOf, frequencyWeight, isIdLike, isPercent } from './shape';
import type { AggregatePlan, ColRef, Dim, Filter, Grain, Measure, Plan, RowsPlan } from './types';

function rowsPlan(d: Draft, rank: Ranking | undefined, show: ColRef | undefined, orderCol: ColRef | undefined): RowsPlan {
  const table = d.rowsTable ?? d.table;
  const plan: RowsPlan = { kind: 'rows', table, filters: d.filters, limit: rank?.n ?? d.rowsPart?.n ?? (orderCol !== undefined ? 1 : 20), chart: d.chart };
  if (show !== undefined && show.table === table) plan.show = [show];
  if (orderCol !== undefined) plan.orderBy = { col: orderCol, dir: rank?.dir ?? 'desc' };
  return plan;
}

export function planOf(d: Draft, rank: Ranking | undefined, show: ColRef | undefined, live: readonly Part[]): Plan | string {
  const table = d.table;
  // The most common value of a column: its values counted, the first one.
  if (rank?.mode !== undefined) {
    const col = rank.mode;
    // (In a table of counts the commonest value has the most counted, not the most rows.)
    const weight = frequencyWeight(col.table);
    const plan: AggregatePlan = { kind: 'aggregate', base: col.table, measures: [weight !== undefined && weight.column !== col.column ? { agg: 'sum', col: weight } : { agg: 'count' }], dims: [{ col }], filters: [...d.filters, { kind: 'null', col, isNull: false }], order: rank.dir, limit: 1, chart: d.chart };
    return plan;
  }
  // (A search of a text column, "name contains cat", lists what it finds.)
  const listing = d.listing === true || d.rowsPart !== undefined || d.filters.some((f) => f.kind === 'contains' && !f.negate);
  // Rows ranked by a column: "the heaviest car", "top 5 orders by revenue", "when was X highest".
  if (rank !== undefined && d.dims.length === 0 && d.measures.length === 0 && d.share === undefined) {
    const byRow = rank.by?.col !== undefined && rank.by.agg !== 'count' && !(rank.plain && !rank.rows && show === undefined);
    const date = rank.dateOrder && rank.by === undefined ? dateColumnOf(d.rowsTable ?? table) : undefined;
    if (rank.by?.col !== undefined && rank.by.col.column.nonNull === 0) return `${rank.by.col.column.name} is empty in every row: there is nothing to rank`;
    if (byRow || date !== undefined) return rowsPlan(d, rank, show, rank.by?.col ?? date);
    if (rank.by?.col !== undefined) {
      const agg = rank.dir === 'desc' ? 'max' : 'min';
      return { kind: 'aggregate', base: rank.by.col.table, measures: [{ agg, col: rank.by.col }], dims: [], filters: d.filters, chart: d.chart };
    }
  }
  if (d.measures.length === 0 && rank?.by === undefined) {
    if (d.share === undefined && (show !== undefined || rank?.rows === true || (listing && d.dims.length === 0 && d.countPart === undefined))) return rowsPlan(d, rank, show, undefined);
    if (d.dims.length === 0 && d.share === undefined && d.countPart === undefined) return 'the question does not say what to count or measure';
    d.measures.push({ agg: 'count' });
  }
  const missing = d.filters[0];
  if (d.countPart !== undefined && d.filters.length === 1 && missing?.kind === 'null' && missing.isNull && d.dims.length === 0 && rank === undefined && d.measures.length === 1) {
    // "how many people have a missing email": the missing values of that column, counted (placeholders too).
    return { kind: 'missing', table: missing.col.table, col: missing.col, chart: d.chart };
  }
  const measures = [...d.measures];
  if (rank?.by !== undefined && !measures.some((m) => m.agg === rank?.by?.agg && m.col?.column === rank?.by?.col?.column)) measures.unshift(rank.by);
  const base = d.rowsTable ?? measures.find((m) => m.col !== undefined)?.col?.table ?? table;
  // A table of counts: people are counted by adding up the counts, not the rows.
  const weight = frequencyWeight(base);
  const rowsSaid = live.some((p) => (p.k === 'rows' && p.rows.alts.some((a) => a.generic === true))
    || (p.k === 'count' && p.target !== undefined && !Array.isArray(p.target) && typeof p.target === 'object' && p.target.alts.some((a) => 'generic' in a && a.generic === true)));
  if (weight !== undefined && !rowsSaid) {
    measures.forEach((m, i) => {
      if (m.agg === 'count' && m.col === undefined) measures[i] = { agg: 'sum', col: weight };
    });
  }
  // "how many hours" over a column of days counts each day as one hour: the day and time together
  // (`date_time`, made of `date` and `time`) tell hours apart; without a time there is no answer.
  const inHours = <X extends { col?: ColRef; grain?: Grain }>(x: X): X | string => {
    if ((x.grain !== 'hour' && x.grain !== 'hourOfDay') || x.col === undefined || !/^DATE$/i.test(x.col.column.type.trim())) return x;
    const { table, column } = x.col;
    const moment = table.columns.find((c) => c.type === 'TIMESTAMP' && (c.derived ?? []).includes(column.name));
    return moment !== undefined ? { ...x, col: { table, column: moment } } : `${column.name} holds days, not times: it cannot tell hours apart`;
  };
  const timed = [...measures.map(inHours), ...d.dims.map(inHours)];
  // "which state had the highest per capita income" naming a column that holds one code (400) on
  // every row: its one value would be named the winner of a ranking of nothing.
  const constant = rank !== undefined ? d.dims.find((x) => x.grain === undefined && x.col.column.distinct === 1 && x.col.table.rowCount > 1) : undefined;
  if (constant !== undefined) return `${constant.col.column.name} holds one value on every row: there is nothing to rank`;
  const noTime = timed.find((x): x is string => typeof x === 'string');
  if (noTime !== undefined) return noTime;
  measures.splice(0, measures.length, ...(timed.slice(0, measures.length) as Measure[]));
  const dims = timed.slice(measures.length) as Dim[];
  for (const m of measures) {
    if (m.col !== undefined && (m.agg === 'sum' || m.agg === 'avg' || m.agg === 'median') && isIdLike(m.col.column) && m.col.column !== weight?.column) {
      return `${m.col.column.name} identifies rows; adding it up or averaging it means nothing`;
    }
    if (m.col !== undefined && m.col.column.nonNull === 0) return `${m.col.column.name} is empty in every row: there is no number to give`;
  }
  // "how many employees does General Electric have": General Electric is one row of `name`; its
  // count of rows is 1 whatever was asked, so the question wants a number the table does not hold.
  const one = d.filters.find((f) => f.kind === 'in' && !f.negate && f.values.length === 1 && f.col.column.unique);
  if (one !== undefined && !rowsSaid && d.dims.length === 0 && measures.length === 1 && measures[0]?.agg === 'count' && measures[0].col === undefined) {
    return `each ${one.col.column.name} is one row: there is nothing to count for ${(one as { values: string[] }).values[0]}`;
  }
  const plan: AggregatePlan = { kind: 'aggregate', base, measures, dims: dedupeDims(dims).slice(0, 3), filters: d.filters, chart: d.chart };
  if (d.perBucket !== undefined) {
    if (plan.dims.length > 0 || plan.measures.length !== 1 || rank !== undefined) return 'an average of totals per period is one number, and the question asks for more';
    plan.perBucket = d.perBucket;
  }
  if (rank !== undefined && plan.dims.length > 0) {
    plan.order = rank.dir;
    plan.limit = rank.n ?? 1;
    // "which food has the most protein" over a name per row (two foods happen to share one): each
    // row's own figure ranks, never the two added together.
    const label = plan.dims[0]?.col.column;
    const first = plan.measures[0];
    if (plan.dims.length === 1 && label?.kind === 'text' && label.distinct >= 0.9 * label.nonNull && label.distinct < label.nonNull && rank.explicitAgg !== true && first?.agg === 'sum' && first.col !== undefined && plan.measures.length === 1) {
      plan.measures[0] = { agg: rank.dir === 'desc' ? 'max' : 'min', col: first.col };
    }
    if (rank.grouped === true && rank.explicitAgg === true && !rank.plain && d.which === undefined && rank.n === undefined) {
      // "highest average revenue by region": every region, highest average first.
      delete plan.limit;
    } else if ((rank.plain || rank.grouped === true) && rank.by?.col !== undefined && d.which === undefined && d.ranks[0]?.k === 'rank') {
      // "peak temperature by site": the highest reading of each site, not a ranking of sites.
      delete plan.limit;
      delete plan.order;
      plan.measures[0] = { agg: rank.dir === 'desc' ? 'max' : 'min', col: rank.by.col as ColRef };
    }
  } else if (rank !== undefined && plan.dims.length === 0) {
    if (rank.by?.col !== undefined && plan.measures.length === 1) plan.measures[0] = { agg: rank.dir === 'desc' ? 'max' : 'min', col: rank.by.col };
    else return 'a ranking needs groups or rows to rank';
  } else if (plan.dims.length > 0 && plan.dims.every((x) => x.grain === undefined)) plan.order = d.order?.dir ?? 'desc';
  if (d.order?.dir !== undefined && plan.dims.length > 0) plan.order = d.order.dir;
  // "average catholic share" over a column of percentages: the column is the share.
  // (Whole numbers up to 100 with no such name are as likely counts: "China's share of all golds".)
  const ofPercents = plan.measures.length > 0 && plan.measures.every((m) => m.col !== undefined && isPercent(m.col.column) && (/(percent|pct|rate|share|ratio|fraction|prop)/i.test(m.col.column.name) || !/INT/i.test(m.col.column.type)));
  if (d.rateOf !== undefined) {
    // A rate of a yes/no column: the rows where it holds, as a share of the rows the other conditions keep.
    const rateOf = d.rateOf;
    plan.filters.push({ kind: 'bool', col: rateOf, value: true });
    plan.shareOfFiltered = true;
    const whole = plan.filters.map((f, i) => (f.col.column === rateOf.column || f.kind === 'dateRange' || f.kind === 'datePart' ? -1 : i)).filter((i) => i >= 0);
    if (whole.length > 0) plan.shareScope = whole;
  } else if (d.share !== undefined && !ofPercents) {
    // "by how much % did the population grow between 1960 and 2019": a change, not a share of a whole.
    if ((d.tokens ?? []).some((t) => isChangeOfAmount(t.lemma, t.pos))) return 'a change between two times is no share of a whole, and I do not compute changes in percent';
    // A share of averages or extremes adds up nothing: "percent change of co2" is not a share.
    if (plan.measures.some((m) => m.agg !== 'sum' && m.agg !== 'count' && m.agg !== 'count_distinct')) return 'a share of something that does not add up';
    if (plan.dims.length > 0 && d.within === true) {
      if (plan.filters.every((f) => f.kind === 'dateRange' || f.kind === 'datePart')) return 'a share within each group needs a condition ("share of rows where ... within each ...")';
      plan.shareOfFiltered = true;
    } else if (plan.dims.length > 0) plan.share = true;
    else if (plan.filters.length > 0) {
      plan.shareOfFiltered = true;
      const scope = shareScope(d, live);
      if (scope.length > 0 && scope.length < plan.filters.filter((f) => f.kind !== 'dateRange' && f.kind !== 'datePart').length) plan.shareScope = scope;
    }
    else return 'a share needs groups ("by channel") or a condition ("online orders")';
  }
  // A share inside each group is told for every group, in the groups' order.
  if (plan.shareOfFiltered === true && plan.dims.length > 0) {
    delete plan.order;
    delete plan.limit;
  }
  if (d.compare !== undefined && d.compare.how !== 'compare' && d.compare.how !== 'vs') {
    const dim = plan.dims[0];
    const named = plan.filters.find((f): f is Extract<Filter, { kind: 'in' }> => f.kind === 'in' && !f.negate && dim !== undefined && f.col.column === dim.col.column);
    if (plan.dims.length !== 1 || named?.values.length !== 2 || plan.measures.length !== 1) return 'a ratio or difference is computed between two named groups ("ratio of sales of A to B")';
    plan.contrast = { kind: d.compare.how === 'ratio' ? 'ratio' : 'difference', first: named.values[0] as string, second: named.values[1] as string };
  }
  // "great britain vs germany" with nothing measured, one row each: their rows, not a count of 1 each.
  const only = plan.dims[0];
  if (plan.dims.length === 1 && only !== undefined && only.grain === undefined && only.col.column.unique && plan.measures.length === 1 && plan.measures[0]?.agg === 'count'
    && plan.measures[0].col === undefined && plan.share !== true && plan.contrast === undefined && plan.limit === undefined && plan.shareOfFiltered !== true) {
    // (Also "assignments with huawei in the name" grouped by the unique `Assignment`: a count of 1 each is a list.)
    return { kind: 'rows', table: plan.base, filters: plan.filters, limit: 20, chart: plan.chart };
  }
  return plan;
}

/**
 * "what percentage of manufacturing workers are union members": conditions between the share word
 * and the first verb describe the whole the share is of; those after it, the part.
 */
function shareScope(d: Draft, live: readonly Part[]): number[] {
  const share = d.share;
  if (share === undefined) return [];
  const tokens = d.tokens ?? [];
  // The writer's form says the whole after "among": "share of rows where `union` = 1 among rows where `sector` is ...".
  const among = tokens.findIndex((t, i) => i >= share.to && t.norm === 'among');
  const verb = among >= 0 ? tokens.length : tokens.findIndex((t, i) => i >= share.to && (t.pos === 'AUX' || t.pos === 'VERB'));
  if (verb < 0) return [];
  const kinds = new Set(['val', 'col', 'rows', 'count', ...(among >= 0 ? ['cmp', 'null', 'bool'] : [])]);
  const spans = live.filter((p) => p.from >= (among >= 0 ? among : share.to) && p.to <= verb && kinds.has(p.k));
  const out: number[] = [];
  d.filters.forEach((f, i) => {
    const named = spans.some((p) => JSON.stringify(p, (k, v: unknown) => (k === 'table' ? undefined : k === 'ref' ? (v as ColRef).column.name : v)).includes(`"${f.col.column.name}"`));
    if (named && f.kind !== 'dateRange' && f.kind !== 'datePart') out.push(i);
  });
  return out;
}

export function dedupeDims(dims: readonly Dim[]): Dim[] {
  const out: Dim[] = [];
  for (const x of dims) if (!out.some((y) => y.col.column === x.col.column && y.grain === x.grain)) out.push(x);
  return out;
}
