/**
 * Text normalisation shared by question understanding and the schema index: questions and column
 * names are compared as folded (lower case, no accents), singular word stems, so "Régions",
 * "regions" and a column `region` meet.
 */

/** Lower case without accents (NFKD, combining marks dropped); `ß` -> `ss`. */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/ß/g, 'ss').toLowerCase();
}

const IRREGULAR: Record<string, string> = {
  people: 'person', children: 'child', men: 'man', women: 'woman', data: 'data', media: 'media', criteria: 'criterion',
  series: 'series', species: 'species', news: 'news', analyses: 'analysis', indices: 'index', matrices: 'matrix',
  gases: 'gas', buses: 'bus', statuses: 'status', viruses: 'virus', campuses: 'campus', bonuses: 'bonus', censuses: 'census',
  lives: 'life', wives: 'wife', knives: 'knife', leaves: 'leaf', halves: 'half', mice: 'mouse', teeth: 'tooth', feet: 'foot',
  geese: 'goose', movies: 'movie', cookies: 'cookie', calories: 'calorie', zombies: 'zombie', pies: 'pie', ties: 'tie',
};
/** Words ending in s that are not plurals. */
const KEEP_S = /(ss|us|is|ous|ics)$/;

/** Singular stem of a folded English word (a light stemmer: plurals only, never verbs). */
export function stem(word: string): string {
  const irregular = IRREGULAR[word];
  if (irregular !== undefined) return irregular;
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (KEEP_S.test(word)) return word;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/**
 * Other forms a question word may take of a data word: "rainy" and "raining" of `rain`, "sunny" of
 * `sun`, "produced" of `produce`, "happiness" of `happy`. Used to link names and values only
 * when the word itself does not match.
 */
export function wordForms(word: string): string[] {
  const hit = formsCache.get(word);
  if (hit !== undefined) return hit;
  const forms = computeForms(word);
  if (formsCache.size >= 50_000) formsCache.clear();
  formsCache.set(word, forms);
  return forms;
}

/** Forms by word: every question checks every name word against them (a pure function, so remembered). */
const formsCache = new Map<string, string[]>();

function computeForms(word: string): string[] {
  const out = new Set<string>();
  const add = (x: string): void => {
    if (x.length >= 3 && x !== word) out.add(x);
  };
  if (/([^aeiou])\1y$/.test(word)) add(word.slice(0, -2));
  if (word.endsWith('y') && word.length > 4) add(word.slice(0, -1));
  if (word.endsWith('ing') && word.length > 5) {
    add(word.slice(0, -3));
    add(`${word.slice(0, -3)}e`);
    if (/([^aeiou])\1ing$/.test(word)) add(word.slice(0, -4));
  }
  if (word.endsWith('ed') && word.length > 4) {
    add(word.slice(0, -2));
    add(word.slice(0, -1));
    if (/([^aeiou])\1ed$/.test(word)) add(word.slice(0, -3));
    if (word.endsWith('ied')) add(`${word.slice(0, -3)}y`);
  }
  if (word.endsWith('ness') && word.length > 6) add(word.slice(0, -4));
  if (/(north|south|east|west)ern$/.test(word)) add(word.slice(0, -3));
  if (word.endsWith('ity') && word.length > 6) add(word.slice(0, -3));
  return [...out];
}

/**
 * Words of an identifier or phrase: split at non-alphanumerics and camelCase humps, folded.
 * `unitPrice_EUR` -> `unit price eur`.
 */
export function identifierWords(name: string): string[] {
  const spaced = name
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    // "PCsales", "IDcode": a two-letter acronym before a word; longer runs end with the next word's capital ("HTMLParser").
    .replace(/(?<!\p{Lu})(\p{Lu}{2})(\p{Ll}{3,})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    // `LOANS202` is "loans 202"; a short letter run before digits stays a code (`q4`, `mp3`).
    .replace(/(\p{L}{3,})(\d)/gu, '$1 $2');
  return fold(spaced).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

/**
 * `name`: a column written in backticks (`load_max`), as the engine's own suggested questions do;
 * `quoted`: a value in double quotes ("Ada Lovelace"). Both link exactly, never fuzzily.
 */
export type TokenKind = 'word' | 'number' | 'date' | 'op' | 'name' | 'quoted';

export interface Token {
  kind: TokenKind;
  /** Text as written. */
  raw: string;
  /** Folded text. */
  norm: string;
  /** Singular stem of {@link norm} (words only; other kinds repeat norm). */
  stem: string;
  start: number;
  end: number;
  /** Numbers: the value, with k/m/bn and percent applied (percent keeps the written figure). */
  value?: number;
  /** Numbers: `%`, `$`, `€`, `°c`, `kg`... as written (folded). */
  unit?: string;
  /** Numbers: true when written like a plain 4-digit year. */
  yearLike?: boolean;
  /** Numbers: written as an ordinal ("104th", "1st"). */
  ordinal?: boolean;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, fifty: 50, hundred: 100, dozen: 12,
};

const TOKEN_RE = new RegExp([
  String.raw`(?<name>\x60[^\x60\n]{1,160}\x60)`,
  String.raw`(?<quoted>"[^"\n]{1,200}"|“[^”\n]{1,200}”)`,
  // ISO date, year-month, day/month/year with slashes or dots
  String.raw`(?<date>\d{4}-\d{1,2}-\d{1,2}|\d{4}-\d{1,2}(?![\d-])|\d{1,2}[/.]\d{1,2}[/.]\d{4})`,
  // number with optional currency before and unit/suffix after
  String.raw`(?<num>(?<cur>[$€£¥]\s?)?(?<neg>(?<![\p{L}\p{N}])[-−])?(?<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:(?<ord>st|nd|rd|th)(?![\p{L}])|\s?(?<suf>%|percent\b|pct\b|°\s?[cf]?|degrees?\b|k\b|m\b|mm\b|bn\b|million\b|thousand\b|kg\b|g\b|km\b|ms\b|usd\b|eur\b|gbp\b|dollars?\b|euros?\b))?)`,
  String.raw`(?<word>[\p{L}\p{M}\p{N}_]+(?:['’][\p{L}]+)?)`,
  String.raw`(?<op>>=|<=|<>|!=|=>|=<|>|<|=)`,
].join('|'), 'giu');

const MULTIPLIER: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, million: 1e6, bn: 1e9 };

/** Splits a question into words, numbers (with units), date literals and comparison operators. */
export function tokenize(question: string): Token[] {
  const out: Token[] = [];
  for (const m of question.matchAll(TOKEN_RE)) {
    const g = m.groups ?? {};
    const start = m.index ?? 0;
    const raw = m[0];
    const end = start + raw.length;
    if (g['name'] !== undefined || g['quoted'] !== undefined) {
      const inner = fold(raw.slice(1, -1).trim());
      out.push({ kind: g['name'] !== undefined ? 'name' : 'quoted', raw, norm: inner, stem: inner, start, end });
    } else if (g['date'] !== undefined) {
      out.push({ kind: 'date', raw, norm: raw, stem: raw, start, end });
    } else if (g['num'] !== undefined) {
      const digits = (g['digits'] ?? '0').replace(/,/g, '');
      let value = Number(digits) * (g['neg'] !== undefined ? -1 : 1);
      const suf = g['suf'] !== undefined ? fold(g['suf']).replace(/\s+/g, '') : undefined;
      const cur = g['cur'] !== undefined ? g['cur'].trim() : undefined;
      const mult = suf !== undefined ? MULTIPLIER[suf] : undefined;
      if (mult !== undefined) value *= mult;
      const unit = cur ?? (suf === 'percent' || suf === 'pct' ? '%' : suf);
      const ordinal = g['ord'] !== undefined;
      const t: Token = { kind: 'number', raw, norm: ordinal ? digits : fold(raw), stem: ordinal ? digits : fold(raw), start, end, value };
      if (ordinal) t.ordinal = true;
      if (unit !== undefined) t.unit = unit;
      if (cur === undefined && suf === undefined && !ordinal && g['neg'] === undefined && /^\d{4}$/.test(digits) && value >= 1600 && value <= 2100) t.yearLike = true;
      out.push(t);
    } else if (g['word'] !== undefined) {
      const norm = fold(raw).replace(/['’]s$/, '');
      const n = NUMBER_WORDS[norm];
      if (n !== undefined) out.push({ kind: 'number', raw, norm, stem: norm, start, end, value: n });
      else out.push({ kind: 'word', raw, norm, stem: stem(norm), start, end });
    } else {
      const op = raw === '!=' ? '<>' : raw === '=>' ? '>=' : raw === '=<' ? '<=' : raw;
      out.push({ kind: 'op', raw, norm: op, stem: op, start, end });
    }
  }
  return out;
}

/** Words that carry no data meaning by themselves. */
export const STOP_WORDS = new Set([
  'a', 'an', 'the', 'of', 'for', 'in', 'on', 'at', 'to', 'by', 'per', 'with', 'without', 'and', 'or', 'what', 'which',
  'who', 'whose', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'do', 'doe', 'does', 'did', 'how', 'me', 'show', 'give',
  'list', 'tell', 'find', 'get', 'display', 'please', 'can', 'could', 'would', 'should', 'you', 'i', 'we', 'our', 'my',
  'your', 'their', 'there', 'this', 'that', 'these', 'those', 'it', 'its', 'all', 'each', 'every', 'from', 'as', 'than',
  'then', 'have', 'ha', 'has', 'had', 'into', 'across', 'over', 'under', 'between', 'among', 'about', 'some', 'any', 'only',
  'just', 'also', 'now', 'same', 'again', 'instead', 'much', 'many', 'more', 'most', 'less', 'least', 'fewer', 'where',
  'when', 'why', 'whether', 'if', 'not', 'no', 'yes', 'so', 'up', 'out', 'off', 'here', 'there', 'one', 'ones', 'thing',
  'value', 'number', 'amount', 'data', 'dataset', 'table', 'file', 'record', 'row', 'entry', 'line', 'column', 'field',
  'overall', 'total', 'sum', 'average', 'avg', 'mean', 'median', 'count', 'min', 'max', 'minimum', 'maximum', 'highest',
  'lowest', 'largest', 'smallest', 'biggest', 'top', 'bottom', 'best', 'worst', 'rank', 'ranked', 'ranking', 'sort',
  'sorted', 'order', 'ordered', 'group', 'grouped', 'broken', 'down', 'split', 'breakdown', 'distinct', 'unique',
  'different', 'share', 'percentage', 'percent', 'proportion', 'fraction', 'trend', 'time', 'distribution', 'histogram',
  'correlation', 'correlated', 'correlate', 'relationship', 'related', 'missing', 'null', 'empty', 'blank', 'duplicate',
  'outlier', 'compare', 'comparison', 'versus', 'vs', 'v', 'against', 'like', 'look', 'looks', 'see', 'chart', 'graph',
  'plot', 'visualize', 'table', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'annual', 'annually', 'hourly',
  'day', 'week', 'month', 'quarter', 'year', 'hour', 'decade', 'date', 'since', 'before', 'after', 'during', 'until', 'through',
  'last', 'first', 'latest', 'recent', 'above', 'below', 'greater', 'higher', 'lower', 'larger', 'smaller', 'bigger',
  'least', 'exactly', 'equal', 'equals', 'typical', 'common', 'popular', 'frequent', 'often', 'generate', 'generated',
  'made', 'make', 'happen', 'happened', 'change', 'changed', 'evolve', 'evolved',
  'develop', 'go', 'went', 'come', 'came', 'per', 'versus', 'respectively', 'together', 'combined', 'altogether',
  'including', 'include', 'excluding', 'exclude', 'except', 'other', 'than', 'whole', 'entire', 'across', 'spread',
  'range', 'level', 'them', 'they', 'he', 'she', 'his', 'her', 'us', 'will', 'shall', 'may', 'might', 'must',
  'term', 'terms', 'within', 'based', 'using', 'use', 'across', 'contain', 'contains', 'containing', 'kind', 'type',
  'want', 'need', 'know', 'like', 'see', 'tell', 'explain', 'summarize', 'summary', 'overview', 'describe',
  // Verbs that carry no data meaning of their own ("customers who bought", "orders placed").
  'bought', 'buy', 'buys', 'purchased', 'purchase', 'placed', 'place', 'paid', 'pay', 'happen', 'happens', 'occurred',
  'occur', 'signed', 'joined', 'work', 'works', 'worked', 'working', 'live', 'lives', 'lived', 'started', 'start',
  'ended', 'received', 'got', 'brought', 'bring', 'recorded', 'record', 'measured', 'reported', 'registered', 'came',
  'coming', 'belong', 'belongs', 'stand', 'say', 'says', 'think', 'mean', 'means', 'per', 'people', 'person',
  'anyone', 'someone', 'everyone', 'everything', 'something', 'anything', 'ever', 'still', 'already', 'yet',
  // Words for the data set itself, and qualifiers that add nothing to a calculation.
  'survey', 'sample', 'sheet', 'spreadsheet', 'database', 'csv', 'json', 'excel', 'listed', 'known', 'given', 'available',
  'recorded', 'reported', 'strongly', 'strong', 'closely', 'weakly', 'tightly', 'actually', 'really', 'roughly', 'approximately',
  'around', 'about', 'exact', 'precisely', 'currently', 'altogether', 'overall', 'ok', 'okay', 'hey', 'hi', 'thanks', 'thank',
  'whats', 'what\'s', 'hows', 'there\'s', 'theres', 'let', 'lets', 'quick', 'quickly', 'precise', 'just', 'guess',
  'but', 'however', 'though', 'although', 'instead', 'rather', 'also', 'too', 'well', 'both', 'either', 'neither',
  'lie', 'lies', 'located', 'situated', 'sit', 'sits', 'lay', 'found', 'appear', 'appears', 'exist', 'exists', 'seen',
]);

/** Grammar words: never part of a column or value mention on their own. */
export const FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'of', 'for', 'in', 'on', 'at', 'to', 'by', 'per', 'with', 'and', 'or', 'what', 'which', 'who', 'is',
  'are', 'was', 'were', 'be', 'do', 'does', 'did', 'how', 'me', 'i', 'we', 'our', 'my', 'your', 'their', 'this', 'that',
  'these', 'those', 'it', 'its', 'all', 'each', 'every', 'from', 'as', 'than', 'then', 'has', 'have', 'had', 'into',
  'over', 'under', 'between', 'about', 'any', 'some', 'not', 'no', 'show', 'give', 'list', 'tell', 'find', 'get', 'many',
  'much', 'more', 'most', 'less', 'least', 'there', 'where', 'when', 'why', 'if', 'so', 'can', 'you', 'please',
]);

/** Month names and abbreviations (folded) -> month number. */
export const MONTHS: Record<string, number> = {
  january: 1, jan: 1, february: 2, feb: 2, march: 3, mar: 3, april: 4, apr: 4, may: 5, june: 6, jun: 6, july: 7,
  jul: 7, august: 8, aug: 8, september: 9, sep: 9, sept: 9, october: 10, oct: 10, november: 11, nov: 11, december: 12,
  dec: 12,
};
