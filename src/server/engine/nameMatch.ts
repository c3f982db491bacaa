/**
 * How well question words name a column. Column names are written for machines (`ret_pct`,
 * `Height_in_cm`, `govtdebt`, `Wait Time min`) and questions for people ("return pct",
 * "height", "government debt", "wait time"), so a name is matched word by word in any order, with
 * its unit and glue words optional, and each word may be met by an abbreviation, a prefix
 * (`attend` of "attendance"), initials (`ev` of "electric vehicle"), a word run together
 * (`netsales` of "net sales") or another form of the word ("produced" for `producer`).
 */
import { isCueWord } from './cues';
import { ABBREVIATIONS, NAME_GLUE, SYNONYMS, UNIT_WORDS } from './lexicon';
import { identifierWords, stem, wordForms, type Token } from './text';
import type { ColumnMeta } from './types';

export interface NameShape {
  /** Words that must all be named for the whole name to match (stems). */
  core: string[];
  /** Words that may be left out: units, parenthesised parts, glue. */
  optional: string[];
  /** Abbreviation expansions per word (`qty` -> quantity). */
  alts: Map<string, string[]>;
}

const shapes = new WeakMap<ColumnMeta, NameShape>();
const TIME_WORDS = new Set(['time', 'duration', 'length', 'runtime', 'wait', 'delay', 'travel', 'trip', 'call', 'session', 'play', 'drive', 'ride', 'commute']);

/** The words of a column name, split into those a question must say and those it may omit. */
export function nameShape(c: ColumnMeta | { name: string }): NameShape {
  const cached = 'kind' in c ? shapes.get(c) : undefined;
  if (cached !== undefined) return cached;
  const inParens = new Set(identifierWords((c.name.match(/\([^)]*\)|\[[^\]]*\]/g) ?? []).join(' ')).map(stem));
  const words = identifierWords(c.name).map(stem);
  const core: string[] = [];
  const optional: string[] = [];
  words.forEach((w, i) => {
    // "min" is minutes only after a time word ("Wait Time min"); `load_min` is a minimum.
    const unit = (x: string, k: number): boolean => UNIT_WORDS.has(x) && (x !== 'min' || TIME_WORDS.has(words[k - 1] ?? ''));
    const trailingUnit = i > 0 && unit(w, i) && words.slice(i).every((x, k) => unit(x, i + k) || NAME_GLUE.has(x) || inParens.has(x));
    if (words.length > 1 && (NAME_GLUE.has(w) || inParens.has(w) || trailingUnit)) optional.push(w);
    else core.push(w);
  });
  const alts = new Map<string, string[]>();
  for (const w of [...core, ...optional]) {
    const full = ABBREVIATIONS[w];
    if (full !== undefined && full !== w) alts.set(w, [stem(full), full]);
  }
  const shape = { core: core.length > 0 ? core : words, optional, alts };
  if ('kind' in c) shapes.set(c, shape);
  return shape;
}

/** Name words too vague for a synonym to land on ("employee" is not `full_name`). */
const VAGUE = new Set(['id', 'name', 'code', 'number', 'no', 'key', 'type', 'value', 'date', 'time', 'status', 'total', 'count', 'amount', 'group', 'kind']);

/** An agent or action noun of a verb: "direct" -> director, "produce" -> producer. */
function derived(q: string, w: string): boolean {
  for (const f of [q, ...wordForms(q), ...(q.endsWith('e') ? [q.slice(0, -1)] : [])]) {
    if (f.length < 4) continue;
    if (w === `${f}al`) return true;
    if (w === `${f}or` || w === `${f}er` || w === `${f}r` || w === `${f}ion` || w === `${f}ment` || w === `${f}ing`) return true;
  }
  return false;
}

/**
 * How well one question token stands for one name word: 1 the same word or its abbreviation,
 * 0.9 another form of it, 0.85 a prefix abbreviation, 0 not at all.
 */
