/**
 * Readings of a question. A question can often be read more than one way: "max load" with a
 * `load_max` column (the column, or the maximum of some load), "rating" with two rating
 * columns. Each way is parsed on its own, turned into a plan, and checked word by word
 * ({@link coverage}); readings are then scored. Only a reading that accounts for every word may
 * answer, and when two readings are close the engine checks whether they give different results
 * before it answers (the caller runs them), so it never picks one of two different numbers.
 */
import { coverage, wordsAt, type Coverage } from './explain';
import type { MentionIndex, Span } from './mentions';
import { isGroupable, isIdLike, isIdName, isNumeric, type Parse } from './roles';
import { TIME_NAMED } from './lexicon';
import { naturalGrain } from './groupings';
import { buildPlan, cueNameOverlaps, parseQuestion, type ParseChoice } from './understand';
import { defaultAgg } from './lexicon';
import type { ColRef, ColumnMeta, Grain, Plan, TableMeta, Understanding } from './types';

export interface Reading {
  plan: Plan;
  parse: Parse;
  cover: Coverage;
  score: number;
  choice: ParseChoice;
  /** Every word is accounted for. */
  complete: boolean;
}

/** One way to read an ambiguous question, as a question that is answered exactly that way. */
export interface ReadingOption {
  question: string;
  /** What it computes, in words. */
  label: string;
}

export type Decision =
  /** `rivals`: complete readings scoring close to the best with a different plan. */
  | { kind: 'answer'; reading: Reading; rivals: Reading[] }
  /** The question reads several ways that give different answers: the user picks one. */
  | { kind: 'ask'; reason: string; options: ReadingOption[] }
  /** No complete reading: what could not be placed, and the closest partial reading. */
  | { kind: 'refuse'; reason: string; unknown: string[]; closest?: Reading };

/** Readings within this many points of the best are checked for a different result. */
export const CLOSE = 1.5;
const MAX_READINGS = 24;

/** How well a column fits the role the plan gives it (measures are numbers, groups are categories). */
function fitness(plan: Plan, p: Parse): number {
  let s = 0;
  const fitMeasure = (c: ColumnMeta): number => (TIME_NAMED.test(c.name.trim()) ? -3 : isNumeric(c) && !isIdLike(c) ? 1 : isNumeric(c) ? -1 : -3);
  const fitDim = (c: ColumnMeta): number => (isGroupable(c) ? (isIdName(c) ? 0 : 1) : -2);
  // A grouping nobody asked for ("by", "per", "each", "which", "trend", a grain word) costs.
  const asked = p.cues.some((c) => c.kind === 'group' || c.kind === 'grain' || c.kind === 'trend' || c.kind === 'topN' || c.kind === 'superlative' || c.kind === 'share' || c.kind === 'distinct' || (c.kind === 'intent' && (c.intent === 'compare' || c.intent === 'histogram')))
    || p.tokens.some((t) => t.norm === 'which' || t.norm === 'what' || t.norm === 'vs' || t.norm === 'versus' || t.norm === 'and' || t.norm === 'or');
  if (plan.kind === 'aggregate') {
    // Two measures where one was asked for ("how many bills ... 104th"): one of them is a misreading.
    const measuresAsked = Math.max(1, p.cues.filter((c) => c.kind === 'agg' || c.kind === 'count').length);
    s -= 2 * Math.max(0, plan.measures.length - measuresAsked);
    for (const m of plan.measures) if (m.col && m.agg !== 'count_distinct') s += fitMeasure(m.col.column);
    for (const d of plan.dims) s += (d.grain !== undefined ? 1 : fitDim(d.col.column)) - (asked ? 0 : 3);
  }
  return s;
}

function spanScore(s: Span): number {
  return s.score;
}

/** Score: what the reading explains, how well its columns fit, minus what it leaves out. */
function scoreOf(plan: Plan, p: Parse, cover: Coverage): number {
  let s = 0;
  for (const sp of p.spans) if (cover.explained.has(sp.start)) s += spanScore(sp);
  for (const c of p.cues) if (cover.explained.has(c.at)) s += 0.5;
  s += fitness(plan, p);
  s -= 6 * cover.unusedNames.length + 5 * cover.unusedCues.length + 4 * cover.unknown.length;
  return s;
}

/** A plan as comparable text: columns and tables by name, so equal plans from two parses compare equal. */
export function planKey(plan: Plan): string {
  return JSON.stringify(plan, (_k, v: unknown) => {
    if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ('alias' in o && 'columns' in o && 'label' in o) return `table:${String(o['alias'])}`;
      if ('expr' in o && 'tokens' in o && 'name' in o) return `column:${String(o['name'])}`;
    }
    return v;
  });
}

