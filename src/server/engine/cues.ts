/**
 * The words that say WHAT to compute, found by position in the token list: aggregates, ranking,
 * grouping, time grain, comparisons, negation and the special intents (distribution, correlation,
 * data quality, overview, listing rows). Roles of the named columns are decided from these.
 */
import type { Token } from './text';
import type { Agg, CmpOp, Grain } from './types';

export type Intent = 'histogram' | 'correlation' | 'missing' | 'duplicates' | 'outliers' | 'overview' | 'rows' | 'compare' | 'asTable' | 'asChart' | 'asLine' | 'asBar';

export type Cue =
  | { kind: 'agg'; agg: Agg; at: number; end: number }
  /** `hint`: the column a superlative implies ("hottest" -> temperature). */
  | { kind: 'superlative'; dir: 'desc' | 'asc'; at: number; end: number; word: string; hint?: string; frequency?: boolean }
  | { kind: 'topN'; n: number; dir: 'desc' | 'asc'; at: number; end: number }
  | { kind: 'group'; at: number; end: number }
  /** `asUnit`: "hourly rate", "daily visits" where the rows already are hours or days: a unit, not a grouping. */
  | { kind: 'grain'; grain: Grain; at: number; end: number; asUnit?: boolean }
  | { kind: 'trend'; at: number; end: number }
  | { kind: 'count'; at: number; end: number }
  | { kind: 'distinct'; at: number; end: number }
  | { kind: 'share'; at: number; end: number }
  /** `hint`: a column the comparison word implies ("older than" -> age). */
  | { kind: 'cmp'; op: CmpOp; at: number; end: number; postfix?: boolean; hint?: string }
  | { kind: 'between'; at: number; end: number }
  | { kind: 'negate'; at: number; end: number }
  | { kind: 'intent'; intent: Intent; at: number; end: number };

const AGG_WORDS: Record<string, Agg> = {
  average: 'avg', avg: 'avg', mean: 'avg', typical: 'median', median: 'median', total: 'sum', sum: 'sum', overall: 'sum',
  cumulative: 'sum', combined: 'sum', minimum: 'min', min: 'min', maximum: 'max', max: 'max', count: 'count',
  // The commonest aggregate words of the other session languages people type mixed with column names.
  moyen: 'avg', moyenne: 'avg', promedio: 'avg', media: 'avg', durchschnitt: 'avg', durchschnittlich: 'avg', mittelwert: 'avg',
  somme: 'sum', totale: 'sum', suma: 'sum', summe: 'sum', gesamt: 'sum', mediane: 'median', mediana: 'median', anzahl: 'count',
};
/** Columns of ages: `age` at the start of a word, so `wage`, `mileage` and `percentage` are not ages. */
const AGE_HINT = '(^|[^a-z])age';
const SUPERLATIVES: Record<string, 'desc' | 'asc'> = {
  highest: 'desc', largest: 'desc', biggest: 'desc', most: 'desc', greatest: 'desc', best: 'desc', top: 'desc',
  maximum: 'desc', max: 'desc', peak: 'desc', record: 'desc', longest: 'desc', densest: 'desc', heaviest: 'desc', tallest: 'desc', busiest: 'desc', wettest: 'desc', windiest: 'desc', rainiest: 'desc', oldest: 'desc', hottest: 'desc', warmest: 'desc',
  latest: 'desc', strongest: 'desc', priciest: 'desc',
  lowest: 'asc', smallest: 'asc', least: 'asc', fewest: 'asc', worst: 'asc', bottom: 'asc', minimum: 'asc', min: 'asc',
  easternmost: 'desc', northernmost: 'desc', westernmost: 'asc', southernmost: 'asc',
  cheapest: 'asc', shortest: 'asc', youngest: 'asc', coldest: 'asc', coolest: 'asc', earliest: 'asc', weakest: 'asc', lightest: 'asc', driest: 'asc',
};
/**
 * Whether a word is one the question's cues read (an aggregate, a superlative, "distinct"): such a
 * word is never a column name cut short ("distinct" is not `dis`, "lowest" not `low`).
 */
