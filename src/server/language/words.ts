/**
 * Words as the engine compares them: folded (lower case, no accents), singular (the `pluralize`
 * package), and identifiers split into words (`unitPrice_EUR` -> unit price eur).
 */
import pluralize from 'pluralize';

/** Lower case without accents (NFKD, combining marks dropped); `ß` -> `ss`. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/ß/g, 'ss').toLowerCase();
}

const singularCache = new Map<string, string>();

/** The singular of a folded English word ("cars" -> car, "species" -> species, "mpg" -> mpg). */
export function singular(word: string): string {
  let s = singularCache.get(word);
  if (s === undefined) {
    // Codes ("ms", "q4") and words ending like plurals that are not ("bus", "gas", "physics") are
    // left alone; short irregular plurals ("men") are not.
    const irregular = word.length <= 3 && /^[a-z]+$/.test(word) && !/s$/.test(word) ? pluralize.singular(word) : word;
    // (Greek and Latin singulars end -sis, -xis, -tis, -nis ("analysis", "axis", "tennis"); "emojis",
    // "kiwis" and "wikis" are plurals of words ending in i.)
    s = word.length <= 3 ? irregular : !/^[a-z]+$/.test(word) || /(ss|us|[sxtnrhldv]is|ics)$/.test(word) ? word : pluralize.singular(word);
    if (singularCache.size > 50_000) singularCache.clear();
    singularCache.set(word, s);
  }
  return s;
}

/** Whether a folded word is written as a plural ("cars", "people"). */
export function isPlural(word: string): boolean {
  return singular(word) !== word;
}

/**
 * Words of an identifier or phrase: split at non-alphanumerics and camelCase humps, folded.
 * `unitPrice_EUR` -> `unit price eur`, `LOANS202` -> `loans 202`, `PCsales` -> `pc sales`.
 */
export function identifierWords(name: string): string[] {
  const spaced = name
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(?<!\p{Lu})(\p{Lu}{2})(\p{Ll}{3,})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L}{3,})(\d)/gu, '$1 $2');
  return fold(spaced).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, dozen: 12,
};
const SCALE: Record<string, number> = { hundred: 100, thousand: 1e3, million: 1e6, billion: 1e9 };

/**
 * The value of number words the tagger found together ("twenty five", "one hundred and twenty",
 * "a dozen"), or undefined when they are not number words.
 */
export function numberWordsValue(words: readonly string[]): number | undefined {
  let total = 0;
  let part = 0;
  let seen = false;
  for (const w of words) {
    if (w === 'and' || w === 'a') continue;
    const small = SMALL[w];
    const scale = SCALE[w];
    if (small !== undefined) part += small;
    else if (scale !== undefined) {
      part = (part === 0 ? 1 : part) * scale;
      if (scale >= 1000) {
        total += part;
        part = 0;
      }
    } else return undefined;
    seen = true;
  }
  return seen ? total + part : undefined;
}
