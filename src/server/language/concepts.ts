/**
 * What a word means, as WordNet synsets, so a question word meets a column word it is not spelled
 * like: "gender" and `sex` share a synset; "earn" leads to wages, "heaviest" to weight (an
 * adjective's attribute), "japanese" to Japan (its pertainym), "invest" to investment (a
 * derivation). Each synset reached carries a cost: the further the path and the rarer the sense,
 * the higher, so a direct name always beats a synonym and a synonym beats a derivation.
 */
import { follow, senses, synsetAt, type Synset, type WordPos } from './wordnet';

/** Synset key (`n05034009`) -> cost of reaching it. */
export type Concepts = Map<string, number>;

/** WordNet's lexicographer file of nouns of attributes (weight, expensiveness, age). */
const NOUN_ATTRIBUTE = 7;

const key = (s: Synset): string => `${s.pos}${s.offset}`;

function put(out: Concepts, s: Synset, cost: number): void {
  const k = key(s);
  const had = out.get(k);
  if (had === undefined || cost < had) out.set(k, cost);
}

const cache = new Map<string, Concepts>();

/**
 * The concepts of a question word, given its lemma and (when known) the tagger's part of speech:
 * its own senses, and for adjectives, adverbs and verbs the nouns they lead to.
 */
export function conceptsOf(lemma: string, tag?: string): Concepts {
  const k = `${lemma}|${tag ?? ''}`;
  const hit = cache.get(k);
  if (hit !== undefined) return hit;
  const out: Concepts = new Map();
  const wants = (p: WordPos): boolean => tag === undefined || tag === 'X' || tag === 'PROPN'
    || (p === 'n' && tag === 'NOUN') || (p === 'a' && tag === 'ADJ') || (p === 'v' && tag === 'VERB') || (p === 'r' && tag === 'ADV')
    // Taggers often call a noun of a two-word name an adjective ("birth weight") and the other way round.
    || (p === 'n' && tag === 'ADJ') || (p === 'a' && tag === 'NOUN') || (p === 'v' && tag === 'NOUN') || (p === 'n' && tag === 'VERB');
  if (wants('n')) senses(lemma, 'n', 3).forEach((s, i) => put(out, s, 0.5 + 0.25 * i));
  if (wants('a')) {
    senses(lemma, 'a', 3).forEach((s, i) => {
      const c = 0.25 * i;
      put(out, s, 0.6 + c);
      for (const t of follow(s, '=')) put(out, t, 0.6 + c);
      for (const t of follow(s, '\\')) put(out, t, 0.6 + c);
      for (const t of follow(s, '+')) {
        if (t.pos !== 'n') continue;
        put(out, t, 0.9 + c);
        // "expensive" -> expensiveness, a kind of price: an attribute noun's broader sense is meant too.
        if (t.lex === NOUN_ATTRIBUTE) for (const h of follow(t, '@')) put(out, h, 1.2 + c);
      }
    });
  }
  if (wants('r')) {
    for (const s of senses(lemma, 'r', 2)) for (const a of follow(s, '\\')) for (const t of [...follow(a, '='), ...follow(a, '+')]) put(out, t, 1.1);
  }
  if (wants('v')) {
    senses(lemma, 'v', 2).forEach((s, i) => {
      put(out, s, 0.8 + 0.25 * i);
      for (const t of follow(s, '+')) if (t.pos === 'n') put(out, t, 0.9 + 0.25 * i);
    });
  }
  if (cache.size > 20_000) cache.clear();
  cache.set(k, out);
  return out;
}

/** The concepts a column or value word stands for: its noun senses, else its other senses. */
export function nameConcepts(lemma: string): Concepts {
  const k = `name|${lemma}`;
  const hit = cache.get(k);
  if (hit !== undefined) return hit;
  const out: Concepts = new Map();
  // A column's word is its commonest senses first; rarer ones still count ("sex" is gender in its fourth).
  senses(lemma, 'n', 5).forEach((s, i) => put(out, s, 0.15 * i));
  // `survived`, `married`, `smoker`: a verb or adjective column is met by its nouns too ("survival").
  senses(lemma, 'v', 1).forEach((s) => {
    put(out, s, 0.3);
    for (const t of follow(s, '+')) if (t.pos === 'n') put(out, t, 0.5);
  });
  senses(lemma, 'a', 1).forEach((s) => {
    put(out, s, 0.3);
    for (const t of follow(s, '=')) put(out, t, 0.4);
    for (const t of follow(s, '\\')) put(out, t, 0.4);
    for (const t of follow(s, '+')) if (t.pos === 'n') put(out, t, 0.5);
  });
  if (cache.size > 20_000) cache.clear();
  cache.set(k, out);
  return out;
}

/** The cheapest meeting of two concept sets (undefined when they share nothing). */
export function meet(a: Concepts, b: Concepts): number | undefined {
  let best: number | undefined;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [k, c] of small) {
    const d = large.get(k);
    if (d !== undefined && (best === undefined || c + d < best)) best = c + d;
  }
  return best;
}