export function isCueWord(norm: string): boolean {
  return norm in AGG_WORDS || norm in SUPERLATIVES || norm === 'distinct' || norm === 'unique' || norm === 'different';
}

/** Superlatives that name their measure. */
const SUPERLATIVE_HINTS: Record<string, string> = {
  hottest: 'temp', warmest: 'temp', coldest: 'temp', coolest: 'temp', cheapest: 'price|cost', priciest: 'price|cost',
  oldest: AGE_HINT, youngest: AGE_HINT, longest: 'duration|length|time|days', shortest: 'duration|length|time|days',
  easternmost: '(^|[^a-z])(lon|lng|long|longitude)([^a-z]|$)', westernmost: '(^|[^a-z])(lon|lng|long|longitude)([^a-z]|$)', northernmost: '(^|[^a-z])(lat|latitude)([^a-z]|$)', southernmost: '(^|[^a-z])(lat|latitude)([^a-z]|$)',
  earliest: 'date|time|year|discover|found|start|open|built|release|born', latest: 'date|time|year|discover|found|start|open|built|release|born',
  densest: 'dens', heaviest: 'weight|mass', lightest: 'weight|mass', tallest: 'height', wettest: 'precip|rain', driest: 'precip|rain', windiest: 'wind', rainiest: 'precip|rain', busiest: 'count|traffic|visit',
};
const GRAIN_ADJ: Record<string, Grain> = {
  hourly: 'hour', daily: 'day', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year', annual: 'year',
  annually: 'year',
};
export const GRAIN_NOUN: Record<string, Grain> = {
  hour: 'hour', day: 'day', date: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year', decade: 'decade',
};
const CMP_WORDS: Array<{ words: string[]; op: CmpOp; postfix?: boolean; hint?: string }> = [
  { words: ['greater', 'than', 'or', 'equal', 'to'], op: '>=' },
  { words: ['less', 'than', 'or', 'equal', 'to'], op: '<=' },
  { words: ['at', 'least'], op: '>=' }, { words: ['at', 'most'], op: '<=' }, { words: ['no', 'more', 'than'], op: '<=' },
  { words: ['no', 'less', 'than'], op: '>=' }, { words: ['not', 'more', 'than'], op: '<=' }, { words: ['up', 'to'], op: '<=' },
  { words: ['or', 'more'], op: '>=', postfix: true }, { words: ['or', 'higher'], op: '>=', postfix: true },
  { words: ['or', 'above'], op: '>=', postfix: true }, { words: ['or', 'less'], op: '<=', postfix: true },
  { words: ['or', 'fewer'], op: '<=', postfix: true }, { words: ['or', 'lower'], op: '<=', postfix: true },
  { words: ['or', 'below'], op: '<=', postfix: true }, { words: ['or', 'under'], op: '<=', postfix: true },
  { words: ['more', 'than'], op: '>' }, { words: ['greater', 'than'], op: '>' }, { words: ['higher', 'than'], op: '>' },
  { words: ['larger', 'than'], op: '>' }, { words: ['bigger', 'than'], op: '>' }, { words: ['older', 'than'], op: '>', hint: AGE_HINT },
  { words: ['longer', 'than'], op: '>' }, { words: ['over'], op: '>' }, { words: ['above'], op: '>' },
  { words: ['exceeding'], op: '>' }, { words: ['exceeds'], op: '>' }, { words: ['exceed'], op: '>' },
  { words: ['less', 'than'], op: '<' }, { words: ['fewer', 'than'], op: '<' }, { words: ['lower', 'than'], op: '<' },
  { words: ['smaller', 'than'], op: '<' }, { words: ['younger', 'than'], op: '<', hint: AGE_HINT }, { words: ['shorter', 'than'], op: '<' },
  { words: ['cheaper', 'than'], op: '<', hint: 'price|cost' },
  { words: ['hotter', 'than'], op: '>', hint: 'temp' }, { words: ['warmer', 'than'], op: '>', hint: 'temp' },
  { words: ['colder', 'than'], op: '<', hint: 'temp' }, { words: ['heavier', 'than'], op: '>', hint: 'weight' },
  { words: ['lighter', 'than'], op: '<', hint: 'weight' }, { words: ['taller', 'than'], op: '>', hint: 'height' },
  { words: ['more', 'expensive', 'than'], op: '>', hint: 'price|cost' }, { words: ['under'], op: '<' }, { words: ['below'], op: '<' },
  { words: ['equal', 'to'], op: '=' }, { words: ['equals'], op: '=' }, { words: ['exactly'], op: '=' },
  // Compass directions compare positions: "east of 30" is a longitude above 30.
  { words: ['east', 'of'], op: '>', hint: '(^|[^a-z])(lon|lng|long|longitude)([^a-z]|$)' }, { words: ['west', 'of'], op: '<', hint: '(^|[^a-z])(lon|lng|long|longitude)([^a-z]|$)' },
  { words: ['north', 'of'], op: '>', hint: '(^|[^a-z])(lat|latitude)([^a-z]|$)' }, { words: ['south', 'of'], op: '<', hint: '(^|[^a-z])(lat|latitude)([^a-z]|$)' },
  { words: ['not', 'equal', 'to'], op: '<>' },
];
const GROUP_PHRASES = [
  ['broken', 'down', 'by'], ['break', 'down', 'by'], ['breakdown', 'by'], ['grouped', 'by'], ['group', 'by'], ['split', 'by'],
  ['for', 'each'], ['for', 'every'], ['in', 'each'], ['in', 'every'], ['per'], ['by'], ['each'], ['every'], ['across'],
  ['par'], ['por'], ['pro'], ['nach'],
  ['among'], ['between'],
];
const INTENT_WORDS: Record<string, Intent> = {
  distribution: 'histogram', histogram: 'histogram', distributed: 'histogram', spread: 'histogram',
  correlation: 'correlation', correlated: 'correlation', correlate: 'correlation', correlates: 'correlation',
  relationship: 'correlation', related: 'correlation', relate: 'correlation', association: 'correlation',
  associated: 'correlation', affect: 'correlation', affects: 'correlation', influence: 'correlation',
  missing: 'missing', null: 'missing', nulls: 'missing', blank: 'missing', blanks: 'missing', empty: 'missing', nan: 'missing',
  duplicate: 'duplicates', duplicates: 'duplicates', duplicated: 'duplicates', dupes: 'duplicates', repeated: 'duplicates',
  outlier: 'outliers', outliers: 'outliers', anomaly: 'outliers', anomalies: 'outliers', anomalous: 'outliers',
  unusual: 'outliers', abnormal: 'outliers', extreme: 'outliers',
  overview: 'overview', summarize: 'overview', summarise: 'overview', summary: 'overview', describe: 'overview',
  profile: 'overview', compare: 'compare', comparison: 'compare', versus: 'compare', vs: 'compare',
};

