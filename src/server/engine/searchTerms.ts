/**
 * Search terms of a document passage or a question, with numbers and money written one way: a
 * question about "over 1000 dollars" must meet a passage that says "above $1,000", "1,000 USD",
 * "USD 1000" or "1k". Both sides go through the same function, so every spelling of an amount
 * becomes the same tokens: the number without thousands separators (`1000`, `2500.5`) and the
 * currency as its ISO code (`usd`, `eur`, `gbp`, `jpy`), wherever it was written.
 */

/** Currency symbols and words -> ISO code. Symmetric use means "pounds" also meets "pounds". */
const CURRENCIES: Record<string, string> = {
  $: 'usd', usd: 'usd', dollar: 'usd', dollars: 'usd', bucks: 'usd',
  '€': 'eur', eur: 'eur', euro: 'eur', euros: 'eur',
  '£': 'gbp', gbp: 'gbp', pound: 'gbp', pounds: 'gbp', sterling: 'gbp', quid: 'gbp',
  '¥': 'jpy', jpy: 'jpy', yen: 'jpy',
};

/** Scale written right after the digits ("1k", "2.5m", "3bn") or as a word after them ("2 million"). */
const ATTACHED_SCALE: Record<string, number> = { k: 1e3, m: 1e6, mn: 1e6, bn: 1e9 };
const SCALE_WORDS: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };
/** Words that stand for "1" before a scale word ("a thousand dollars"). */
const ONE = new Set(['a', 'one']);

const TOKEN = new RegExp([
  // File system paths ("/usr/local", "~/.config"): the whole path, then its parts, so "/opt" tells
  // the /opt section from "/var/opt" while "opt" still finds both.
  String.raw`(?<path>(?<![\p{L}\p{N}])(?:~|\.{1,2})?(?:/[\p{L}\p{N}_.+-]+)+/?)`,
  // A version with a range operator ("^1.2.3", "~1.2", ">=2.0.0"): that token, then the version.
  String.raw`(?<range>(?:\^|~|>=|<=|>|<|=)v?\d+(?:\.(?:\d+|[xX*])){1,2}(?:-[\p{L}\p{N}.]+)?)`,
  // Dotted numbers with three or more parts are versions or section numbers: kept as written.
  String.raw`(?<dotted>\d+(?:\.\d+){2,}(?![\d]))`,
  // European amounts ("1.250,50", "1.000.000"): dots group thousands, a comma starts the decimals.
  String.raw`(?<eu>\d{1,3}(?:\.\d{3})+,\d{1,2}(?!\d)|\d{1,3}(?:\.\d{3}){2,}(?![\d.]))`,
  // Amounts with thousands separators (comma, apostrophe, thin or no-break space) or plain numbers.
  String.raw`(?<num>\d{1,3}(?:[,'\u00a0\u202f\u2009]\d{3})+(?:\.\d+)?(?!\d)|\d+(?:\.\d+)?)(?<scale>k|mn|m|bn)?(?![\p{L}\p{N}])`,
  String.raw`(?<num2>\d+)`,
  String.raw`(?<cur>[$€£¥])`,
  String.raw`(?<word>[\p{L}\p{M}\p{N}]+(?:['’][\p{L}]+)?)`,
].join('|'), 'giu');

/** `1,000.00` -> `1000`, `2.50` -> `2.5`, with an optional scale applied. */
function canonicalNumber(integer: string, fraction: string, scale: number): string {
  if (scale !== 1) return String(Number(`${integer}.${fraction || '0'}`) * scale);
  // "1,000.00" is 1000, but "3.10" stays itself: it may be a version or a section, not 3.1.
  return /^0*$/.test(fraction) ? integer : `${integer}.${fraction}`;
}

/** True when a token is a number (possibly dotted), a path or a version range: matched exactly. */
export function isNumberTerm(term: string): boolean {
  return /^[\d/~^<>=.]/.test(term);
}

/**
 * Splits text into search terms: words as written (folding and stemming come later), numbers in
 * one canonical spelling, currency symbols and names as ISO codes.
 */
export function searchTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const g = m.groups ?? {};
    if (g['path'] !== undefined) {
      const path = g['path'].replace(/\/$/, '');
      out.push(path, ...searchTokens(path.replace(/[/~]/g, ' ')));
    } else if (g['range'] !== undefined) {
      const range = g['range'].toLowerCase();
      out.push(range, range.replace(/^[\^~<>=]+v?/, ''));
    } else if (g['dotted'] !== undefined) out.push(g['dotted']);
    else if (g['eu'] !== undefined) {
      const [integer = '', fraction = ''] = g['eu'].split(',');
      out.push(canonicalNumber(integer.replace(/\./g, ''), fraction, 1));
    } else if (g['num'] !== undefined) {
      const [integer = '', fraction = ''] = g['num'].replace(/[,'\u00a0\u202f\u2009]/g, '').split('.');
      const scale = ATTACHED_SCALE[(g['scale'] ?? '').toLowerCase()] ?? 1;
      out.push(canonicalNumber(integer, fraction, scale));
    } else if (g['num2'] !== undefined) out.push(g['num2']);
    else if (g['cur'] !== undefined) out.push(CURRENCIES[g['cur']] ?? g['cur']);
    else if (g['word'] !== undefined) {
      const word = g['word'].toLowerCase();
      const scale = SCALE_WORDS[word];
      const prev = out[out.length - 1];
      if (scale !== undefined && prev !== undefined && (/^\d+(\.\d+)?$/.test(prev) || ONE.has(prev))) {
        out[out.length - 1] = String((ONE.has(prev) ? 1 : Number(prev)) * scale);
        continue;
      }
      out.push(CURRENCIES[word] ?? g['word']);
    }
  }
  return out;
}
