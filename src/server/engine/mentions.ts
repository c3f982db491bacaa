/**
 * Finds what a question names: columns (whole names in any order, single distinctive words,
 * abbreviations, synonyms, near-miss spellings, backticked names), values that occur in the data
 * ("Europe", "north america", "rainy" for `rain`, "six" for 6, a surname of "Ada Lovelace",
 * quoted values), and tables ("vehicles" for fleet.csv). The result is a set of non-overlapping
 * spans over the question's tokens; roles (measure, group, filter) are decided later.
 */
import { ANTONYMS, FILE_QUALIFIERS, PHRASE_SYNONYMS, ROW_NOUN_SYNONYMS, SYNONYMS, VALUE_SYNONYMS } from './lexicon';
import { nameShape, partialNameHits, wholeNameHits } from './nameMatch';
import { FUNCTION_WORDS, identifierWords, stem, STOP_WORDS, wordForms, type Token } from './text';
import type { ColRef, TableMeta } from './types';

export type Span =
  /** `negated`: the word is the opposite of a yes/no column ("offline" for `online`). */
  | { kind: 'column'; start: number; end: number; score: number; cols: ColRef[]; exact: boolean; negated?: boolean }
  /** `partial`: the question named one word of the values (a surname, a brand): a "contains" filter. */
  | { kind: 'value'; start: number; end: number; score: number; matches: Array<{ ref: ColRef; value: string }>; partial?: string }
  | { kind: 'table'; start: number; end: number; score: number; table: TableMeta };

/** Column words too generic to identify a column on their own ("name" of customer_name). */
const GENERIC = new Set(['id', 'name', 'code', 'number', 'no', 'key', 'type', 'value', 'date', 'time', 'flag', 'status', 'total', 'count', 'amount', 'at', 'is', 'of', 'in', 'per',
  // Units of time name dates, not the columns that happen to contain the word (`yrs_employed`, `week_no`).
  'year', 'month', 'day', 'week', 'quarter', 'hour', 'minute', 'decade']);
/** Values too common as English words to be read as data values when written in lower case. */
const WEAK_VALUES = new Set(['other', 'others', 'none', 'n/a', 'na', 'unknown', 'yes', 'no', 'true', 'false', 'total', 'all', 'new', 'old', 'high', 'low', 'medium', 'open', 'closed', 'active', 'on', 'off', 'a', 'b', 'c', 'x']);
const NUMBER_NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

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

type ValueKeys = { exact: string; stemmed: string; words: string[] } | undefined;
/**
 * Keys by value. Every question rebuilds the mention index over the same column values, and
 * splitting and stemming them was most of the time spent understanding a question; the keys are a
 * pure function of the value, so they are remembered (bounded, cleared when full).
 */
const valueKeyCache = new Map<string, ValueKeys>();
const VALUE_KEY_CACHE_LIMIT = 200_000;

function valueKeys(value: string): ValueKeys {
  if (valueKeyCache.has(value)) return valueKeyCache.get(value);
  const words = identifierWords(value);
  const keys = words.length === 0 || words.length > 8 ? undefined : { exact: words.join(' '), stemmed: words.map(stem).join(' '), words };
  if (valueKeyCache.size >= VALUE_KEY_CACHE_LIMIT) valueKeyCache.clear();
  valueKeyCache.set(value, keys);
  return keys;
}

type Match = { ref: ColRef; value: string };

export interface MentionIndex {
  /** Whole values by their folded words and by their stems. */
  values: Map<string, Match[]>;
  /** Values of two or more words by each distinctive word (stem): surnames, brands. */
  words: Map<string, Match[]>;
  maxValueWords: number;
}

function push(map: Map<string, Match[]>, key: string, m: Match): void {
  const list = map.get(key) ?? [];
  if (!list.some((x) => x.ref.column === m.ref.column && x.value === m.value)) list.push(m);
  map.set(key, list);
}

/** What indexing needs of one value list, worked out once per list (see {@link keysOfList}). */
interface ListKeys {
  entries: Array<{ value: string; keys: string[]; words: string[] }>;
  maxWords: number;
}

/**
 * Value lists by identity: the schema index hands each question copies of its cached columns that
 * share the lists, so the words of a list are worked out once, not per question (8-13 ms for a
 * table with 3,400 listed values, each question).
 */
