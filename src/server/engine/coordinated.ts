/**
 * Aggregates listed together before one column: "minimum and maximum revenue by region", "average
 * and total sales". Each word is a measure of that column. Without this, "minimum" read as a
 * ranking ("lowest first") beside a maximum, and the answer was one number for another question.
 */
import type { Agg } from './types';
import type { Cue } from './cues';
import type { Span } from './mentions';
import type { Token } from './text';

/** Extremes that are aggregates when listed with another aggregate. */
const EXTREME = /^(min|max|minimum|maximum|lowest|highest|smallest|largest)$/;
const JOIN = /^(and|or|&|plus)$/;

type AggLike = Extract<Cue, { kind: 'agg' } | { kind: 'superlative' }>;

const aggLike = (c: Cue): c is AggLike => c.kind === 'agg' || (c.kind === 'superlative' && EXTREME.test(c.word));

/** The chain of aggregate cues that ends right before token `at` (two or more), else undefined. */
function chainBefore(tokens: readonly Token[], cues: readonly Cue[], at: number): AggLike[] | undefined {
  const ending = (end: number): AggLike | undefined => cues.find((c): c is AggLike => aggLike(c) && c.end === end);
  let k = at;
  if (tokens[k - 1]?.norm === 'the') k--;
  const last = ending(k);
  if (last === undefined) return undefined;
  const chain = [last];
  for (;;) {
    const first = chain[0] as AggLike;
    // "min and max", "the minimum and the maximum": joined by a word ("the highest average price"
    // is one superlative of one aggregate, not a list).
    // A list typed with commas ("min, max and mean") loses them: two extremes side by side list too.
    let j = first.at;
    if (tokens[j - 1]?.norm === 'the') j--;
    const joined = JOIN.test(tokens[j - 1]?.norm ?? '');
    const prev = ending(joined ? j - 1 : j);
    if (prev === undefined || (!joined && !EXTREME.test(tokens[first.at]?.norm ?? ''))) break;
    chain.unshift(prev);
  }
  return chain.length >= 2 ? chain : undefined;
}

/** Extremes inside a chain before a column become aggregate cues (the chain is then all aggregates). */
export function coordinateAggregates(tokens: readonly Token[], cues: Cue[], spans: readonly Span[]): Cue[] {
  const convert = new Map<Cue, Cue>();
  for (const s of spans) {
    if (s.kind !== 'column') continue;
    for (const c of chainBefore(tokens, cues, s.start) ?? []) {
      if (c.kind === 'superlative') convert.set(c, { kind: 'agg', agg: c.dir === 'desc' ? 'max' : 'min', at: c.at, end: c.end });
    }
  }
  return convert.size === 0 ? cues : cues.map((c) => convert.get(c) ?? c);
}

/** The aggregates listed before the column starting at `at` ("min and max revenue"), or undefined. */
export function listedAggs(tokens: readonly Token[], cues: readonly Cue[], at: number): Agg[] | undefined {
  const chain = chainBefore(tokens, cues, at);
  if (chain === undefined || chain.some((c) => c.kind !== 'agg')) return undefined;
  return [...new Set(chain.map((c) => (c.kind === 'agg' ? c.agg : 'max')))];
}
