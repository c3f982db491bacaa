/**
 * Reading a question: tokens, the lattice of what each stretch may name, every parse the grammar
 * finds, each composed into a plan (and again with each close alternative column), ranked by cost.
 * The best complete reading answers; readings close to it are returned as rivals (the engine runs
 * them and asks when their answers differ); when no reading places every word, the reply names
 * the words and the columns or values they might mean. Follow-ups are read against the previous
 * question's plan; a definition ("\"heaviest\" means `wt`") is returned for the glossary.
 */
import { latestPeriodPlan } from './panels';
import { tokenize, type Tok } from '../language/tokens';
import type { Chooser } from './choose';
import { compose, rowsGrain, type Composition } from './compose';
import { glossaryPhrase, type GlossaryEntry } from '../../shared/glossary';
import { feedOf, GRAMMAR } from './grammar';
import { latticeOf, type Lattice } from './lattice';
import { isKeyword, parseAll } from './parser';
import type { Part } from './parts';
import { looksLikeFollowUp, refine } from './refine';
import { suggestBindings, type Binding } from './bindings';
import { defaultAgg } from './shape';
import { isScope } from './sqlBuilder';
import type { ColumnMeta, Grain, Plan, TableMeta } from './types';

export interface Reading {
  plan: Plan;
  cost: number;
  parts: Part[];
  /** Forced column choices that made this reading (empty for the plain one). */
  choices: Map<string, ColumnMeta>;
  /** Read as a change to the previous question's plan. */
  refined: boolean;
}

export type Decision =
  | { kind: 'answer'; reading: Reading; rivals: Reading[] }
  | { kind: 'refuse'; reason: string; unknown: string[]; bindings: Binding[] }
  | { kind: 'define'; entry: GlossaryEntry };

/** Readings within this cost of the best are compared by their answers. */
export const CLOSE = 0.3;
const MAX_PARSES = 40;

/**
 * A plan as comparable text: tables and columns by name, labels left out (they are presentation),
 * keys in one order, and conditions in one order (they are all required at once).
 */
export function planKey(plan: Plan): string {
  // A share's whole is given by position: compared as two sets of conditions, the part's and the whole's.
  if (plan.kind === 'aggregate' && plan.shareScope !== undefined) {
    const scope = plan.shareScope;
    const { shareScope: _, filters, ...rest } = plan;
    return planKey({ ...rest, filters: filters.filter((_f, i) => !scope.includes(i)) }) + planKey({ ...rest, filters: filters.filter((_f, i) => scope.includes(i)) });
  }
  const canon = (v: unknown, k: string): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) {
      const items = v.map((x) => canon(x, ''));
      return k === 'filters' ? items.map((x) => JSON.stringify(x)).sort().map((x) => JSON.parse(x) as unknown) : items;
    }
    const o = v as Record<string, unknown>;
    if ('alias' in o && 'columns' in o && 'label' in o) return `table:${String(o['alias'])}`;
    if ('expr' in o && 'tokens' in o && 'name' in o) return `column:${String(o['name'])}`;
    const out: Record<string, unknown> = {};
    // An order without a limit sorts the same rows: presentation, like labels.
    const sortsOnly = (key: string): boolean => key === 'order' && o['limit'] === undefined && o['kind'] === 'aggregate';
    for (const key of Object.keys(o).sort()) if (!(key === 'label' && typeof o[key] === 'string') && o[key] !== undefined && !sortsOnly(key)) out[key] = canon(o[key], key);
    return out;
  };
  return JSON.stringify(canon(plan, ''));
}

function partsKey(parts: readonly Part[]): string {
  return JSON.stringify(parts, (k, v: unknown) => (k === 'lat' || k === 'cost' ? undefined : v !== null && typeof v === 'object' && 'columns' in (v as object) ? 't' : v !== null && typeof v === 'object' && 'expr' in (v as object) ? (v as { name: string }).name : v));
}