const listKeyCache = new WeakMap<readonly string[], ListKeys>();

function keysOfList(list: readonly string[]): ListKeys {
  const hit = listKeyCache.get(list);
  if (hit !== undefined) return hit;
  const out: ListKeys = { entries: [], maxWords: 1 };
  for (const value of list) {
    const k = valueKeys(value);
    if (k === undefined || /^[\d.,\s-]+$/.test(value)) continue;
    out.maxWords = Math.max(out.maxWords, k.words.length);
    const words = k.words.length < 2 ? [] : [...new Set(k.words.map(stem))].filter((w) => !(w.length < 3 || STOP_WORDS.has(w) || FUNCTION_WORDS.has(w) || /^\d+$/.test(w)));
    out.entries.push({ value, keys: [...new Set([k.exact, k.stemmed])], words });
  }
  listKeyCache.set(list, out);
  return out;
}

/** Indexes every indexed value of every table by its folded and stemmed words. */
export function buildMentionIndex(tables: readonly TableMeta[]): MentionIndex {
  const values = new Map<string, Match[]>();
  const words = new Map<string, Match[]>();
  let maxValueWords = 1;
  for (const table of tables) {
    for (const column of table.columns) {
      const list = column.values ?? [];
      const keyed = keysOfList(list);
      maxValueWords = Math.max(maxValueWords, keyed.maxWords);
      const perWord = new Map<string, Match[]>();
      for (const e of keyed.entries) {
        const m = { ref: { table, column }, value: e.value };
        for (const key of e.keys) push(values, key, m);
        // Values of a column are distinct and a value's words are too: no duplicate to look for
        // (a search here was quadratic in a column whose values share a word, like "SKU-1".."SKU-4350").
        for (const w of e.words) {
          const list = perWord.get(w);
          if (list === undefined) perWord.set(w, [m]);
          else list.push(m);
        }
      }
      // A word in most values of a column ("County", "Inc") tells none of them apart; in a short list,
      // a word in every value ("Adelie Penguin", "Gentoo penguin") is what the rows are, not a filter.
      for (const [w, ms] of perWord) {
        const tellsApart = list.length < 10 ? list.length < 2 || ms.length < list.length : ms.length <= list.length * 0.3;
        if (tellsApart) for (const m of ms) push(words, w, m);
      }
    }
  }
  return { values, words, maxValueWords };
}