/**
 * WordNet's lexicographer file of a verb's commonest sense: verbs of being, having, getting and
 * moving (`stative` 42, `possession` 40, `motion` 38, `creation` 36, `social` 41) frame a
 * question about rows ("customers who bought", "how many people work in") without naming data.
 */
export function verbFile(lemma: string): number | undefined {
  return senses(lemma, 'v', 1)[0]?.lex;
}

/**
 * Whether a noun names people: WordNet files it among nouns of persons (voter, patient, worker),
 * or it is the top concept of a person itself ("person", "individual", "people").
 */
export function isPersonNoun(lemma: string): boolean {
  return senses(lemma, 'n', 2).some((s) => s.lex === 18 || (s.lex === 3 && s.words.includes('person')));
}

/**
 * Whether a noun names people of one sex ("women", "boys", "widows"): WordNet puts a female or male
 * person within two steps above it. Such a noun is a subset of a table's people, never all of them.
 */
export function isSexedNoun(lemma: string): boolean {
  return sexOfNoun(lemma) !== undefined;
}

/** The sex a noun of people names ("women": female), from the nearest female or male person above it. */
export function sexOfNoun(lemma: string): 'female' | 'male' | undefined {
  let level = senses(lemma, 'n', 2);
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    for (const s of level) {
      const w = s.words.find((x) => /^(fe)?male( person)?$/.test(x));
      if (w !== undefined) return w.startsWith('female') ? 'female' : 'male';
    }
    level = level.flatMap((s) => follow(s, '@'));
  }
  return undefined;
}

/** Whether a noun's commonest sense is an act ("vote", "sale", "purchase"): what a column of counts or shares counts. */
export function isActNoun(lemma: string): boolean {
  return senses(lemma, 'n', 1)[0]?.lex === 4;
}

/** Whether a noun names a group of people or things ("forces", "members" of a body). */
export function isGroupNoun(lemma: string): boolean {
  return senses(lemma, 'n', 2).some((s) => s.lex === 14);
}

/** The nouns an adjective is an attribute of ("cold" -> temperature), as lemmas, for names written short (`temp`). */
export function attributeNouns(lemma: string): string[] {
  return senses(lemma, 'a', 2).flatMap((s) => follow(s, '=')).flatMap((s) => s.words);
}

/**
 * Question-word concepts one step more general for nouns ("woman" is a female person): values of
 * a category are often written as the broader word (`female`, `male`).
 */
export function broaderConcepts(lemma: string): Concepts {
  const out: Concepts = new Map(conceptsOf(lemma, 'NOUN'));
  senses(lemma, 'n', 2).forEach((s, i) => {
    for (const h of follow(s, '@')) put(out, h, 0.9 + 0.25 * i);
  });
  return out;
}

/** The antonyms of an adjective's first sense ("light" for heavy), as lemmas. */
export function antonyms(lemma: string): string[] {
  const s = senses(lemma, 'a', 1)[0];
  if (s === undefined) return [];
  return s.ptrs.filter((p) => p.sym === '!').flatMap((p) => synsetAt(p.pos, p.offset)?.words.slice(0, 1) ?? []);
}

/**
 * Whether a noun names a kind of what another names, in WordNet's hypernym chain within `depth`
 * steps ("cormorant" is a kind of "bird" in 4, "fatality" of "death" in 1). Only the commonest two
 * senses of the specific noun are followed.
 */
export function isKindOf(specific: string, general: string, depth: number): boolean {
  if (specific === general) return false;
  const key = `${specific}|${general}|${depth}`;
  let found = kindCache.get(key);
  if (found === undefined) {
    found = false;
    let level = senses(specific, 'n', 2);
    for (let d = 0; d < depth && level.length > 0 && !found; d++) {
      level = level.flatMap((s) => [...follow(s, '@'), ...follow(s, '@i')]);
      found = level.some((s) => s.words.includes(general));
    }
    if (kindCache.size > 20_000) kindCache.clear();
    kindCache.set(key, found);
  }
  return found;
}
const kindCache = new Map<string, boolean>();

/**
 * Whether a verb or noun says an amount changed ("grow", "increase", "growth", "decline"): WordNet
 * puts "change magnitude" within three steps above the verb (or the verb a noun derives from).
 */
export function isChangeOfAmount(lemma: string, tag: string): boolean {
  const verbs = tag === 'VERB' ? senses(lemma, 'v', 2) : tag === 'NOUN' ? senses(lemma, 'n', 2).flatMap((s) => follow(s, '+')).filter((s) => s.pos === 'v').slice(0, 4) : [];
  let level = verbs;
  for (let d = 0; d < 3 && level.length > 0; d++) {
    level = level.flatMap((s) => follow(s, '@'));
    if (level.some((s) => s.words.includes('change magnitude'))) return true;
  }
  return false;
}