/** The parses of a question, cheapest first, each structure once. */
function parsesOf(lat: Lattice): Array<{ parts: Part[]; cost: number }> {
  let parses = parseAll<{ parts?: Part[]; cost: number }>(GRAMMAR, feedOf(lat, false));
  if (parses.length === 0) parses = parseAll(GRAMMAR, feedOf(lat, true));
  const seen = new Set<string>();
  const out: Array<{ parts: Part[]; cost: number }> = [];
  for (const p of parses.sort((a, b) => a.cost - b.cost)) {
    const parts = p.parts ?? [];
    const key = partsKey(parts);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ parts, cost: p.cost });
    if (out.length >= MAX_PARSES) break;
  }
  return out;
}

/** The words of a span of tokens, as the user wrote them. */
export function wordsOf(tokens: readonly Tok[], key: string): string {
  const [a, b] = key.split(':').map(Number) as [number, number];
  return tokens.slice(a, b).map((t) => t.raw).join(' ');
}

interface Attempt { parts: Part[]; result: Composition; choices: Map<string, ColumnMeta>; refined: boolean }

function attempts(parse: { parts: Part[]; cost: number }, tables: TableMeta[], prev: Plan | undefined, asFollowUp: boolean, question: string, tokens: readonly Tok[]): Attempt[] {
  const run = (choices: Map<string, ColumnMeta>): { result: Composition; close: Map<string, ColumnMeta[]> } => {
    const ch: Chooser = { prefer: undefined, choices, close: new Map(), cost: parse.cost, tokens };
    return { result: asFollowUp && prev !== undefined ? refine(prev, parse.parts, ch, question) : compose(parse.parts, tables, ch), close: ch.close };
  };
  const refined = asFollowUp && prev !== undefined;
  const first = run(new Map());
  const out: Attempt[] = [{ parts: parse.parts, result: first.result, choices: new Map(), refined }];
  // Each close alternative column of a mention is a reading of its own (at most two mentions).
  for (const [key, cols] of [...first.close].slice(0, 2)) {
    for (const c of cols.slice(0, 3)) {
      const choices = new Map([[key, c]]);
      const r = run(choices);
      out.push({ parts: parse.parts, result: { ...r.result, cost: r.result.cost + 0.05 }, choices, refined });
    }
  }
  return out;
}

/** Reads one question, standalone or as a change to `prev`. */
/** Openings and words that only make sense as a change to an earlier answer. */
// ("their" alone is a possessive a question may use about its own rows: "regions that missed their target".)
const REFINES = /^\s*(and|now|also|what about|how about|same|but|then|instead)\b|\b(of|for|among) (those|them|these)\b|^\s*(what|how)\b.*\b(their|those)\b(?!.*\b(which|who|that)\b)|^\s*(which|who|what)\b.*\b(did|do|does|done)\s+(it|them|that)\s*[?.!]*\s*$/i;
/**
 * A follow-up by its form ("and the lowest?", "remote workers only", "by month instead"): read as
 * a change to the previous answer or not at all; read alone, it answers a question nobody asked.
 */
const onlyFollowUp = (q: string): boolean => /^\s*(and|also|what about|how about|same|but|then|instead|only|just)\b/i.test(q)
  || (q.trim().split(/\s+/).length <= 5 && /\b(only|instead|too)\s*[?.!]*\s*$/i.test(q));