function columnCandidates(tokens: readonly Token[], tables: readonly TableMeta[]): Candidate[] {
  const out: Candidate[] = [];
  const add = (start: number, end: number, score: number, col: ColRef, exact: boolean): void => {
    out.push({ start, end, score, span: { kind: 'column', start, end, score, cols: [col], exact } });
  };
  for (const table of tables) {
    const tableWords = new Set(table.tokens);
    for (const column of table.columns) {
      const col: ColRef = { table, column };
      const shape = nameShape(column);
      // A name of several words written as one ("LifeExp", "lifeexp" for `LifeExp`) is that column.
      const nameWords = identifierWords(column.name);
      const compact = nameWords.length >= 2 ? nameWords.join('') : '';
      tokens.forEach((t, i) => {
        if (t.kind === 'name' && (t.norm === column.name.toLowerCase() || identifierWords(column.name).join(' ') === t.norm)) add(i, i + 1, 20, col, true);
        else if (t.kind === 'word' && compact.length >= 4 && t.norm === compact) add(i, i + 1, 20, col, true);
        // A column named by a number ("2000" in a table with a column per year).
        if (t.kind === 'number' && /^\d+$/.test(column.name.trim()) && t.value === Number(column.name.trim()) && t.unit === undefined) add(i, i + 1, 4.2, col, true);
      });
      for (const h of wholeNameHits(tokens, shape, tableWords)) {
        const n = shape.core.length;
        if (n === 1 && GENERIC.has(shape.core[0] ?? '') && h.quality < 1) continue;
        add(h.start, h.end, (3 + n) * h.quality, col, h.quality >= 0.85);
      }
      for (const h of partialNameHits(tokens, shape)) {
        const w = tokens[h.start]?.stem ?? '';
        if (GENERIC.has(w) || FUNCTION_WORDS.has(w)) continue;
        const headGeneric = GENERIC.has(shape.core[shape.core.length - 1] ?? '');
        // "orders" names the orders (`order_id`), not their dates (`order_date`): a date column is a weak guess.
        const dateOfEntity = !h.head && column.kind === 'temporal';
        const score = (h.head ? 1.6 : dateOfEntity ? 0.5 : headGeneric ? 1.2 : 0.8) * h.quality;
        add(h.start, h.end, score, col, false);
      }
      const all = new Set([...shape.core, ...shape.optional, ...column.tokens]);
      tokens.forEach((t, i) => {
        const w = t.kind === 'word' ? t.stem : '';
        if (w === '' || all.has(w) || FUNCTION_WORDS.has(w) || w.length < 4) return;
        const syn = SYNONYMS[w];
        if (syn !== undefined && syn.some((s) => all.has(stem(s)) && (!GENERIC.has(stem(s)) || shape.core.length === 1))) add(i, i + 1, 0.9, col, false);
        else if (w.length >= 5 && shape.core.length === 1 && (shape.core[0] ?? '').length >= 5) {
          const base = shape.core[0] ?? '';
          const cap = w.length >= 8 ? 2 : 1;
          if (editDistance(w, base, cap) <= cap) add(i, i + 1, 0.7, col, false);
        }
      });
      // "offline" readings where the data has an `online` yes/no column: that column, negated.
      const yesNo = column.kind === 'boolean' || (column.kind === 'numeric' && column.min === 0 && column.max === 1 && column.distinct === 2);
      if (yesNo && shape.core.length === 1) {
        tokens.forEach((t, i) => {
          if (t.kind === 'word' && (ANTONYMS[t.stem] ?? ANTONYMS[t.norm] ?? []).includes(shape.core[0] ?? '')) {
            out.push({ start: i, end: i + 1, score: 2.4, span: { kind: 'column', start: i, end: i + 1, score: 2.4, cols: [col], exact: false, negated: true } });
          }
        });
      }
      // Two-word phrases standing for a measure ("order value").
      for (let i = 0; i + 1 < tokens.length; i++) {
        const syn = PHRASE_SYNONYMS[`${tokens[i]?.stem} ${tokens[i + 1]?.stem}`];
        if (syn !== undefined && syn.some((s) => shape.core.includes(stem(s)))) add(i, i + 2, 2.5, col, false);
      }
    }
  }
  return out;
}

function valueSpan(start: number, end: number, score: number, matches: Match[], partial?: string): Candidate {
  const span: Span = { kind: 'value', start, end, score, matches };
  if (partial !== undefined) span.partial = partial;
  return { start, end, score, span };
}

