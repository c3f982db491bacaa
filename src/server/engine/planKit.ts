/**
 * Small pieces the plan builders share: refusals, intents, chart preference, aggregates of named
 * measures, time buckets, and the join check every plan passes before it runs.
 */
import type { Cue, Intent } from './cues';
import { joinKey } from './joins';
import { CHANGE_WORDS, defaultAgg, TIME_NAMED } from './lexicon';
import { dateColumn, frequencyWeight, mark, type Parse } from './roles';
import type { Agg, ChartPref, ColRef, ColumnMeta, Dim, Filter, Grain, Plan, TableMeta, Understanding } from './types';

export const unanswerable = (reason: string, unknown: string[] = []): Understanding => ({ kind: 'unanswerable', reason, unknown });

export function hasIntent(p: Parse, intent: Intent): boolean {
  return p.cues.some((c) => c.kind === 'intent' && c.intent === intent);
}

export function chartPref(p: Parse): ChartPref {
  if (hasIntent(p, 'asTable')) return 'none';
  if (hasIntent(p, 'asLine')) return 'line';
  if (hasIntent(p, 'asBar')) return 'bar';
  return 'auto';
}

const GRAIN_BY_SPAN = (min: string, max: string): Grain => {
  const days = (Date.parse(max.slice(0, 10)) - Date.parse(min.slice(0, 10))) / 86_400_000;
  if (!Number.isFinite(days) || days <= 3) return 'hour';
  if (days <= 62) return 'day';
  if (days <= 200) return 'week';
  if (days <= 6 * 366) return 'month';
  return 'year';
};

export function timeDim(p: Parse, prefer: TableMeta | undefined, grain: Grain | undefined): Dim | undefined {
  const col = dateColumn(p, prefer);
  if (!col) return undefined;
  for (const s of p.spans) if (s.kind === 'column' && s.cols.some((c) => c.column === col.column)) p.taken.add(s);
  const min = typeof col.column.min === 'string' ? col.column.min : '';
  const max = typeof col.column.max === 'string' ? col.column.max : '';
  let g = grain ?? GRAIN_BY_SPAN(min, max);
  if (g === 'hour' && !/TIMESTAMP/i.test(col.column.type) && !/%H/.test(col.column.expr)) g = 'day';
  return { col, grain: g };
}

/** Words saying a value is a rate or a level, which averages rather than adds up. */
const RATE_WORDS = /^(rate|rates|ratio|ratios|index|level|levels|score|scores)$/;

/** The aggregate a measure named at token `at` gets: the nearest cue before it, else the default. */
export function aggFor(p: Parse, at: number, column: string | ColumnMeta, dims: number, end?: number): Agg {
  let best: Agg | undefined;
  // "montant moyen": languages that put the aggregate after the noun.
  const after = end !== undefined ? p.cues.find((c) => c.kind === 'agg' && c.at === end && c.agg !== 'count') : undefined;
  if (after !== undefined && after.kind === 'agg' && !p.cues.some((c) => c.kind === 'agg' && c.end <= at)) return after.agg;
  const grouped = p.cues.some((c) => c.kind === 'group' || c.kind === 'grain');
  // "which sensor recorded the highest temperature": one reading, the highest of each group.
  const event = p.tokens.some((t) => /^(recorded|reached|hit|measured|logged|registered|peaked|saw|set|scored|posted)$/.test(t.norm));
  for (const c of p.cues) {
    if (c.end > at) break;
    if (c.kind === 'superlative' && event && dims > 0 && !p.cues.some((x) => x.kind === 'agg') && at - c.end <= 2) {
      best = c.dir === 'desc' ? 'max' : 'min';
      continue;
    }
    if (c.kind === 'agg') best = c.agg;
    // "highest price" alone is a maximum; "peak temperature by site" is a maximum per group.
    if (c.kind === 'superlative' && (dims === 0 || (grouped && at - c.end <= 1)) && at - c.end <= 2) best = c.dir === 'desc' ? 'max' : 'min';
  }
  // "crime rate by region", "price index per year": values that are rates or levels average.
  // ("crime rate" may be read whole as the mention of `Crime`: the word inside counts too.)
  if (best === undefined && end !== undefined) {
    const own = typeof column === 'string' ? [] : column.tokens;
    const rate = [end, ...Array.from({ length: Math.max(0, end - at) }, (_, k) => at + k)]
      .find((k) => RATE_WORDS.test(p.tokens[k]?.norm ?? '') && !own.includes(p.tokens[k]?.stem ?? ''));
    if (rate !== undefined) {
      mark(p, rate, rate + 1);
      return 'avg';
    }
  }
  return best ?? defaultAgg(column);
}

