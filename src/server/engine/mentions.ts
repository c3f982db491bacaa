/**
 * Finds what a question names: columns (by name, abbreviation, synonym or a near-miss spelling),
 * values that occur in the data ("Europe", "North America"), and tables ("orders"). The result is a
 * set of non-overlapping spans over the question's tokens; roles (measure, group, filter) are
 * decided later from the words around each span.
 */
import { PHRASE_SYNONYMS, SYNONYMS } from './lexicon';
import { FUNCTION_WORDS, identifierWords, stem, STOP_WORDS, type Token } from './text';
import type { ColRef, ColumnMeta, TableMeta } from './types';

export type Span =
  | { kind: 'column'; start: number; end: number; score: number; cols: ColRef[]; exact: boolean }
  | { kind: 'value'; start: number; end: number; score: number; matches: Array<{ ref: ColRef; value: string }> }
  | { kind: 'table'; start: number; end: number; score: number; table: TableMeta };

/** Column words too generic to identify a column on their own ("name" of customer_name). */
const GENERIC = new Set(['id', 'name', 'code', 'number', 'no', 'key', 'type', 'value', 'date', 'time', 'flag', 'status', 'total', 'count', 'amount', 'at', 'is', 'of', 'in', 'per']);
/** Values too common as English words to be read as data values when written in lower case. */
const WEAK_VALUES = new Set(['other', 'others', 'none', 'n/a', 'na', 'unknown', 'yes', 'no', 'true', 'false', 'total', 'all', 'new', 'old', 'high', 'low', 'medium', 'open', 'closed', 'active', 'on', 'off', 'a', 'b', 'c', 'x']);

interface Candidate {
  start: number;
  end: number;
  score: number;
  span: Span;
}

/** Edit distance with adjacent transpositions (typos like "reveune"), capped. */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > cap) return cap + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length] ?? cap + 1;
}

type ValueKeys = { exact: string; stemmed: string; words: number } | undefined;
/**
 * Keys by value. Every question rebuilds the mention index over the same column values, and
 * splitting and stemming them was most of the time spent understanding a question; the keys are a
 * pure function of the value, so they are remembered (bounded, cleared when full).
 */
const valueKeyCache = new Map<string, ValueKeys>();
const VALUE_KEY_CACHE_LIMIT = 200_000;

/** Value words as compared with question words: folded words, and their stems. */
function valueKeys(value: string): ValueKeys {
  if (valueKeyCache.has(value)) return valueKeyCache.get(value);
  const words = identifierWords(value);
  const keys = words.length === 0 || words.length > 6 ? undefined : { exact: words.join(' '), stemmed: words.map(stem).join(' '), words: words.length };
  if (valueKeyCache.size >= VALUE_KEY_CACHE_LIMIT) valueKeyCache.clear();
  valueKeyCache.set(value, keys);
  return keys;
}

/** Base stems of a column name (abbreviation expansions are alternatives, not extra words). */
function baseStems(c: ColumnMeta): string[] {
  return identifierWords(c.name).map(stem);
}

export interface MentionIndex {
  values: Map<string, Array<{ ref: ColRef; value: string }>>;
  maxValueWords: number;
}

/** Indexes every indexed value of every table by its folded and stemmed words. */
export function buildMentionIndex(tables: readonly TableMeta[]): MentionIndex {
  const values = new Map<string, Array<{ ref: ColRef; value: string }>>();
  let maxValueWords = 1;
  for (const table of tables) {
    for (const column of table.columns) {
      for (const value of column.values ?? []) {
        const k = valueKeys(value);
        if (k === undefined || /^[\d.,\s-]+$/.test(value)) continue;
        maxValueWords = Math.max(maxValueWords, k.words);
        for (const key of new Set([k.exact, k.stemmed])) {
          const list = values.get(key) ?? [];
          if (!list.some((m) => m.ref.column === column && m.value === value)) list.push({ ref: { table, column }, value });
          values.set(key, list);
        }
      }
    }
  }
  return { values, maxValueWords };
}