/** Parse choices: the plain reading, then each cue/name overlap read both ways (at most 3 overlaps). */
function choicesFor(question: string, tables: TableMeta[], index: MentionIndex): ParseChoice[] {
  const overlaps = cueNameOverlaps(question, tables, index).slice(0, 3);
  let out: ParseChoice[] = [{}];
  for (const g of overlaps) {
    const next: ParseChoice[] = [];
    for (const c of out) {
      next.push({ ...c, cueWins: new Set([...(c.cueWins ?? []), ...g]) });
      next.push({ ...c, nameWins: new Set([...(c.nameWins ?? []), ...g]) });
    }
    out = next;
  }
  return [{}, ...out.filter((c) => c.cueWins !== undefined || c.nameWins !== undefined)];
}

/** Column spans that name several columns: each choice of column is its own reading. */
function pickChoices(p: Parse, base: ParseChoice): ParseChoice[] {
  const ambiguous = p.spans.filter((s): s is Extract<Span, { kind: 'column' }> => s.kind === 'column' && s.cols.length > 1).slice(0, 2);
  let out: ParseChoice[] = [base];
  for (const s of ambiguous) {
    const next: ParseChoice[] = [];
    for (const c of out) {
      for (const col of s.cols.slice(0, 4)) {
        const pick = new Map(c.pick ?? []);
        pick.set(s.start, col.column);
        next.push({ ...c, pick });
      }
    }
    out = next;
  }
  return ambiguous.length === 0 ? [] : out;
}

/** Builds a plan for a parse: the question alone, or (for follow-ups) refining an earlier plan. */
export type PlanBuilder = (p: Parse) => Understanding | undefined;

/** Every reading of the question that yields a plan, best first; equal plans are kept once. */
export function readingsOf(question: string, tables: TableMeta[], index: MentionIndex, build: PlanBuilder = buildPlan): Reading[] {
  const byPlan = new Map<string, Reading>();
  const consider = (choice: ParseChoice): Parse => {
    const p = parseQuestion(question, tables, index, choice);
    const u = build(p);
    if (u !== undefined && u.kind !== 'unanswerable') {
      const cover = coverage(u, p);
      const r: Reading = {
        plan: u, parse: p, cover, choice, score: scoreOf(u, p, cover),
        complete: cover.unusedNames.length === 0 && cover.unusedCues.length === 0 && cover.unknown.length === 0 && cover.invented.length === 0,
      };
      const key = planKey(u);
      const had = byPlan.get(key);
      if (had === undefined || r.score > had.score) byPlan.set(key, r);
    }
    return p;
  };
  for (const choice of choicesFor(question, tables, index)) {
    const p = consider(choice);
    for (const pc of pickChoices(p, choice)) {
      if (byPlan.size >= MAX_READINGS) break;
      consider(pc);
    }
  }
  for (const r of [...byPlan.values()]) {
    const alt = totalsReading(r);
    if (alt !== undefined && !byPlan.has(planKey(alt.plan))) byPlan.set(planKey(alt.plan), alt);
  }
  return [...byPlan.values()].sort((a, b) => Number(b.complete) - Number(a.complete) || b.score - a.score);
}

const GRAIN_ORDER: Grain[] = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'decade'];

/**
 * "average visits per month" over daily rows reads two ways: the average day in each month, or the
 * average monthly total. For a measure that adds up, the second is a reading of its own, so the
 * engine can see the two differ and ask.
 */
function totalsReading(r: Reading): Reading | undefined {
  const plan = r.plan;
  if (!r.complete || plan.kind !== 'aggregate' || plan.perBucket !== undefined || plan.measures.length !== 1 || plan.dims.length !== 1) return undefined;
  const m = plan.measures[0];
  const d = plan.dims[0];
  if (m?.agg !== 'avg' || m.col === undefined || d === undefined || defaultAgg(m.col.column) !== 'sum') return undefined;
  // "average daily visits by month": the unit is said, the rows' own average is meant.
  if (r.parse.cues.some((c) => c.kind === 'grain' && c.asUnit === true)) return undefined;
  let bucket: { col: ColRef; grain: Grain } | undefined;
  if (d.grain !== undefined && GRAIN_ORDER.includes(d.grain) && d.col.column.kind === 'temporal') bucket = { col: d.col, grain: d.grain };
  else {
    const date = d.col.table.columns.find((c) => c.derived?.includes(d.col.column.name) === true);
    const grain = GRAIN_ORDER.find((g) => new RegExp(`^${g}$`, 'i').test(d.col.column.name.trim()));
    if (date !== undefined && grain !== undefined) bucket = { col: { table: d.col.table, column: date }, grain };
  }
  if (bucket === undefined) return undefined;
  const rows = naturalGrain(bucket.col);
  if (rows !== undefined && GRAIN_ORDER.indexOf(rows) >= GRAIN_ORDER.indexOf(bucket.grain)) return undefined;
  const totals: Plan = { kind: 'aggregate', base: plan.base, measures: [m], dims: [], filters: plan.filters, chart: plan.chart, perBucket: bucket };
  return { ...r, plan: totals, score: r.score - 0.5 };
}