/** A superlative read as a per-group max/min ("peak temperature by site") is not a ranking. */
export function superlativeIsAggregate(p: Parse, sup: Extract<Cue, { kind: 'superlative' }>): boolean {
  const grouped = p.cues.some((c) => c.kind === 'group' || c.kind === 'grain');
  const next = p.spans.find((s) => s.start >= sup.end && s.start - sup.end <= 1);
  return grouped && next !== undefined && next.kind === 'column';
}

export interface Parts {
  filters: Filter[];
  dims: Dim[];
  rankBy: ColRef | undefined;
  chart: ChartPref;
  lost: string[];
}

export function tableSpan(p: Parse): TableMeta | undefined {
  const s = p.spans.find((x) => x.kind === 'table');
  return s?.kind === 'table' ? s.table : undefined;
}

/** Every column must be in the measured table or in one that joins to it by a safe key. */
export function checkJoins(plan: Plan): Understanding {
  const refs: ColRef[] = [];
  if (plan.kind === 'aggregate') {
    for (const m of plan.measures) if (m.col) refs.push(m.col);
    for (const d of plan.dims) refs.push(d.col);
  }
  if (plan.kind === 'aggregate' || plan.kind === 'rows') for (const f of plan.filters) refs.push(f.col);
  if (plan.kind === 'rows' && plan.orderBy) refs.push(plan.orderBy.col);
  let measured = plan.kind === 'rows' ? plan.table : plan.kind === 'aggregate' ? plan.base : undefined;
  if (!measured) return plan;
  // "average age by group" with age in people.csv and group in groups.csv (person -> name): the
  // table that points at the other is the one whose rows are counted.
  const others = [...new Set(refs.map((r) => r.table))].filter((t) => t !== measured);
  if (plan.kind === 'aggregate' && others.some((t) => measured !== undefined && !joinKey(measured, t))) {
    const fact = others.find((t) => [measured, ...others].every((o) => o === t || joinKey(t, o as TableMeta) !== undefined));
    if (fact !== undefined) {
      plan.base = fact;
      measured = fact;
    }
  }
  for (const r of refs) {
    if (r.table === measured) continue;
    if (!joinKey(measured, r.table)) {
      return unanswerable(`${r.column.name} is in ${r.table.label}, which shares no key column with ${measured.label}`);
    }
  }
  return plan;
}


/** Words between an aggregate and a change word that only say over which step ("average weekly change"). */
const GRAIN_ADJECTIVE = /^(daily|weekly|monthly|quarterly|yearly|annual|annually|hourly|day|week|month|year|over|the|a|an|overall|total|net)$/;

/**
 * "co2 change from 1960 to 2000" read as one figure over the whole range would be a total where a
 * difference was asked: a change needs values per time bucket (a trend) or a comparison, so a
 * single ungrouped aggregate is refused with what to ask instead.
 */
export function withoutUnaskedChange(p: Parse, u: Understanding): Understanding {
  if (u.kind !== 'aggregate') return u;
  // A word inside a column's or a value's name ("capital gain", "price change") is that name.
  const named = (i: number): boolean => p.spans.some((s) => s.start <= i && i < s.end);
  const at = p.tokens.findIndex((t, i) => t.kind === 'word' && CHANGE_WORDS.test(t.norm) && !named(i));
  const word = p.tokens[at];
  if (word === undefined) return u;
  // "average weekly change in price", "the biggest drop": a figure of the changes themselves, which
  // values per bucket (levels) do not give, grouped or not.
  const ofChanges = p.cues.some((c) => (c.kind === 'agg' || c.kind === 'superlative') && c.end <= at && p.tokens.slice(c.end, at).every((t) => GRAIN_ADJECTIVE.test(t.norm)));
  if (ofChanges) return unanswerable(`"${p.tokens.slice(p.cues.find((c) => c.end <= at && (c.kind === 'agg' || c.kind === 'superlative'))?.at ?? at, at + 1).map((t) => t.raw).join(' ')}" asks for a figure of the changes between values, which I do not compute yet; ask for the values per week or month to see how they moved`);
  if (u.dims.length > 0 || u.perBucket !== undefined) return u;
  return unanswerable(`"${word.raw}" asks how a value moved, which one figure over the whole range cannot show; ask for it per year or month (for example "average per year"), or compare two periods`);
}