function matchesAt(tokens: readonly Token[], i: number, words: readonly string[]): boolean {
  return words.every((w, k) => tokens[i + k]?.norm === w);
}

/** A cyclic time bucket starting at token `i`: "weekday", "day of (the) week", "hour of (the) day". */
function cyclicAt(tokens: readonly Token[], i: number): { grain: Grain; len: number } | undefined {
  const w = tokens[i]?.norm;
  if (w === 'weekday' || w === 'weekdays' || w === 'dow') return { grain: 'weekday', len: 1 };
  if (matchesAt(tokens, i, ['day', 'of', 'the', 'week'])) return { grain: 'weekday', len: 4 };
  if (matchesAt(tokens, i, ['day', 'of', 'week'])) return { grain: 'weekday', len: 3 };
  if (matchesAt(tokens, i, ['hour', 'of', 'the', 'day'])) return { grain: 'hourOfDay', len: 4 };
  if (matchesAt(tokens, i, ['time', 'of', 'day'])) return { grain: 'hourOfDay', len: 3 };
  if (matchesAt(tokens, i, ['time', 'of', 'the', 'day'])) return { grain: 'hourOfDay', len: 4 };
  if (matchesAt(tokens, i, ['month', 'of', 'the', 'year'])) return { grain: 'monthOfYear', len: 4 };
  if (matchesAt(tokens, i, ['month', 'of', 'year'])) return { grain: 'monthOfYear', len: 3 };
  if (matchesAt(tokens, i, ['quarter', 'of', 'the', 'year'])) return { grain: 'quarterOfYear', len: 4 };
  if (matchesAt(tokens, i, ['quarter', 'of', 'year'])) return { grain: 'quarterOfYear', len: 3 };
  if (matchesAt(tokens, i, ['hour', 'of', 'day'])) return { grain: 'hourOfDay', len: 3 };
  return undefined;
}