/** What to say about the words a partial reading leaves out. */
export function missingWords(r: Reading): { reason: string; words: string[] } {
  const p = r.parse;
  const unknown = wordsAt(p, r.cover.unknown);
  const names = wordsAt(p, r.cover.unusedNames);
  const cues = wordsAt(p, r.cover.unusedCues);
  if (unknown.length > 0) return { reason: `nothing in the data matches ${unknown.map((w) => `"${w}"`).join(', ')}`, words: unknown };
  if (names.length > 0) return { reason: `I could not fit ${names.map((w) => `"${w}"`).join(', ')} into one calculation with the rest of the question`, words: names };
  if (cues.length === 0 && r.cover.invented.length > 0) return { reason: 'the question does not say what to count or measure', words: [] };
  return { reason: `I could not tell what ${cues.map((w) => `"${w}"`).join(', ')} should do in this question`, words: cues };
}

/** The best reading that may answer, with its close rivals; or why none may. */
export function decide(readings: readonly Reading[], fallback: Understanding): Decision {
  const complete = readings.filter((r) => r.complete);
  const best = complete[0];
  if (best === undefined) {
    const closest = readings[0];
    if (closest === undefined) {
      const reason = fallback.kind === 'unanswerable' ? fallback.reason : 'the question could not be read';
      return { kind: 'refuse', reason, unknown: fallback.kind === 'unanswerable' ? fallback.unknown : [] };
    }
    const m = missingWords(closest);
    return { kind: 'refuse', reason: m.reason, unknown: m.words, closest };
  }
  const doubt = doubtAbout(best);
  if (doubt !== undefined) return doubt;
  const rivals = complete.slice(1).filter((r) => best.score - r.score < CLOSE);
  return { kind: 'answer', reading: best, rivals };
}

/** The column an extreme is taken of (a ranking, a minimum or a maximum), if the plan takes one. */
function extremeColumn(plan: Plan): ColumnMeta | undefined {
  if (plan.kind === 'rows') return plan.orderBy?.col.column;
  if (plan.kind !== 'aggregate') return undefined;
  return plan.measures.find((x) => x.agg === 'min' || x.agg === 'max')?.col?.column;
}

/**
 * Readings that explain every word and still cannot be answered with one number: a date that may
 * mean a decade or a century, or the extreme of a column some of whose values are not numbers.
 */
function doubtAbout(r: Reading): Decision | undefined {
  const p = r.parse;
  const century = p.dates.find((d) => d.alsoCentury !== undefined);
  if (century?.alsoCentury !== undefined && century.from !== undefined && century.to !== undefined) {
    const first = p.tokens[century.at];
    const last = p.tokens[century.end - 1];
    const swap = (text: string): string => (first && last ? `${p.question.slice(0, first.start)}${text}${p.question.slice(last.end)}` : p.question);
    const decade = `from ${century.from.slice(0, 4)} to ${Number(century.to.slice(0, 4)) - 1}`;
    const whole = `from ${century.alsoCentury.from.slice(0, 4)} to ${Number(century.alsoCentury.to.slice(0, 4)) - 1}`;
    return {
      kind: 'ask', reason: `"${century.label}" can mean the decade (${decade.slice(5)}) or the century (${whole.slice(5)})`,
      options: [{ question: swap(decade), label: `the decade, ${decade}` }, { question: swap(whole), label: `the century, ${whole}` }],
    };
  }
  const col = extremeColumn(r.plan);
  const onlyKnown = 'filters' in r.plan && r.plan.filters.some((f) => f.kind === 'null' && !f.isNull && f.col.column === col);
  if (col !== undefined && (col.unreadable ?? 0) > 0 && !onlyKnown) {
    const example = col.unreadableExample !== undefined ? ` (such as "${col.unreadableExample}")` : '';
    return {
      kind: 'refuse', unknown: [],
      reason: `${col.unreadable} values of \`${col.name}\` are not numbers${example}, so its highest and lowest values cannot be known from this data`,
    };
  }
  return undefined;
}