/**
 * "the first week of 1980", "the last month of 1999": a position inside a named period. Dates read
 * "the first quarter of 2023" whole (Q1); anything else read part by part would filter the whole
 * year, or a week relative to the end of the data, and answer for the wrong days.
 */
export function positionInPeriod(p: Parse): string | undefined {
  // A date read with its preposition ("of 2019", "in march") starts one token earlier.
  const dateAt = (k: number): boolean => p.dates.some((d) => d.at <= k && k < d.end && d.at >= k - 1);
  for (let i = 0; i < p.tokens.length; i++) {
    const [a, b, c] = [p.tokens[i], p.tokens[i + 1], p.tokens[i + 2]];
    // "the price at the start of 2019", "the end of march": a moment inside the period, not all of it.
    if (/^(start|beginning|end|middle|close)$/.test(a?.norm ?? '') && b?.norm === 'of' && dateAt(i + 2)) return p.tokens.slice(i, i + 3).map((t) => t.raw).join(' ');
    // "early 2019", "mid 1990", "late march"
    if (/^(early|mid|late)$/.test(a?.norm ?? '') && dateAt(i + 1)) return p.tokens.slice(i, i + 2).map((t) => t.raw).join(' ');
    if (i + 3 >= p.tokens.length) continue;
    if (!/^(first|last|final|second|third)$/.test(a?.norm ?? '') || !/^(week|month|day|quarter|half)$/.test(b?.stem ?? '') || c?.norm !== 'of') continue;
    const whole = p.dates.some((d) => d.at <= i && d.end >= i + 4);
    if (!whole) return p.tokens.slice(i, i + 4).map((t) => t.raw).join(' ');
  }
  return undefined;
}

/** How many buckets of `grain` the dates from `lo` to `hi` (ISO text) span; undefined when unknown. */
function bucketsSpanned(lo: unknown, hi: unknown, grain: Grain): number | undefined {
  if (typeof lo !== 'string' || typeof hi !== 'string') return undefined;
  const a = /^(\d{4})-(\d{2})/.exec(lo);
  const b = /^(\d{4})-(\d{2})/.exec(hi);
  if (a === null || b === null) return undefined;
  const months = (Number(b[1]) - Number(a[1])) * 12 + Number(b[2]) - Number(a[2]) + 1;
  const days = (Date.parse(hi.slice(0, 10)) - Date.parse(lo.slice(0, 10))) / 86_400_000 + 1;
  if (grain === 'year') return Number(b[1]) - Number(a[1]) + 1;
  if (grain === 'quarter') return Math.ceil(months / 3) + 1;
  if (grain === 'month') return months;
  if (grain === 'week') return Number.isFinite(days) ? Math.ceil(days / 7) + 1 : undefined;
  if (grain === 'day') return Number.isFinite(days) ? days : undefined;
  return undefined;
}

/**
 * "how many years had more than 1500 drivers killed" over monthly rows asks which years' totals pass
 * 1500; a filter on single rows would count years with one such month (none, so "0"). Comparing
 * each bucket's total is not computed yet: refused, unless every row is its own bucket (monthly
 * rows counted by month), where the two readings agree.
 */
export function bucketsMeetingAmount(measures: readonly { agg: Agg; col?: ColRef; grain?: Grain }[], filters: readonly Filter[], table: TableMeta): string | undefined {
  const timeNamed = (c: ColumnMeta): boolean => TIME_NAMED.test(c.name.trim().replace(/s$/i, ''));
  const counted = measures.find((m) => m.agg === 'count_distinct' && m.col !== undefined && (m.grain !== undefined || timeNamed(m.col.column)));
  if (counted?.col === undefined) return undefined;
  // A threshold on a measure ("more than 1500 killed"); "in month 6" is a condition, not an amount.
  const amount = filters.find((f) => ((f.kind === 'cmp' && f.op !== '=' && f.op !== '<>') || f.kind === 'between') && f.col.column.kind === 'numeric'
    && f.col.column !== counted.col?.column && !timeNamed(f.col.column));
  if (amount === undefined) return undefined;
  const c = counted.col.column;
  const buckets = counted.grain !== undefined ? bucketsSpanned(c.min, c.max, counted.grain) : c.distinct;
  // Rows finer than the buckets: several rows fall in one bucket.
  const finer = buckets !== undefined && table.rowCount > buckets * 1.5;
  if (!finer) return undefined;
  const unit = counted.grain ?? c.name;
  return `counting each ${unit} whose total (or average) of ${amount.col.column.name} passes a number is not something I compute yet, and single rows would give a different count; ask for "total ${amount.col.column.name} per ${unit}" and read off which pass it`;
}