function readOne(question: string, tables: TableMeta[], glossary: readonly GlossaryEntry[], prev: Plan | undefined): Decision {
  if (prev === undefined && REFINES.test(question)) {
    return { kind: 'refuse', reason: 'the question refers to an earlier answer ("those", "and ..."), and there is none in this session to change', unknown: [], bindings: [] };
  }
  const tokens = tokenize(question);
  const lat = latticeOf(question, tokens, tables, glossary);
  const parses = parsesOf(lat);
  const define = parses[0]?.parts.find((p): p is Extract<Part, { k: 'define' }> => p.k === 'define');
  if (define !== undefined && parses[0]?.parts.every((p) => p.k === 'define' || p.k === 'filler')) {
    const hit = define.col?.alts[0] ?? define.val?.alts[0];
    if (hit !== undefined) {
      const entry: GlossaryEntry = { phrase: glossaryPhrase(define.phrase), column: hit.ref.column.name };
      if (tables.length > 1) entry.table = hit.ref.table.label;
      if (define.val !== undefined && 'values' in hit) entry.value = (hit as { values: string[] }).values[0] as string;
      if (define.code !== undefined) entry.value = define.code;
      return { kind: 'define', entry };
    }
  }
  const followUp = prev !== undefined && parses.some((p) => looksLikeFollowUp(p.parts, question));
  const tried: Attempt[] = [];
  for (const p of parses) {
    if (prev === undefined || !onlyFollowUp(question)) tried.push(...attempts(p, tables, prev, false, question, tokens));
    if (prev !== undefined) for (const a of attempts(p, tables, prev, true, question, tokens)) tried.push({ ...a, result: { ...a.result, cost: a.result.cost + (followUp ? -0.5 : 0.5) } });
  }
  const ok: Reading[] = [];
  const byPlan = new Map<string, Reading>();
  // Only the cheapest parse and its other column choices are readings of one question: a dearer
  // parse is a worse reading, not a rival (ties keep the first).
  // "only among cereals", "and the quietest day?": a change that leaves the answer as it was read
  // nothing the question says; it is not an answer.
  const same = prev !== undefined ? planKey(prev) : undefined;
  for (const a of tried) if (a.result.ok && a.refined && planKey(a.result.plan) === same) tried[tried.indexOf(a)] = { ...a, result: { ok: false, why: 'the follow-up changes nothing in the answer before it', words: [], cost: a.result.cost } };
  const cheapest = tried.filter((a) => a.result.ok).sort((a, b) => a.result.cost - b.result.cost)[0];
  for (const a of tried) {
    if (!a.result.ok || (cheapest !== undefined && a.parts !== cheapest.parts)) continue;
    const key = planKey(a.result.plan);
    const had = byPlan.get(key);
    if (had === undefined || a.result.cost < had.cost) {
      byPlan.set(key, { plan: a.result.plan, cost: a.result.cost, parts: a.parts, choices: a.choices, refined: a.refined });
    }
  }
  ok.push(...[...byPlan.values()].sort((a, b) => a.cost - b.cost));
  const best = ok[0];
  if (best !== undefined) {
    const rivals = ok.slice(1).filter((r) => r.cost - best.cost < CLOSE);
    for (const r of otherMeanings(best, tables, prev, question, tokens)) if (!rivals.some((x) => planKey(x.plan) === planKey(r.plan))) rivals.push(r);
    return { kind: 'answer', reading: best, rivals };
  }
  return refusal(tokens, lat, tried);
}

/**
 * Readings the words allow that the cheapest parse does not show: "the 1900s" may be the decade or
 * the century, and "average trips per month" over daily rows may be the average day of each month
 * or the average of the monthly totals. Returned as rivals: the engine asks when they differ.
 */
