/**
 * Ways two spellings may be one word: the Porter stem (`wink-porter2-stemmer`: "populous" and
 * "population" share "popul"), an abbreviation written in a data file (`bwt` for "birth weight",
 * `mfr` for "manufacturer", `NSW` for "New South Wales"), and a typo ("salery").
 */
import porter from 'wink-porter2-stemmer';
import { senses } from './wordnet';

const stemCache = new Map<string, string>();

/** The Porter stem of a folded word. */
export function stemOf(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = /^[a-z]+$/.test(word) ? porter(word) : word;
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(word, s);
  }
  return s;
}

/** Whether a folded word is an English word WordNet knows (as any part of speech). */
export function isDictionaryWord(word: string): boolean {
  return (['n', 'v', 'a', 'r'] as const).some((p) => senses(word, p, 1).length > 0);
}

/**
 * Whether `abbr` (a name or value written short) abbreviates the words `full`: its letters appear
 * in order, it starts with the first word's first letter, and every later word gives at least its
 * first letter ("bwt" of birth weight, "mpg" of miles per gallon, "mfr" of manufacturer). A
 * dictionary word is only a prefix ("temp" of temperature), so "age" never abbreviates "average".
 */
export function abbreviates(abbr: string, full: readonly string[]): boolean {
  const a = abbr.toLowerCase();
  if (!/^[a-z]{2,6}$/.test(a) || full.length === 0 || full.some((w) => !/^[a-z]+$/.test(w))) return false;
  const joined = full.join('');
  if (joined.length < a.length + 2 || a[0] !== joined[0]) return false;
  if (isDictionaryWord(a)) return full.length === 1 && a.length >= 3 && joined.startsWith(a) && joined.length >= a.length + 3;
  return spells(a, full, 0, 0, 0);
}

/** Whether `a` from letter `k` on is spelled by `full[w]` from letter `c` on and the words after it. */
function spells(a: string, full: readonly string[], k: number, w: number, c: number): boolean {
  const word = full[w];
  if (word === undefined) return k === a.length;
  if (c === 0) return a[k] === word[0] && spells(a, full, k + 1, w, 1);
  // Move on to the next word, or take (or skip) this word's next letter.
  if (spells(a, full, k, w + 1, 0)) return true;
  if (c >= word.length || k >= a.length) return false;
  return (word[c] === a[k] && spells(a, full, k + 1, w, c + 1)) || spells(a, full, k, w, c + 1);
}

/**
 * Whether a name written as one word spells several question words run together, each cut to a
 * prefix: `copperprice` is "copper price", `totemp` "total employment", `tbilrate` "t-bill rate",
 * `coutax` "council tax". Each word gives at least two letters (one when it has one), in order.
 */
export function runsTogether(name: string, words: readonly string[]): boolean {
  const w = name.toLowerCase();
  if (words.length < 2 || w.length < 4 || !/^[a-z0-9]+$/.test(w)) return false;
  const go = (at: number, k: number): boolean => {
    const word = words[k];
    if (word === undefined) return at === w.length;
    // The last word gives at least two letters; the others may give their initial (`ptratio`: pupil-teacher ratio).
    const min = k === words.length - 1 ? Math.min(2, word.length) : 1;
    for (let n = Math.min(word.length, w.length - at); n >= min; n--) if (w.startsWith(word.slice(0, n), at) && go(at + n, k + 1)) return true;
    return false;
  };
  return go(0, 0);
}

/** Edit distance with transpositions, stopping early above `cap`. */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
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

/** Whether a question word is a typo of a name word: one edit in 5-7 letters, two from 8 on. */
export function isTypo(word: string, name: string): boolean {
  if (word.length < 5 || name.length < 5 || word[0] !== name[0]) return false;
  const cap = Math.min(word.length, name.length) >= 8 ? 2 : 1;
  return editDistance(word, name, cap) <= cap;
}
