/**
 * Follow-up questions refine the previous plan instead of starting over: "now only for 2024"
 * replaces the date filter, "and by channel?" adds a grouping, "what about Asia?" swaps a value,
 * "show it as a table" drops the chart, "top 3" re-ranks. The session's earlier questions are
 * replayed to rebuild the previous plan, so nothing has to be stored beyond the history itself.
 */
import type { MentionIndex } from './mentions';
import { booleanFilters, dateFilters, equalityFilters, knownFilters, noneFilters } from './filterRoles';
import { comparisonFilters, isNumeric, mark, nextSpan, pickColumn, valueFilters, type Parse } from './roles';
import { aggFor, chartPref, checkJoins } from './planKit';
import { decide, readingsOf, type Decision } from './readings';
import { collectDims } from './groupings';
import { parseQuestion, understand } from './understand';
import type { ColRef, Dim, Filter, Plan, TableMeta, Understanding } from './types';

const FOLLOW_START = /^\s*(now|and|what about|how about|only|just|same|instead|also|but|then|ok|okay|show (it|that|this|them)|make it|as an? |break (it|that|this) down|split|exclude|excluding|without|drop|remove|sort|rank|top|bottom|for|in|by|per|limit|except|what if|let'?s|can you (also|now)|and what)\b/i;

/** Whether a question reads as a refinement of the previous one. */
export function looksLikeFollowUp(question: string): boolean {
  return FOLLOW_START.test(question) || REFERS_BACK.test(question) || question.trim().split(/\s+/).length <= 3;
}

/** Openings that only make sense as a change to an earlier question ("now only for ...", "and in 2014?"). */
const ONLY_A_REFINEMENT = /^\s*(now|and|also|what about|how about|same but|same for|but|then|ok|okay|instead)\b/i;

/** Words pointing at the previous answer's rows: "how many of those", "their average". */
const REFERS_BACK = /\b(those|these|them|their|they|of it|its|same|that group|the rest)\b/i;

function sameColumn(a: Filter, b: Filter): boolean {
  return a.col.column === b.col.column;
}

/** Filters of `next` replace filters on the same column; the rest are kept. */
function mergeFilters(prev: readonly Filter[], next: readonly Filter[]): Filter[] {
  return [...prev.filter((f) => !next.some((n) => sameColumn(f, n))), ...next];
}

/** Columns or dates the user wants unfiltered again: "for all years", "all regions". */
function clearedColumns(p: Parse, prev: readonly Filter[]): Filter[] {
  const out: Filter[] = [];
  const all = p.tokens.some((t) => /^(remove|drop|clear|without)$/.test(t.norm)) && p.tokens.some((t) => /^(filter|filters|condition|conditions)$/.test(t.norm));
  if (all) return [...prev];
  p.tokens.forEach((t, i) => {
    if (!/^(all|every|any)$/.test(t.norm)) return;
    const next = p.tokens[i + 1];
    if (next && /^(year|month|date|time|period|quarter|day)s?$/.test(next.norm)) out.push(...prev.filter((f) => f.kind === 'dateRange' || f.kind === 'datePart'));
    const s = nextSpan(p, i + 1, 1);
    if (s?.kind === 'column') {
      mark(p, i, s.end);
      out.push(...prev.filter((f) => s.cols.some((c) => c.column === f.col.column)));
    }
  });
  return out;
}

/**
 * The previous plan refined by `question`, or undefined when the question changes nothing in it
 * (then it is understood on its own).
 */
export function refine(prev: Plan, question: string, tables: TableMeta[], index: MentionIndex): Understanding | undefined {
  return refineParsed(prev, parseQuestion(question, tables, index));
}

/** {@link refine} over an already parsed follow-up (each reading of it is refined on its own). */
export function refineParsed(prev: Plan, p: Parse): Understanding | undefined {
  const question = p.question;
  const prefer = prev.kind === 'aggregate' ? prev.base : prev.kind === 'rows' ? prev.table : undefined;
  const cleared = clearedColumns(p, 'filters' in prev ? prev.filters : []);
  const filters = [
    ...comparisonFilters(p, prefer), ...valueFilters(p, prefer).filters, ...dateFilters(p, prefer), ...equalityFilters(p, prefer), ...noneFilters(p), ...knownFilters(p),
  ];
  const chart = chartPref(p);
  const topN = p.cues.find((c) => c.kind === 'topN');
  let changed = filters.length > 0 || cleared.length > 0 || chart !== 'auto' || topN !== undefined;
  const keep = (fs: readonly Filter[]): Filter[] => mergeFilters(fs.filter((f) => !cleared.includes(f)), filters);
  switch (prev.kind) {
    case 'aggregate': {
      const collected = collectDims(p, prefer);
      const additive = /^\s*(and|also|plus)\b/i.test(question) || /\b(too|as well|also)\b/i.test(question);
      let dims: Dim[] = prev.dims;
      if (collected.dims.length > 0) {
        dims = additive ? [...prev.dims, ...collected.dims].slice(0, 2) : collected.dims;
        changed = true;
      }
      filters.push(...booleanFilters(p, dims));
      if (filters.length > 0) changed = true;
      const measures = [...prev.measures];
      // "and how many of those ...": a count again, whatever was measured before.
      const counting = p.cues.some((c) => c.kind === 'count' || (c.kind === 'agg' && c.agg === 'count'));
      const aggCue = p.cues.find((c) => c.kind === 'agg');
      let numeric: { col: ColRef; at: number } | undefined;
      for (const s of p.spans) {
        const col = s.kind === 'column' && !p.taken.has(s) ? pickColumn(s, 'measure', prefer) : undefined;
        if (col && isNumeric(col.column)) {
          numeric = { col, at: s.start };
          break;
        }
      }
      if (counting && numeric === undefined) {
        measures.splice(0, measures.length, { agg: 'count' });
        changed = true;
      } else if (numeric !== undefined) {
        // "and quantity?": the new column, with the aggregate asked for, else the one used before.
        const before = measures[0];
        const keepAgg = before?.col !== undefined && before.agg !== 'count_distinct' ? before.agg : undefined;
        measures[0] = { agg: aggCue || keepAgg === undefined ? aggFor(p, numeric.at, numeric.col.column, dims.length) : keepAgg, col: numeric.col };
        changed = true;
      } else if (aggCue !== undefined && aggCue.kind === 'agg' && measures[0]?.col) {
        measures[0] = { agg: aggCue.agg, col: measures[0].col };
        changed = true;
      }
      if (!changed) return undefined;
      const plan: Plan = { ...prev, dims, measures, filters: keep(prev.filters), chart: chart === 'auto' ? prev.chart : chart };
      if (topN !== undefined && topN.kind === 'topN') {
        plan.order = topN.dir;
        plan.limit = topN.n;
      } else if (collected.dims.length > 0 && !additive) {
        delete plan.limit;
        if (dims.every((d) => d.grain !== undefined)) delete plan.order;
        else plan.order ??= 'desc';
      }
      if (measures[0]?.col && measures[0].col.table !== prev.base && !filters.length) plan.base = measures[0].col.table;
      return checkJoins(plan);
    }
    case 'rows': {
      filters.push(...booleanFilters(p, []));
      if (filters.length > 0) changed = true;
      if (!changed) return undefined;
      const plan: Plan = { ...prev, filters: keep(prev.filters), chart: chart === 'auto' ? prev.chart : chart };
      if (topN !== undefined && topN.kind === 'topN') plan.limit = topN.n;
      return checkJoins(plan);
    }
    case 'histogram':
    case 'correlation':
    case 'correlationScan':
    case 'outliers':
      return changed ? { ...prev, filters: keep(prev.filters), chart: chart === 'auto' ? prev.chart : chart } : undefined;
    default:
      return undefined;
  }
}

/** "once more", "again", "run it again": the previous question as it was. */
const REPEAT = /^\s*(once more|again|one more time|repeat( (it|that|this))?|same again|same question|redo( it)?|refresh( it)?|run (it|that|this) again)\s*[.!?]*\s*$/i;

/**
 * How the current question is read given the session's earlier questions (oldest first): each
 * earlier question is read in turn (its best reading becomes the context), then the current one,
 * as a refinement of the previous plan when it reads like one, or on its own.
 */
export function readWithHistory(question: string, history: readonly string[], tables: TableMeta[], index: MentionIndex): Decision {
  let prev: Plan | undefined;
  for (const q of history) {
    const d = decideOne(q, prev, tables, index);
    if (d.kind === 'answer') prev = d.reading.plan;
  }
  return decideOne(question, prev, tables, index);
}

function decideOne(question: string, prev: Plan | undefined, tables: TableMeta[], index: MentionIndex): Decision {
  // "how many of those ..." with no earlier answer to point at: there is nothing to refine.
  if (prev === undefined && (/\b(of|for|among) (those|them|these)\b|\b(their|those)\b/i.test(question) || ONLY_A_REFINEMENT.test(question))) {
    return { kind: 'refuse', reason: 'the question refers to an earlier answer ("those", "their"), and there is none in this session to refine', unknown: [] };
  }
  if (prev !== undefined && REPEAT.test(question)) {
    const again = readingsOf(question, tables, index, () => prev);
    if (again[0] !== undefined) return { kind: 'answer', reading: { ...again[0], complete: true }, rivals: [] };
  }
  const own = readingsOf(question, tables, index);
  const refined = prev !== undefined ? readingsOf(question, tables, index, (p) => refineParsed(prev, p)) : [];
  const followUp = looksLikeFollowUp(question);
  // A follow-up-like question prefers refining the previous answer; any question falls back to it
  // when it cannot be read on its own.
  const ownBest = own.find((r) => r.complete);
  const refinedBest = refined.find((r) => r.complete);
  if (refinedBest !== undefined && (followUp || ownBest === undefined)) return decide(refined, { kind: 'unanswerable', reason: '', unknown: [] });
  return decide(own.length > 0 || refined.length === 0 ? own : refined, understand(question, tables, index));
}

/** The plan of the best reading (or why none may answer), for callers that need one plan. */
export function planWithHistory(question: string, history: readonly string[], tables: TableMeta[], index: MentionIndex): Understanding {
  const d = readWithHistory(question, history, tables, index);
  if (d.kind === 'answer') return d.reading.plan;
  return { kind: 'unanswerable', reason: d.reason, unknown: d.kind === 'refuse' ? d.unknown : [] };
}