export function wordQuality(t: Token, w: string, alts: readonly string[] = []): number {
  if (t.kind !== 'word' && t.kind !== 'number') return 0;
  // Every reading of every question compares its words with every column's words: remembered.
  const key = `${t.kind}\u0001${t.norm}\u0001${t.stem}\u0001${w}\u0001${alts.join('\u0002')}`;
  const hit = qualityCache.get(key);
  if (hit !== undefined) return hit;
  const q = computeQuality(t, w, alts);
  if (qualityCache.size >= 200_000) qualityCache.clear();
  qualityCache.set(key, q);
  return q;
}

const qualityCache = new Map<string, number>();

function computeQuality(t: Token, w: string, alts: readonly string[]): number {
  const q = t.stem;
  const n = t.norm;
  if (q === w || n === w || alts.includes(q) || alts.includes(n)) return 1;
  const abbr = ABBREVIATIONS[q] ?? ABBREVIATIONS[n];
  if (abbr !== undefined && (stem(abbr) === w || alts.includes(stem(abbr)))) return 1;
  if (t.kind !== 'word') return 0;
  const forms = wordForms(n);
  if (forms.some((f) => f === w || stem(f) === w || alts.includes(f))) return 0.9;
  if (wordForms(w).some((f) => f === q || f === n)) return 0.9;
  // "discovery" and `discovered` share "discover".
  const theirs = wordForms(w);
  if (forms.some((f) => f.length >= 5 && theirs.includes(f))) return 0.85;
  if (derived(n, w) || derived(w, n)) return 0.85;
  if (w.length >= 3 && q.length > w.length + 1 && q.startsWith(w) && /^[a-z]+$/.test(w) && !isCueWord(n)) return 0.85;
  // "machine size" for `mach_cc`, "pay" for `salary`: a synonym only counts as part of a longer name or alone.
  if (!VAGUE.has(w) && (SYNONYMS[q] ?? []).some((x) => stem(x) === w || alts.includes(stem(x)))) return 0.7;
  return 0;
}

/** `ev` = "electric vehicle", `dpi` = "disposable personal income": initials of consecutive words. */
function initials(tokens: readonly Token[], i: number, w: string): number {
  if (w.length < 2 || w.length > 5 || !/^[a-z]+$/.test(w)) return 0;
  for (let k = 0; k < w.length; k++) {
    const t = tokens[i + k];
    if (t?.kind !== 'word' || t.norm.length < 2 || t.norm[0] !== w[k]) return 0;
  }
  return w.length;
}

const PHRASE_JOINERS = new Set(['by', 'per', 'and', 'or', 'vs', 'versus', 'with', 'for', 'in', 'on', 'at', 'to', 'from', 'than', 'where', 'over', 'across']);

/**
 * `netsales` = "net sales", `govtdebt` = "government debt": a name word written as several question words
 * run together, each possibly cut short. Returns how many tokens it takes (0: none).
 */
function runTogether(tokens: readonly Token[], i: number, w: string, skippable: ReadonlySet<string>): number {
  if (w.length < 4 || !/^[a-z0-9]+$/.test(w)) return 0;
  for (let n = 2; n <= 5; n++) {
    const span = tokens.slice(i, i + n);
    if (span.length < n || span.some((t) => t.kind !== 'word' && t.kind !== 'number')) return 0;
    // "cars by mpg" is not `carb`: words that join or compare phrases never spell a name.
    if (span.some((t) => PHRASE_JOINERS.has(t.norm))) return 0;
    // The table's own name may sit inside ("total tin output" for `totaloutput` in tin.csv).
    const sub = span.filter((t, k) => k === 0 || !skippable.has(t.stem));
    if (sub.length >= 2 && !skippable.has(span[n - 1]?.stem ?? '') && fitsExactly(sub, w)) return n;
  }
  return 0;
}

/**
 * Each token gives its whole word, a prefix of at least 3 letters, or its initial, and together
 * they spell `w` ("gross sales rate" = `grssrate`, "net unit margin" = `numargin`, "base
 * salary" = `bsal`); at least one token gives 3 letters or more, so initials alone never match.
 */
function fitsExactly(sub: readonly Token[], w: string): boolean {
  const go = (k: number, rest: string, long: boolean): boolean => {
    if (k === sub.length) return rest === '' && long;
    const word = sub[k]?.norm ?? '';
    for (let len = Math.min(word.length, rest.length); len >= 1; len--) {
      if (len < word.length && len === 2) continue;
      if (rest.startsWith(word.slice(0, len)) && go(k + 1, rest.slice(len), long || len >= 3)) return true;
    }
    return false;
  };
  return go(0, w, false);
}