/** Whether question word `i` belongs to the column's own name (`price_ratio` for "ratio"), not said of it. */
function partOfName(p: Parse, i: number, c: ColumnMeta): boolean {
  const stem = p.tokens[i]?.stem ?? '';
  return stem !== '' && (c.tokens.includes(stem) || c.name.toLowerCase().includes(stem));
}

/** Words asking to set two figures against each other ("ratio", "3 times larger", "difference"). */
const DIFFERENCE_WORDS = /^(difference|gap)$/;
const HOW_MUCH = /^(higher|lower|more|less|bigger|smaller|larger|greater|fewer)$/;

/**
 * "ratio of area of Alaska to Texas", "how much higher is Quebec uptake than Mississippi": the two
 * groups' figures set against each other, when the plan holds exactly two named groups; a ratio or
 * difference asked of anything else is refused rather than answered with the two figures alone.
 */
export function withContrast(p: Parse, u: Understanding): Understanding {
  // A word inside a column's name ("pupil-teacher ratio") is that column; "5 times a week" is a frequency.
  const inName = (i: number): boolean => p.spans.some((s) => s.start <= i && i < s.end && (s.kind !== 'column' || s.cols.some((c) => partOfName(p, i, c.column))));
  const ratio = p.tokens.some((t, i) => !inName(i) && (t.norm === 'ratio' || (t.norm === 'times' && HOW_MUCH.test(p.tokens[i + 1]?.norm ?? ''))));
  const difference = p.tokens.some((t, i) => !inName(i) && DIFFERENCE_WORDS.test(t.norm))
    || p.tokens.some((t, i) => t.norm === 'much' && p.tokens[i - 1]?.norm === 'how' && HOW_MUCH.test(p.tokens[i + 1]?.norm ?? ''));
  if (!ratio && !difference) return u;
  if (u.kind !== 'aggregate') return u.kind === 'unanswerable' ? u : unanswerable('a ratio or difference is computed between two named groups ("ratio of sales of A to B")');
  const dim = u.dims[0];
  const named = u.filters.find((f): f is Extract<Filter, { kind: 'in' }> => f.kind === 'in' && !f.negate && dim !== undefined && f.col.column === dim.col.column);
  if (u.dims.length !== 1 || dim?.grain !== undefined || named?.values.length !== 2 || u.measures.length !== 1) {
    return unanswerable('a ratio or difference is computed between two named groups ("ratio of sales of A to B"), and this question names something else');
  }
  const [first, second] = named.values as [string, string];
  return { ...u, contrast: { kind: ratio ? 'ratio' : 'difference', first, second } };
}

/**
 * "survival rate of women", "which class had the highest survival rate": a rate of a condition is
 * the share of rows (or of counted people) meeting it, not their number. Without groups it is read
 * as that share among the rows the other conditions name; per group it is not computed yet and is
 * refused, rather than answered with counts ("Crew: 212" where first class had the highest rate).
 */
export function withRate(p: Parse, u: Understanding): Understanding {
  if (u.kind !== 'aggregate' || u.shareOfFiltered === true || u.share === true) return u;
  const at = p.tokens.findIndex((t) => /^(rate|rates)$/.test(t.norm));
  if (at < 0) return u;
  // Only a rate of a yes/no condition ("survival rate"): "birth rate above 6" names a measure.
  const span = p.spans.find((s): s is Extract<typeof s, { kind: 'column' }> => s.kind === 'column' && s.start <= at && at < s.end);
  const flag = span?.cols.some((c) => c.column.kind === 'boolean' || (c.column.kind === 'numeric' && c.column.min === 0 && c.column.max === 1));
  if (span === undefined || flag !== true || span.cols.some((c) => partOfName(p, at, c.column))) return u;
  const m = u.measures[0];
  const counting = u.measures.length === 1 && m !== undefined && (m.agg === 'count' || (m.agg === 'sum' && m.col !== undefined && m.col.column === frequencyWeight(u.base)?.column));
  if (!counting) return u;
  const part = u.filters.map((f, i) => ({ f, i })).filter(({ f }) => span?.cols.some((c) => c.column === f.col.column) === true);
  if (u.dims.length > 0 || part.length === 0) {
    return unanswerable(`a rate per group (the share of each group meeting the condition) is not computed yet; ask for one group at a time ("share of women that survived")`);
  }
  const scope = u.filters.map((_f, i) => i).filter((i) => !part.some((x) => x.i === i));
  return { ...u, shareOfFiltered: true, ...(scope.length > 0 ? { shareScope: scope } : {}) };
}
