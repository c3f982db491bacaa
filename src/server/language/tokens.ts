/**
 * A question as tokens: words (with the part of speech, lemma and stop-word flag that wink-nlp's
 * English model gives them), numbers with their units, date literals, comparison operators,
 * column names written in backticks and values written in quotes.
 */
import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { fold, numberWordsValue, singular } from './words';

export type TokKind = 'word' | 'number' | 'date' | 'op' | 'name' | 'quoted';

export interface Tok {
  i: number;
  kind: TokKind;
  /** As written. */
  raw: string;
  /** Folded ("Régions" -> regions); the inner text for names and quoted values. */
  norm: string;
  /** Singular of {@link norm} (words only). */
  sing: string;
  /** The tagger's lemma ("heaviest" -> heavy, "sold" -> sell), folded. */
  lemma: string;
  /** Universal part-of-speech tag (NOUN, VERB, ADJ, DET, AUX, ADP, PRON, ...); `X` when not a word. */
  pos: string;
  /** A stop word of the tagger's English model ("the", "is", "me"). */
  stop: boolean;
  start: number;
  end: number;
  /** Numbers: the value, with k/m/bn applied (a percent keeps the written figure). */
  value?: number;
  /** Numbers: `%`, `$`, `kg`, `°c`... as written (folded). */
  unit?: string;
  /** Numbers: a plain 4-digit year (1600-2100). */
  yearLike?: boolean;
  /** Numbers: written as an ordinal ("104th", "1st", "first"). */
  ordinal?: boolean;
}

const TOKEN_RE = new RegExp([
  String.raw`(?<name>\x60[^\x60\n]{1,160}\x60)`,
  String.raw`(?<quoted>"[^"\n]{1,200}"|“[^”\n]{1,200}”)`,
  String.raw`(?<date>\d{4}-\d{1,2}-\d{1,2}|\d{4}-\d{1,2}(?![\d-])|\d{1,2}[/.]\d{1,2}[/.]\d{4})`,
  String.raw`(?<num>(?<cur>[$€£¥]\s?)?(?<neg>(?<![\p{L}\p{N}])[-−])?(?<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:(?<ord>st|nd|rd|th)(?![\p{L}])|\s?(?<suf>%|percent\b|pct\b|°\s?[cf]?|degrees?\b|k\b|m\b|mm\b|bn\b|b\b|million\b|billion\b|thousand\b|kg\b|g\b|lbs?\b|km\b|mi\b|cm\b|ms\b|s\b|usd\b|eur\b|gbp\b|dollars?\b|euros?\b|years?\b|yrs?\b|days?\b|weeks?\b|months?\b|hours?\b|minutes?\b))?)`,
  String.raw`(?<word>[\p{L}\p{M}\p{N}_]+(?:['’][\p{L}]+)?)`,
  String.raw`(?<op>>=|<=|<>|!=|=>|=<|>|<|=|%|&|\+)`,
].join('|'), 'giu');

const MULTIPLIER: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mm: 1e6, million: 1e6, bn: 1e9, b: 1e9, billion: 1e9 };
const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10 };

let tagger: WinkMethods | undefined;

function wink(): WinkMethods {
  tagger ??= winkNLP(model);
  return tagger;
}