/** `hwy` of "highway", `govt` of "government": letters in order, same first letter (only beside other matched words). */
function subsequence(t: Token, w: string): boolean {
  if (t.kind !== 'word' || w.length < 2 || w.length >= t.norm.length || t.norm[0] !== w[0]) return false;
  let k = 0;
  for (const ch of t.norm) if (ch === w[k]) k++;
  return k === w.length;
}

export interface NameHit {
  start: number;
  end: number;
  /** 0..1: how exactly the words name the column. */
  quality: number;
  /** Name words matched (core ones). */
  matched: number;
  /** All core words are named. */
  whole: boolean;
  /** Index into the name's core words of the head word matched, for partial hits. */
  head: boolean;
}

const GLUE_IN_QUESTION = new Set(['of', 'per', 'the', 'in', 'a', 'an', 'and', 'for', 'by', 'to', 'on', 's']);

/** Whole-name matches of a column in the question: every core word named, in any order, glue between. */
export function wholeNameHits(tokens: readonly Token[], shape: NameShape, skippable: ReadonlySet<string> = new Set()): NameHit[] {
  const out: NameHit[] = [];
  const core = shape.core;
  const maxLen = core.length + shape.optional.length + 3;
  for (let i = 0; i < tokens.length; i++) {
    const used = new Set<number>();
    let quality = 1;
    let weak = 0;
    let k = i;
    let lastMatched = -1;
    while (k < tokens.length && k - i < maxLen && used.size < core.length) {
      const t = tokens[k] as Token;
      let best = -1;
      let bestQ = 0;
      let bestGuess = false;
      let take = 1;
      core.forEach((w, ci) => {
        if (used.has(ci)) return;
        let q = wordQuality(t, w, shape.alts.get(w) ?? []);
        let len = 1;
        if (q === 0) {
          const ini = initials(tokens, k, w);
          if (ini > 1 && core.length > 1) {
            q = 0.8;
            len = ini;
          }
        }
        if (q === 0) {
          const run = runTogether(tokens, k, w, skippable);
          if (run > 1) {
            q = 0.8;
            len = run;
          }
        }
        let guess = false;
        if (q === 0 && core.length > 1 && subsequence(t, w)) {
          q = 0.65;
          guess = true;
        }
        if (q > bestQ) {
          bestGuess = guess;
          bestQ = q;
          best = ci;
          take = len;
        }
      });
      if (best >= 0) {
        used.add(best);
        quality = Math.min(quality, bestQ);
        if (bestGuess) weak++;
        k += take;
        lastMatched = k;
        continue;
      }
      const optional = shape.optional.some((w) => wordQuality(t, w) > 0);
      // Glue, and the table's own name inside a name ("total tin output" in tin.csv).
      if (optional || (t.kind === 'word' && (GLUE_IN_QUESTION.has(t.norm) || skippable.has(t.stem)) && k > i)) {
        if (optional) lastMatched = k + 1;
        k++;
        continue;
      }
      break;
    }
    // A subsequence guess needs the rest of the name to be plainly there.
    if (used.size === core.length && lastMatched > i && weak < core.length && !(weak > 0 && core.length < 2)) {
      out.push({ start: i, end: lastMatched, quality, matched: core.length, whole: true, head: true });
    }
  }
  return out;
}

/** Single question words naming one (distinctive) word of a longer name: "price" for `unit_price`. */
export function partialNameHits(tokens: readonly Token[], shape: NameShape): NameHit[] {
  const out: NameHit[] = [];
  if (shape.core.length < 2) return out;
  const head = shape.core[shape.core.length - 1];
  tokens.forEach((t, i) => {
    let best = 0;
    let isHead = false;
    for (const w of shape.core) {
      const q = wordQuality(t, w, shape.alts.get(w) ?? []);
      if (q > best || (q === best && q > 0 && w === head)) {
        best = q;
        isHead = w === head;
      }
    }
    if (best > 0) out.push({ start: i, end: i + 1, quality: best, matched: 1, whole: false, head: isHead });
  });
  return out;
}