function otherMeanings(best: Reading, tables: TableMeta[], prev: Plan | undefined, question: string, words: readonly Tok[]): Reading[] {
  const out: Reading[] = [];
  const w = best.parts.find((p): p is Extract<Part, { k: 'when' }> => p.k === 'when' && p.when.alsoCentury !== undefined);
  const unitSaid = best.parts.some((p) => p.k === 'measure' && p.unit !== undefined);
  if (w?.when.alsoCentury !== undefined) {
    const { from, to } = w.when.alsoCentury;
    const century: Part = { ...w, when: { from, to, label: `${from.slice(0, 4)} to ${Number(to.slice(0, 4)) - 1}` } };
    const parts = best.parts.map((p) => (p === w ? century : p));
    const ch: Chooser = { prefer: undefined, choices: best.choices, close: new Map(), cost: best.cost };
    const r = best.refined && prev !== undefined ? refine(prev, parts, ch, question) : compose(parts, tables, ch);
    if (r.ok) out.push({ ...best, plan: r.plan, parts, cost: best.cost + 0.01 });
  }
  const p = best.plan;
  // "which month has the most holidays" over several years: a month of one year, or of any year.
  const byMonth = p.kind === 'aggregate' && p.order !== undefined && p.dims.length === 1 && p.dims[0]?.grain === 'month' ? p.dims[0] : undefined;
  const lo = typeof byMonth?.col.column.min === 'string' ? byMonth.col.column.min.slice(0, 4) : '';
  const hi = typeof byMonth?.col.column.max === 'string' ? byMonth.col.column.max.slice(0, 4) : '';
  if (byMonth !== undefined && p.kind === 'aggregate' && lo !== hi && !p.filters.some((f) => f.col.column === byMonth.col.column) && !words.some((t) => /^(monthly|each|every|per)$/.test(t.norm))) {
    out.push({ ...best, plan: { ...p, dims: [{ ...byMonth, grain: 'monthOfYear' }] }, cost: best.cost + 0.01 });
  }
  // "which region has the highest birth rate" over a region-by-year panel: in the latest year, or over all years.
  const latest = latestPeriodPlan(p, words);
  if (latest !== undefined) out.push({ ...best, plan: latest, cost: best.cost + 0.01 });
  // "% with skin tone support per group": each group's share of the rows that have it, or the share
  // of each group's rows that have it. The words fit both; the answers differ.
  if (p.kind === 'aggregate' && p.share === true && p.dims.length > 0 && p.limit === undefined && p.measures.length === 1 && p.measures[0]?.agg === 'count'
    && p.filters.some((f, i) => !isScope(f, i, p) && !p.dims.some((d) => d.col.column === f.col.column))) {
    const within: Plan = { ...p, shareOfFiltered: true };
    delete within.share;
    delete within.order;
    out.push({ ...best, plan: within, cost: best.cost + 0.01 });
  }
  // "median employment across states": over all the states (one figure), or for each of them.
  const across = best.parts.find((x) => x.k === 'group' && words[x.from]?.norm === 'across');
  if (across !== undefined && p.kind === 'aggregate' && p.dims.length === 1 && p.limit === undefined && p.share !== true && p.shareOfFiltered !== true && p.contrast === undefined && p.dims[0]?.grain === undefined) {
    const overall: Plan = { ...p, dims: [] };
    delete overall.order;
    out.push({ ...best, plan: overall, cost: best.cost + 0.01 });
  }
  const m = p.kind === 'aggregate' ? p.measures[0] : undefined;
  const d = p.kind === 'aggregate' ? p.dims[0] : undefined;
  // A `month` column beside a date made of parts is that date's month.
  const made = d !== undefined && d.grain === undefined ? d.col.table.columns.find((c) => c.derived?.includes(d.col.column.name) === true) : undefined;
  const bucket = d?.grain !== undefined && d.col.column.kind === 'temporal' ? { col: d.col, grain: d.grain } : made !== undefined && d !== undefined ? { col: { table: d.col.table, column: made }, grain: GRAIN_RANK.find((g) => new RegExp(`^${g}s?$`, 'i').test(d.col.column.name.trim())) } : undefined;
  if (!unitSaid && p.kind === 'aggregate' && p.dims.length === 1 && p.measures.length === 1 && p.limit === undefined && m?.agg === 'avg' && m.col !== undefined && defaultAgg(m.col.column) === 'sum'
    && bucket?.grain !== undefined && GRAIN_RANK.includes(bucket.grain)) {
    const rows = rowsGrain(bucket.col.table);
    if (rows !== undefined && GRAIN_RANK.indexOf(rows) < GRAIN_RANK.indexOf(bucket.grain)) {
      out.push({ ...best, plan: { kind: 'aggregate', base: p.base, measures: [m], dims: [], filters: p.filters, chart: p.chart, perBucket: { col: bucket.col, grain: bucket.grain } }, cost: best.cost + 0.01 });
    }
  }
  return out;
}

const GRAIN_RANK: Grain[] = ['hour', 'day', 'week', 'month', 'quarter', 'year', 'decade'];