function valueCandidates(tokens: readonly Token[], index: MentionIndex): Candidate[] {
  const out: Candidate[] = [];
  const lookup = (key: string): Match[] | undefined => index.values.get(key);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token;
    if (t.kind === 'quoted') {
      const ms = lookup(identifierWords(t.norm).join(' ')) ?? lookup(identifierWords(t.norm).map(stem).join(' '));
      if (ms !== undefined) out.push(valueSpan(i, i + 1, 20, ms));
      continue;
    }
    for (let n = Math.min(index.maxValueWords, tokens.length - i); n >= 1; n--) {
      const slice = tokens.slice(i, i + n);
      if (slice.some((x) => x.kind !== 'word' && x.kind !== 'number')) continue;
      if (slice.every((x) => x.kind === 'number')) continue;
      const matches = lookup(slice.map((x) => x.norm).join(' ')) ?? lookup(slice.map((x) => x.stem).join(' '));
      if (matches === undefined) continue;
      const first = slice[0];
      if (n === 1 && first !== undefined && (STOP_WORDS.has(first.norm) || WEAK_VALUES.has(first.norm)) && first.raw === first.raw.toLowerCase()) {
        // "race other", "status is none": a weak word right after its column's name is that value.
        const named = namedJustBefore(tokens, i, matches);
        if (named.length > 0) out.push(valueSpan(i, i + 1, 3.8, named));
        continue;
      }
      if (n === 1 && first !== undefined && first.norm.length < 2) continue;
      out.push(valueSpan(i, i + n, 2.8 + n, matches));
    }
    const lower = t.raw === t.raw.toLowerCase();
    if (t.kind === 'word' && !(lower && (STOP_WORDS.has(t.norm) || WEAK_VALUES.has(t.norm)))) {
      // Other forms ("rainy" for rain) and other spellings ("women" for female, "American" for USA).
      const forms = [...wordForms(t.norm), ...(VALUE_SYNONYMS[t.norm] ?? VALUE_SYNONYMS[t.stem] ?? [])];
      const found = forms.map((f) => lookup(f) ?? lookup(identifierWords(f).map(stem).join(' '))).find((m) => m !== undefined);
      if (found !== undefined) out.push(valueSpan(i, i + 1, 2.6, found));
      // One word of longer values: "Lovelace" of "Ada Lovelace", "acme" of "acme widget".
      const part = t.norm.length >= 3 && !FUNCTION_WORDS.has(t.norm) ? index.words.get(t.stem) ?? index.words.get(t.norm) : undefined;
      if (part !== undefined) out.push(valueSpan(i, i + 1, 2.0, part, t.norm));
    }
    // "six" written as 6 (or the other way round).
    if (t.kind === 'number' && !t.yearLike && t.unit === undefined && Number.isInteger(t.value) && (t.value ?? -1) >= 0 && (t.value ?? 99) < NUMBER_NAMES.length) {
      const spelled = /^\d+$/.test(t.raw) ? NUMBER_NAMES[t.value ?? 0] : String(t.value);
      const ms = (spelled !== undefined ? lookup(spelled) : undefined) ?? (/^[a-z]+$/.test(t.norm) ? lookup(t.norm) : undefined);
      if (ms !== undefined) out.push(valueSpan(i, i + 1, 2.2, ms));
    }
  }
  return out;
}

/** The matches whose column is named right before token `i` ("race other", "race is other", "race = other"). */
function namedJustBefore(tokens: readonly Token[], i: number, matches: readonly Match[]): Match[] {
  let k = i - 1;
  if (/^(is|was|=|equals|of)$/.test(tokens[k]?.norm ?? '')) k--;
  const prev = tokens[k];
  if (prev === undefined || prev.kind !== 'word') return [];
  return matches.filter((m) => {
    const words = identifierWords(m.ref.column.name);
    return words.length > 0 && (words[words.length - 1] === prev.norm || stem(words[words.length - 1] ?? '') === prev.stem);
  });
}

function tableCandidates(tokens: readonly Token[], tables: readonly TableMeta[]): Candidate[] {
  const out: Candidate[] = [];
  const add = (start: number, end: number, score: number, table: TableMeta): void => {
    out.push({ start, end, score, span: { kind: 'table', start, end, score, table } });
  };
  for (const table of tables) {
    // "penguins" for penguins_raw.csv: words that say which copy of the data it is name nothing.
    const base = table.tokens.filter((t) => !GENERIC.has(t) && !FILE_QUALIFIERS.has(t));
    if (base.length === 0) continue;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t?.kind !== 'word') continue;
      if (i + base.length <= tokens.length && base.every((w, k) => tokens[i + k]?.kind === 'word' && tokens[i + k]?.stem === w)) add(i, i + base.length, 2 + base.length, table);
      if (base.length === 1) {
        const only = base[0] ?? '';
        // "vehicles" for fleet.csv, "pictures" for films.csv.
        if ((ROW_NOUN_SYNONYMS[t.stem] ?? []).includes(only)) add(i, i + 1, 2.5, table);
        // "strikes" for birdstrikes.csv; "bird strikes" run together.
        else if (t.stem.length >= 4 && only.length > t.stem.length && (only.endsWith(t.stem) || only.startsWith(t.stem))) add(i, i + 1, 2.2, table);
        // "cars" or "car" for mtcars.csv: a short word, glued to a short prefix.
        else if (t.stem.length === 3 && only.length > 3 && only.length <= 6 && only.endsWith(t.stem)) add(i, i + 1, 2.2, table);
        const next = tokens[i + 1];
        if (next?.kind === 'word' && `${t.norm}${next.stem}` === only) add(i, i + 2, 3, table);
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
    const same = chosen.find((s) => s.start === c.start && s.end === c.end && s.kind === c.span.kind && Math.abs(s.score - c.score) < 1e-9);
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
  return chosen.sort((a, b) => a.start - b.start);
}