function baseTokens(question: string): Tok[] {
  const out: Tok[] = [];
  for (const m of question.matchAll(TOKEN_RE)) {
    const g = m.groups ?? {};
    const start = m.index ?? 0;
    const raw = m[0];
    const t: Tok = { i: out.length, kind: 'word', raw, norm: '', sing: '', lemma: '', pos: 'X', stop: false, start, end: start + raw.length };
    if (g['name'] !== undefined || g['quoted'] !== undefined) {
      t.kind = g['name'] !== undefined ? 'name' : 'quoted';
      t.norm = fold(raw.slice(1, -1).trim());
    } else if (g['date'] !== undefined) {
      t.kind = 'date';
      t.norm = raw;
    } else if (g['num'] !== undefined) {
      const digits = (g['digits'] ?? '0').replace(/,/g, '');
      const suf = g['suf'] !== undefined ? fold(g['suf']).replace(/\s+/g, '') : undefined;
      const cur = g['cur']?.trim();
      t.kind = 'number';
      t.value = Number(digits) * (g['neg'] !== undefined ? -1 : 1) * (suf !== undefined ? MULTIPLIER[suf] ?? 1 : 1);
      t.norm = g['ord'] !== undefined ? digits : fold(raw);
      const unit = cur ?? (suf === 'percent' || suf === 'pct' ? '%' : suf !== undefined && MULTIPLIER[suf] === undefined ? suf : undefined);
      if (unit !== undefined) t.unit = unit;
      if (g['ord'] !== undefined) t.ordinal = true;
      if (cur === undefined && suf === undefined && g['ord'] === undefined && g['neg'] === undefined && /^\d{4}$/.test(digits) && t.value >= 1600 && t.value <= 2100) t.yearLike = true;
    } else if (g['word'] !== undefined) {
      t.norm = fold(raw).replace(/['’]s$/, '');
    } else {
      t.kind = 'op';
      t.norm = raw === '!=' ? '<>' : raw === '=>' ? '>=' : raw === '=<' ? '<=' : raw;
    }
    t.sing = t.kind === 'word' ? singular(t.norm) : t.norm;
    t.lemma = t.sing;
    out.push(t);
  }
  return out;
}

/**
 * Tags the word tokens: the tagger reads the question with every non-word token written as a
 * placeholder it tags alike (a number as "5", a name as "x"), and its tokens are matched to ours
 * by position.
 */
function tag(tokens: Tok[]): void {
  let text = '';
  const at: number[] = [];
  for (const t of tokens) {
    if (text.length > 0) text += ' ';
    at.push(text.length);
    text += t.kind === 'word' ? t.raw : t.kind === 'number' || t.kind === 'date' ? '5' : t.kind === 'op' ? ',' : 'x';
  }
  const w = wink();
  const doc = w.readDoc(text);
  const values = doc.tokens().out(w.its.value);
  const spaces = doc.tokens().out(w.its.precedingSpaces);
  const pos = doc.tokens().out(w.its.pos);
  // The typings leave out the model's add-on argument of `its.lemma`; the call is the documented one.
  const lemma = doc.tokens().out(w.its.lemma as unknown as typeof w.its.value);
  const stop = doc.tokens().out(w.its.stopWordFlag);
  let offset = 0;
  const byStart = new Map<number, number>();
  values.forEach((v, k) => {
    offset += (spaces[k] ?? '').length;
    if (!byStart.has(offset)) byStart.set(offset, k);
    offset += v.length;
  });
  tokens.forEach((t, i) => {
    const k = byStart.get(at[i] ?? -1);
    if (k === undefined || t.kind !== 'word') return;
    t.pos = pos[k] ?? 'X';
    t.stop = stop[k] === true;
    const l = fold(String(lemma[k] ?? t.norm));
    // The tagger's lemma of a plural noun may be a rarer word ("species" -> specie): the plural rule wins.
    t.lemma = t.pos === 'NOUN' || t.pos === 'PROPN' ? t.sing : /^[a-z]+$/.test(l) ? l : t.sing;
  });
}

/** Number words the tagger reads as a number ("three", "twenty five", "a dozen") become one number token. */
function mergeNumberWords(tokens: Tok[]): Tok[] {
  const out: Tok[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Tok;
    const ord = ORDINALS[t.norm];
    if (t.kind === 'word' && ord !== undefined && t.pos !== 'NOUN') {
      out.push({ ...t, kind: 'number', value: ord, ordinal: true, pos: 'NUM' });
      continue;
    }
    let j = i;
    const numeric = (x: Tok | undefined): boolean => x?.kind === 'word' && (x.pos === 'NUM' || (numberWordsValue([x.norm]) !== undefined && x.norm !== 'a' && x.norm !== 'and'));
    while (j < tokens.length && (numeric(tokens[j]) || (j > i && tokens[j]?.norm === 'and' && numeric(tokens[j + 1])))) j++;
    const words = tokens.slice(i, j).map((x) => x.norm);
    const value = j > i ? numberWordsValue(words) : undefined;
    // "which one", "the one with": a pronoun, not the number 1.
    const pronoun = words.length === 1 && words[0] === 'one' && /^(which|the|each|that|this|every|any)$/.test(tokens[i - 1]?.norm ?? '');
    if (value === undefined || pronoun) {
      out.push(t);
      continue;
    }
    const last = tokens[j - 1] as Tok;
    out.push({ ...t, kind: 'number', raw: words.join(' '), norm: String(value), sing: String(value), lemma: String(value), end: last.end, value });
    i = j - 1;
  }
  out.forEach((t, k) => (t.i = k));
  return out;
}

/** The tokens of a question, tagged. */
export function tokenize(question: string): Tok[] {
  const tokens = baseTokens(question.slice(0, 2000));
  if (tokens.some((t) => t.kind === 'word')) tag(tokens);
  return mergeNumberWords(tokens);
}