/** All cues of a question, in token order (overlaps resolved longest-first per position). */
export function findCues(tokens: readonly Token[]): Cue[] {
  const cues: Cue[] = [];
  const used = new Set<number>();
  const take = (c: Cue): void => {
    for (let k = c.at; k < c.end; k++) used.add(k);
    cues.push(c);
  };
  for (let i = 0; i < tokens.length; i++) {
    if (used.has(i)) continue;
    const t = tokens[i] as Token;
    const next = tokens[i + 1];
    if (t.kind === 'op') {
      if (t.norm === '%') continue;
      take({ kind: 'cmp', op: t.norm as CmpOp, at: i, end: i + 1 });
      continue;
    }
    if (t.kind !== 'word') continue;
    const w = t.norm;
    if (matchesAt(tokens, i, ['how', 'many'])) {
      take({ kind: 'count', at: i, end: i + 2 });
      continue;
    }
    if (matchesAt(tokens, i, ['how', 'much'])) {
      take({ kind: 'agg', agg: 'sum', at: i, end: i + 2 });
      continue;
    }
    if (matchesAt(tokens, i, ['number', 'of']) || matchesAt(tokens, i, ['count', 'of'])) {
      take({ kind: 'count', at: i, end: i + 2 });
      continue;
    }
    if (matchesAt(tokens, i, ['over', 'time']) || w === 'trend' || w === 'trends' || w === 'trending' || w === 'evolve' || w === 'evolved' || w === 'evolution' || matchesAt(tokens, i, ['time', 'series'])) {
      take({ kind: 'trend', at: i, end: i + (w === 'over' || w === 'time' ? 2 : 1) });
      continue;
    }
    if (matchesAt(tokens, i, ['as', 'a', 'table']) || matchesAt(tokens, i, ['as', 'table']) || matchesAt(tokens, i, ['in', 'a', 'table']) || matchesAt(tokens, i, ['without', 'chart']) || matchesAt(tokens, i, ['no', 'chart'])) {
      const len = tokens[i + 1]?.norm === 'a' ? 3 : 2;
      take({ kind: 'intent', intent: 'asTable', at: i, end: i + len });
      continue;
    }
    // "by weekday", "per day of the week", "by hour of day": cyclic buckets.
    const lead = (w === 'for' || w === 'in') && /^(each|every)$/.test(next?.norm ?? '') ? 2 : /^(by|per|each|every|across|what|which)$/.test(w) ? 1 : 0;
    const cyc = cyclicAt(tokens, i + lead);
    if (cyc !== undefined) {
      take({ kind: 'grain', grain: cyc.grain, at: i, end: i + lead + cyc.len });
      continue;
    }
    if ((w === 'line' || w === 'bar' || w === 'column') && (next?.norm === 'chart' || next?.norm === 'graph' || next?.norm === 'plot')) {
      take({ kind: 'intent', intent: w === 'line' ? 'asLine' : 'asBar', at: i, end: i + 2 });
      continue;
    }
    if (w === 'chart' || w === 'graph' || w === 'plot' || w === 'visualize' || w === 'visualise') {
      take({ kind: 'intent', intent: 'asChart', at: i, end: i + 1 });
      continue;
    }
    const cmp = CMP_WORDS.find((c) => matchesAt(tokens, i, c.words));
    if (cmp !== undefined && !(cmp.words.length === 1 && (w === 'over' || w === 'under') && next?.kind !== 'number' && next?.norm !== '$')) {
      take({ kind: 'cmp', op: cmp.op, at: i, end: i + cmp.words.length, ...(cmp.postfix ? { postfix: true } : {}), ...(cmp.hint ? { hint: cmp.hint } : {}) });
      continue;
    }
    if ((w === 'top' || w === 'bottom' || w === 'first' || w === 'last') && next?.kind === 'number' && (next.value ?? 0) >= 1 && (next.value ?? 0) <= 1000 && Number.isInteger(next.value) && !next.yearLike) {
      // "last 3 months" is a date range, not a ranking: leave it to the date reader.
      const after = tokens[i + 2]?.norm ?? '';
      if (!(w === 'last' || w === 'first') || !/^(day|days|week|weeks|month|months|year|years|quarter|quarters|hour|hours)$/.test(after)) {
        take({ kind: 'topN', n: next.value ?? 5, dir: w === 'bottom' || w === 'last' ? 'asc' : 'desc', at: i, end: i + 2 });
        continue;
      }
    }
    const group = GROUP_PHRASES.find((g) => matchesAt(tokens, i, g));
    if (group !== undefined) {
      const after = tokens[i + group.length];
      const grain = after !== undefined ? GRAIN_NOUN[after.stem] : undefined;
      if (grain !== undefined && group.join(' ') !== 'between') take({ kind: 'grain', grain, at: i, end: i + group.length + 1 });
      else if (group[0] === 'between') take({ kind: 'between', at: i, end: i + 1 });
      else take({ kind: 'group', at: i, end: i + group.length });
      continue;
    }
    const adj = GRAIN_ADJ[w];
    if (adj !== undefined) {
      take({ kind: 'grain', grain: adj, at: i, end: i + 1 });
      continue;
    }
    if ((w === 'month' || w === 'year' || w === 'week' || w === 'day' || w === 'quarter') && next?.norm === 'over' && tokens[i + 2]?.norm === w) {
      take({ kind: 'grain', grain: GRAIN_NOUN[w] ?? 'month', at: i, end: i + 3 });
      continue;
    }
    if (w === 'not' || w === 'excluding' || w === 'except' || w === 'without' || w === 'exclude' || (w === 'other' && next?.norm === 'than') || w === 'non') {
      take({ kind: 'negate', at: i, end: i + (w === 'other' ? 2 : 1) });
      continue;
    }
    if (w === 'distinct' || w === 'unique' || w === 'different') {
      take({ kind: 'distinct', at: i, end: i + 1 });
      continue;
    }
    if (w === 'share' || w === 'percentage' || w === 'percent' || w === 'proportion' || w === 'fraction' || w === 'pct') {
      take({ kind: 'share', at: i, end: i + 1 });
      continue;
    }
    if ((w === 'list' || w === 'show' || w === 'display') && (next?.norm === 'all' || next?.norm === 'rows' || next?.norm === 'records' || next?.norm === 'me' || next?.norm === 'the')) {
      take({ kind: 'intent', intent: 'rows', at: i, end: i + 1 });
      continue;
    }
    if (w === 'sample' || w === 'example' || w === 'examples' || w === 'preview' || w === 'head') {
      take({ kind: 'intent', intent: 'rows', at: i, end: i + 1 });
      continue;
    }
    // "furthest east", "most northern": the extreme of a position.
    const compass = /^(furthest|farthest|most)$/.test(w) ? /^(east|west|north|south)(ern)?$/.exec(next?.norm ?? '') : null;
    if (compass !== null) {
      const dir = compass[1] === 'east' || compass[1] === 'north' ? 'desc' : 'asc';
      take({ kind: 'superlative', dir, at: i, end: i + 2, word: `${w} ${next?.norm}`, hint: compass[1] === 'east' || compass[1] === 'west' ? '(^|[^a-z])(lon|lng|long|longitude)([^a-z]|$)' : '(^|[^a-z])(lat|latitude)([^a-z]|$)' });
      continue;
    }
    // "the most recent reading": the latest by date, not the largest value.
    if ((w === 'most' && next?.norm === 'recent') || (w === 'least' && next?.norm === 'recent')) {
      take({ kind: 'superlative', dir: w === 'most' ? 'desc' : 'asc', at: i, end: i + 2, word: `${w} recent`, hint: SUPERLATIVE_HINTS['latest'] as string });
      continue;
    }
    // "the most common score", "least frequent": how often a value occurs, not how large it is.
    if ((w === 'most' || w === 'least') && /^(common|frequent|popular|usual)$/.test(next?.norm ?? '')) {
      take({ kind: 'superlative', dir: w === 'most' ? 'desc' : 'asc', at: i, end: i + 2, word: `${w} ${next?.norm}`, frequency: true });
      continue;
    }
    if (w === 'commonest') {
      take({ kind: 'superlative', dir: 'desc', at: i, end: i + 1, word: 'most common', frequency: true });
      continue;
    }
    if (w === 'most' && next?.norm === 'expensive') {
      take({ kind: 'superlative', dir: 'desc', at: i, end: i + 2, word: 'most expensive', hint: 'price|cost' });
      continue;
    }
    // "which element was discovered first": the earliest, when nothing follows that it could count.
    if ((w === 'first' || w === 'last') && next === undefined && i > 0) {
      take({ kind: 'superlative', dir: w === 'first' ? 'asc' : 'desc', at: i, end: i + 1, word: w, hint: 'year|date|time|discover|found|start|open|built|release|born' });
      continue;
    }
    // "when was co2 first recorded", "when was it last updated": the earliest or latest date.
    if ((w === 'first' || w === 'last') && i > 0 && next !== undefined && i + 2 === tokens.length && next.kind === 'word' && /[a-z]{3,}ed$/.test(next.norm)) {
      take({ kind: 'superlative', dir: w === 'first' ? 'asc' : 'desc', at: i, end: i + 2, word: w, hint: 'year|date|time|discover|found|start|open|built|release|born' });
      continue;
    }
    const sup = SUPERLATIVES[w];
    if (sup !== undefined) {
      const hint = SUPERLATIVE_HINTS[w];
      take({ kind: 'superlative', dir: sup, at: i, end: i + 1, word: w, ...(hint ? { hint } : {}) });
      continue;
    }
    const agg = AGG_WORDS[w];
    if (agg !== undefined) {
      take({ kind: 'agg', agg, at: i, end: i + 1 });
      continue;
    }
    const intent = INTENT_WORDS[w];
    if (intent !== undefined) {
      take({ kind: 'intent', intent, at: i, end: i + 1 });
      continue;
    }
    if (matchesAt(tokens, i, ['what', 'is', 'in']) || matchesAt(tokens, i, ['tell', 'me', 'about']) || matchesAt(tokens, i, ['what', 'does', 'this'])) {
      take({ kind: 'intent', intent: 'overview', at: i, end: i + 3 });
    }
  }
  // "which 3 states have the lowest ...": the number after "which" is how many to rank.
  const firstSup = cues.find((c): c is Extract<Cue, { kind: 'superlative' }> => c.kind === 'superlative');
  const which = tokens.findIndex((t) => t.norm === 'which' || t.norm === 'what');
  const n = which >= 0 ? tokens[which + 1] : undefined;
  if (firstSup !== undefined && n?.kind === 'number' && Number.isInteger(n.value) && (n.value ?? 0) >= 1 && (n.value ?? 0) <= 1000 && !n.yearLike && !used.has(which + 1) && firstSup.at > which + 1
    && !cues.some((c) => c.kind === 'topN')) {
    cues.push({ kind: 'topN', n: n.value ?? 5, dir: firstSup.dir, at: which + 1, end: which + 2 });
    used.add(which + 1);
  }
  // "5 highest", "3 lowest": a number right before a superlative is a top-N.
  for (const c of [...cues]) {
    if (c.kind !== 'superlative') continue;
    const prev = tokens[c.at - 1];
    if (prev?.kind === 'number' && Number.isInteger(prev.value) && (prev.value ?? 0) >= 1 && (prev.value ?? 0) <= 1000 && !prev.yearLike && !used.has(c.at - 1)) {
      cues.push({ kind: 'topN', n: prev.value ?? 5, dir: c.dir, at: c.at - 1, end: c.end });
      used.add(c.at - 1);
    }
  }
  return cues.sort((a, b) => a.at - b.at);
}