/** Why no reading answers: the words of the cheapest failed reading, and what they might mean. */
function refusal(tokens: readonly Tok[], lat: Lattice, tried: readonly Attempt[]): Decision {
  const failed = tried.filter((a): a is Attempt & { result: Extract<Composition, { ok: false }> } => !a.result.ok).sort((a, b) => a.result.cost - b.result.cost);
  const f = failed[0];
  if (f === undefined) return { kind: 'refuse', reason: 'the question could not be read', unknown: [], bindings: [] };
  const words = [...new Set(f.result.words.map((k) => wordsOf(tokens, k)))].filter((w) => w.trim() !== '');
  const unknown = f.parts.filter((p) => p.k === 'unknown').map((p) => wordsOf(tokens, `${p.from}:${p.to}`));
  const reason = unknown.length > 0 ? `nothing in the data matches ${unknown.map((w) => `"${w}"`).join(', ')}`
    : f.result.why === 'words no part of the reading uses' ? `I could not fit ${words.map((w) => `"${w}"`).join(', ')} into one calculation with the rest of the question`
      : words.length > 0 ? `${f.result.why} (${words.map((w) => `"${w}"`).join(', ')})` : f.result.why;
  const neg = f.parts.find((p) => p.k === 'neg' && f.result.words.includes(`${p.from}:${p.to}`));
  if (neg !== undefined && unknown.length === 0) {
    const said = wordsOf(tokens, `${neg.from}:${Math.min(tokens.length, neg.to + 2)}`);
    return { kind: 'refuse', reason: `I could not tell what "${said}" should exclude`, unknown: [said], bindings: [] };
  }
  // Only words that name nothing get bindings: a grammar word out of place is rephrased, not defined.
  const named = unknown.length > 0 ? unknown : words;
  // Else the content words of the reading that failed ("died"), so a refusal always offers a click.
  const content = [...new Set(f.result.words.flatMap((k) => {
    const [from, to] = k.split(':').map(Number);
    return tokens.slice(from, to).filter((t) => t.kind === 'word' && !t.stop && !isKeyword(t.norm) && ![...lat.val.keys()].some((v) => Number(v.split(':')[0]) <= t.i && t.i < Number(v.split(':')[1]))).map((t) => t.raw);
  }))];
  return { kind: 'refuse', reason, unknown: named, bindings: suggestBindings(unknown.length > 0 ? unknown : content, lat) };
}

/**
 * How the question is read given the session's earlier questions (oldest first): each earlier
 * question is read in turn (its answer becomes the context), then this one.
 */
export function readQuestion(question: string, history: readonly string[], tables: TableMeta[], glossary: readonly GlossaryEntry[] = []): Decision {
  let prev: Plan | undefined;
  let last: Decision | undefined;
  for (const q of history) {
    last = readOne(q, tables, glossary, prev);
    if (last.kind === 'answer') prev = last.reading.plan;
  }
  if (last === undefined || last.kind === 'answer') return readOne(question, tables, glossary, prev);
  // The question just before was not answered: "only for women" has nothing of its own to narrow,
  // and an answer older than that is not what it refines.
  const d = readOne(question, tables, glossary, undefined);
  const changes = d.kind === 'answer' && (/^\s*(and|now|also|what about|how about|only|just|same|but|then|ok|okay|instead|except|excluding|without|for|in)\b/i.test(question)
    || d.reading.parts.some((p) => p.k === 'edit' && p.edit !== 'list') || /\b(those|these|them|their|they|it|same)\b/i.test(question));
  const before = last.kind === 'refuse' ? last : undefined;
  if (!changes && !(d.kind === 'refuse' && d.bindings.length === 0 && before !== undefined && before.bindings.length > 0)) return d;
  // The words the question before could not place are what this one waits for: a chosen meaning
  // answers the question before and this one after it (the define re-reads the whole session).
  return { kind: 'refuse', reason: 'it builds on the question before it, which I could not answer', unknown: before?.unknown ?? [], bindings: before?.bindings ?? [] };
}