function columnCandidates(tokens: readonly Token[], tables: readonly TableMeta[]): Candidate[] {
  const out: Candidate[] = [];
  const words = tokens.map((t) => (t.kind === 'word' ? t.stem : ''));
  for (const table of tables) {
    for (const column of table.columns) {
      const base = baseStems(column);
      const all = new Set([...base, ...column.tokens]);
      const col: ColRef = { table, column };
      // Whole name, in order (e.g. "unit price").
      for (let i = 0; i + base.length <= words.length; i++) {
        if (base.every((w, k) => words[i + k] === w)) {
          out.push({ start: i, end: i + base.length, score: 3 + base.length, span: { kind: 'column', start: i, end: i + base.length, score: 3 + base.length, cols: [col], exact: true } });
        }
      }
      // Expanded single word (qty -> quantity) naming a one-word column.
      for (let i = 0; i < words.length; i++) {
        const w = words[i] ?? '';
        if (w === '') continue;
        if (base.length === 1 && column.tokens.includes(w) && base[0] !== w) {
          out.push({ start: i, end: i + 1, score: 3.5, span: { kind: 'column', start: i, end: i + 1, score: 3.5, cols: [col], exact: true } });
        } else if (base.length > 1 && all.has(w) && !GENERIC.has(w) && !FUNCTION_WORDS.has(w)) {
          // One distinctive word of a longer name ("price" for unit_price); the last word is the head.
          // The head word ("price" of unit_price) names the column; a modifier ("unit") only hints at it.
          const score = base[base.length - 1] === w || ABBREVIATED(column, w) ? 1.6 : GENERIC.has(base[base.length - 1] ?? '') ? 1.2 : 0.8;
          out.push({ start: i, end: i + 1, score, span: { kind: 'column', start: i, end: i + 1, score, cols: [col], exact: false } });
        } else if (!all.has(w) && !FUNCTION_WORDS.has(w) && w.length >= 4) {
          const syn = SYNONYMS[w];
          if (syn !== undefined && syn.some((s) => all.has(stem(s)) && (!GENERIC.has(stem(s)) || base.length === 1))) {
            out.push({ start: i, end: i + 1, score: 0.9, span: { kind: 'column', start: i, end: i + 1, score: 0.9, cols: [col], exact: false } });
          } else if (w.length >= 5 && base.length === 1 && base[0] !== undefined && base[0].length >= 5) {
            const d = editDistance(w, base[0], w.length >= 8 ? 2 : 1);
            if (d <= (w.length >= 8 ? 2 : 1)) out.push({ start: i, end: i + 1, score: 0.7, span: { kind: 'column', start: i, end: i + 1, score: 0.7, cols: [col], exact: false } });
          }
        }
      }
      // Two-word phrases standing for a measure ("order value").
      for (let i = 0; i + 1 < words.length; i++) {
        const syn = PHRASE_SYNONYMS[`${words[i]} ${words[i + 1]}`];
        if (syn !== undefined && syn.some((s) => base.includes(stem(s)))) {
          out.push({ start: i, end: i + 2, score: 2.5, span: { kind: 'column', start: i, end: i + 2, score: 2.5, cols: [col], exact: false } });
        }
      }
    }
  }
  return out;
}

function ABBREVIATED(column: ColumnMeta, w: string): boolean {
  return column.tokens.includes(w) && !identifierWords(column.name).map(stem).includes(w);
}

function valueCandidates(tokens: readonly Token[], index: MentionIndex): Candidate[] {
  const out: Candidate[] = [];
  for (let i = 0; i < tokens.length; i++) {
    for (let n = Math.min(index.maxValueWords, tokens.length - i); n >= 1; n--) {
      const slice = tokens.slice(i, i + n);
      if (slice.some((t) => t.kind !== 'word' && t.kind !== 'number')) continue;
      if (slice.every((t) => t.kind === 'number')) continue;
      const exact = slice.map((t) => t.norm).join(' ');
      const stemmed = slice.map((t) => t.stem).join(' ');
      const matches = index.values.get(exact) ?? index.values.get(stemmed);
      if (matches === undefined) continue;
      const first = slice[0];
      if (n === 1 && first !== undefined && (STOP_WORDS.has(first.norm) || WEAK_VALUES.has(first.norm)) && first.raw === first.raw.toLowerCase()) continue;
      if (n === 1 && first !== undefined && first.norm.length < 2) continue;
      const score = 2.8 + n;
      out.push({ start: i, end: i + n, score, span: { kind: 'value', start: i, end: i + n, score, matches } });
    }
  }
  return out;
}

function tableCandidates(tokens: readonly Token[], tables: readonly TableMeta[]): Candidate[] {
  const out: Candidate[] = [];
  if (tables.length === 0) return out;
  for (const table of tables) {
    const base = table.tokens.filter((t) => !GENERIC.has(t));
    if (base.length === 0) continue;
    for (let i = 0; i + base.length <= tokens.length; i++) {
      if (base.every((w, k) => tokens[i + k]?.kind === 'word' && tokens[i + k]?.stem === w)) {
        const score = 2 + base.length;
        out.push({ start: i, end: i + base.length, score, span: { kind: 'table', start: i, end: i + base.length, score, table } });
      }
    }
  }
  return out;
}

/**
 * Non-overlapping spans, best first: longer exact names beat shorter ones, values beat partial
 * column matches, and equally good column matches of one span are kept together (the roles decide).
 */
export function findSpans(tokens: readonly Token[], tables: readonly TableMeta[], index: MentionIndex): Span[] {
  const all = [...columnCandidates(tokens, tables), ...valueCandidates(tokens, index), ...tableCandidates(tokens, tables)];
  all.sort((a, b) => b.score - a.score || (b.end - b.start) - (a.end - a.start) || a.start - b.start);
  const taken: boolean[] = tokens.map(() => false);
  const chosen: Span[] = [];
  for (const c of all) {
    const same = chosen.find((s) => s.start === c.start && s.end === c.end && s.kind === c.span.kind && s.score === c.score);
    if (same !== undefined && same.kind === 'column' && c.span.kind === 'column') {
      for (const col of c.span.cols) if (!same.cols.some((x) => x.column === col.column)) same.cols.push(col);
      continue;
    }
    let free = true;
    for (let i = c.start; i < c.end; i++) if (taken[i]) free = false;
    if (!free) continue;
    for (let i = c.start; i < c.end; i++) taken[i] = true;
    chosen.push(c.span.kind === 'column' ? { ...c.span, cols: [...c.span.cols] } : c.span);
  }
  // A table word that also names columns (orders.csv + order_id) stays a table mention; the
  // columns remain reachable through the table.
  return chosen.sort((a, b) => a.start - b.start);
}
