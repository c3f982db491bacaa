/**
 * Everything each stretch of a question may name, with a cost per reading: columns (by name, a
 * word of the name, a WordNet synonym, an abbreviation written in the data, a typo), values of
 * category columns (by their words, a place name for a code, a code's initials), the rows of a
 * table (by its file name), and adjectives that stand for a column ("heaviest" for weight). The
 * grammar decides which of these readings a question uses; nothing here decides.
 */
import { antonyms, attributeNouns, broaderConcepts, conceptsOf, meet, nameConcepts, sexOfNoun } from '../language/concepts';
import { placesOfAdjective, placesOfPhrase, placesOfValue } from '../language/places';
import { abbreviates, isTypo, runsTogether, stemOf } from '../language/similar';
import type { Tok } from '../language/tokens';
import { taggedSenses } from '../language/wordnet';
import { fold, identifierWords, singular } from '../language/words';
import { dateLiterals, type DateLit } from './dateLiterals';
import type { GlossaryEntry } from '../../shared/glossary';
import { isFlag, isIdLike, isSexColumn, saysSex, soleMeasure } from './shape';
import type { ColRef, ColumnMeta, TableMeta } from './types';
import { vocabularyOf, type ValueEntry, type Vocabulary } from './vocabulary';
import { guessRows, rowsHits } from './latticeRows';

/** How a stretch of words was linked: shown in readings, and the cost behind the choice. */
export type Link = 'name' | 'word' | 'synonym' | 'abbreviation' | 'typo' | 'place' | 'initial' | 'glossary' | 'part';

/** `negated`: the word is the opposite of a yes/no column ("outdoor" for `indoor`). */
export interface ColHit { ref: ColRef; cost: number; link: Link; negated?: boolean }
/** `partial`: one word of longer values ("Lovelace"); `constant`: the one value of its column, which describes the table. */
export interface ValHit { ref: ColRef; values: string[]; cost: number; link: Link; partial?: string; constant?: boolean }
/**
 * `generic`: a word for rows of any table ("rows", "records", "readings"). `entity`: the column
 * that names what was counted when a row is one observation of it ("employees" over `person_id`
 * with repeated rows, "travellers" over `individual`): counted by its distinct values.
 */
export interface RowsHit { table: TableMeta; cost: number; generic?: boolean; entity?: ColRef; /** Read as the rows only by guess (see `guessRows`), said in the plural or not. */ guessed?: boolean; plural?: boolean }
/** An adjective standing for a column: "heaviest" ranks by weight (desc), "younger" compares age (asc). */
export interface AttrHit { ref: ColRef; dir: 'desc' | 'asc'; cost: number; /** How the adjective is said: "heaviest", "heavier", "heavy". */ degree: 'sup' | 'cmp' | 'pos' }

export interface Lattice {
  tokens: Tok[];
  tables: TableMeta[];
  col: Map<string, ColHit[]>;
  val: Map<string, ValHit[]>;
  rows: Map<string, RowsHit[]>;
  attr: Map<number, AttrHit[]>;
  /** Nouns that may name a table's rows though nothing names them ("planets" in planets.json). */
  guess: Map<number, RowsHit[]>;
  /** Calendar dates chrono found, by span. */
  date: Map<string, DateLit>;
}

export const spanKey = (from: number, to: number): string => `${from}:${to}`;
const MAX_SPAN = 4;

/** Adjectives whose degree runs down their attribute ("lightest" is the least weight). */
const LOW_POLE = new Set(['light', 'young', 'cheap', 'inexpensive', 'short', 'small', 'little', 'low', 'few', 'cold', 'cool', 'slow', 'thin', 'narrow', 'shallow', 'weak', 'poor', 'early', 'dry', 'near', 'close', 'soon', 'sparse']);
/** Superlatives the grammar reads itself (they say which way to rank, not what). */
const GRAMMAR_DEGREE = /^(high|low|large|small|big|great|most|least|few|many|much|top|best|worst|good|bad|max|min|late|last|first|recent|new|common|frequent|popular|rare)$/;

export function add<T extends { cost: number }>(map: Map<string, T[]>, key: string, hit: T, same: (a: T, b: T) => boolean): void {
  const list = map.get(key) ?? [];
  const had = list.find((x) => same(x, hit));
  if (had === undefined) list.push(hit);
  else if (hit.cost < had.cost) Object.assign(had, hit);
  map.set(key, list);
}

const sameCol = (a: ColHit, b: ColHit): boolean => a.ref.column === b.ref.column;
const sameVal = (a: ValHit, b: ValHit): boolean => a.ref.column === b.ref.column && a.values.join('\u0001') === b.values.join('\u0001');

/** The words of a token as names are compared: singular and lemma, and the text itself. */
function forms(t: Tok): string[] {
  return [...new Set([t.sing, t.norm, t.lemma])];
}

const wordish = (t: Tok | undefined): t is Tok => t !== undefined && (t.kind === 'word' || (t.kind === 'number' && t.unit === undefined && !t.ordinal));

/** A comparative or superlative ("smallest", "larger"): it ranks or compares, and abbreviates no name (`SES`). */
const degreeWord = (t: Tok): boolean => t.pos === 'ADJ' && t.lemma !== t.norm && /(est|er)$/.test(t.norm);

/** The cost of reading question token `t` as name word `w` (undefined: it does not). */
function linkWord(t: Tok, w: string): { cost: number; link: Link } | undefined {
  if (forms(t).includes(w)) return { cost: 0, link: 'name' };
  if (t.kind !== 'word' || w.length < 2 || !/^[a-z]+$/.test(w)) return undefined;
  if (t.norm.length >= 4 && w.length >= 4 && stemOf(t.norm) === stemOf(w)) return { cost: 0.2, link: 'word' };
  // An agent noun for a column of what was done: "survivors" for `survived`, "voters" for `voted`.
  if (t.pos === 'NOUN' && t.sing.length >= 6 && w.length >= 4 && /(or|er)$/.test(t.sing) && (stemOf(t.sing.slice(0, -2)) === stemOf(w) || t.sing.slice(0, -1) === w)) return { cost: 0.1, link: 'word' };
  if ((BUSINESS[t.sing] ?? BUSINESS[t.lemma] ?? []).includes(w)) return { cost: 0.6, link: 'synonym' };
  // A prefix ("pop" of population) is a surer abbreviation than scattered letters ("pl").
  if (!degreeWord(t) && (abbreviates(w, [t.sing]) || abbreviates(w, [t.norm]))) return { cost: t.norm.startsWith(w) || t.sing.startsWith(w) ? 0.7 : 1.05, link: 'abbreviation' };
  if (t.sing.length >= 3 && w.length >= 2) {
    const m = meet(conceptsOf(t.lemma, t.pos), nameConcepts(w));
    if (m !== undefined && m <= 1.6) return { cost: 0.5 + m * 0.5, link: 'synonym' };
  }
  if (isTypo(t.norm, w)) return { cost: 1.1, link: 'typo' };
  return undefined;
}

/**
 * How each question token links to each distinct word of the column names (worked out once per
 * pair: a wide table shares its name words across many columns). Wide tables are matched by
 * spelling only, since synonyms of ten thousand names would be guesses anyway.
 */
function tokenLinks(tokens: readonly Tok[], v: Vocabulary): Array<Map<string, { cost: number; link: Link }>> {
  const wide = v.byWord.size > 2000;
  return tokens.map((t) => {
    const out = new Map<string, { cost: number; link: Link }>();
    if (!wordish(t) || /^(hourly|daily|weekly|monthly|quarterly|yearly|annual|annually)$/.test(t.norm)) return out;
    if (wide) {
      for (const f of forms(t)) if (v.byWord.has(f)) out.set(f, { cost: 0, link: 'name' });
      return out;
    }
    for (const w of v.byWord.keys()) {
      const l = linkWord(t, w);
      if (l !== undefined) out.set(w, l);
    }
    return out;
  });
}

/** Business words WordNet does not relate to the column words data files use. */
const BUSINESS: Record<string, string[]> = {
  revenue: ['sale', 'turnover', 'income', 'amount', 'montant', 'umsatz', 'betrag', 'importe', 'venta', 'fatturato', 'receita', 'chiffre'], sale: ['revenue', 'amount', 'turnover'], turnover: ['revenue', 'sale'], unit: ['quantity', 'qty'],
  item: ['product', 'quantity'], amount: ['montant', 'betrag', 'importe', 'importo', 'valor'], price: ['prix', 'preis', 'precio', 'prezzo', 'preco'],
  quantity: ['quantite', 'menge', 'cantidad', 'quantita', 'quantidade'], spend: ['amount', 'revenue', 'cost'], spending: ['amount', 'expenditure', 'cost'], value: ['amount', 'revenue'],
  staff: ['employee'], employee: ['staff', 'person'], score: ['rating'], rating: ['score'], money: ['amount', 'revenue'], customer: ['client'], client: ['customer'],
  pay: ['wage', 'salary', 'income', 'earning'], earn: ['wage', 'salary', 'income', 'earning'],
};

function columnHits(lat: Lattice, v: Vocabulary): void {
  const { tokens } = lat;
  const links = tokenLinks(tokens, v);
  // The table's own noun may sit inside a name ("world steel consumption" in steel.csv).
  const tableNouns = new Set(v.tables.flatMap((t) => v.rowNouns.get(t) ?? []));
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Tok;
    if (t.kind === 'name' || (t.kind === 'word' && /[_\p{Ll}][\p{Lu}_]|_/u.test(t.raw))) {
      for (const table of v.tables) for (const column of table.columns) {
        if (column.name.toLowerCase() === t.norm || identifierWords(column.name).join(' ') === identifierWords(t.kind === 'name' ? t.norm : t.raw).join(' ')) add(lat.col, spanKey(i, i + 1), { ref: { table, column }, cost: 0, link: 'name' }, sameCol);
      }
      // `orders.csv`: the file itself, as the writer names the rows it counts.
      if (t.kind === 'name') for (const table of v.tables) if (fold(table.label) === t.norm) add(lat.rows, spanKey(i, i + 1), { table, cost: 0 }, (a, b) => a.table === b.table);
      if (t.kind === 'name') continue;
    }
    for (let j = i + 1; j <= Math.min(tokens.length, i + MAX_SPAN); j++) {
      // A possessive or article inside a name says nothing ("rate their job" for `rate_job`).
      const inner = (x: Tok, k: number): boolean => k > i && k < j - 1 && (/^(their|its|his|her|our|my|your|the|a|an)$/.test(x.norm) || tableNouns.has(x.sing));
      const span = tokens.slice(i, j).filter((x, k) => !inner(x, i + k));
      // ... nor does "per" between the words of a name of several ("gdp per cap" for `GDP.cap`; a
      // name run together, `beerpercap`, spells it).
      const unglued = span.filter((x, k) => !(k > 0 && k < span.length - 1 && x.norm === 'per'));
      if (!span.every(wordish)) break;
      // Only columns one of whose words the first token links to can be named from here.
      const candidates = new Set<ColRef>();
      for (const w of links[i]?.keys() ?? []) for (const r of v.byWord.get(w) ?? []) candidates.add(r);
      if (j - i > 1 && span.every((x) => x.kind === 'word')) for (const r of v.oneWordNames) if ((r.column.name.toLowerCase().startsWith(t.norm.slice(0, 1)))) candidates.add(r);
      // `hs_degree` from "high": a short name word may be the initials of the words starting here.
      if (j - i > 1 && span.every((x) => x.kind === 'word')) for (const r of v.shortWordNames.get(t.norm.slice(0, 1)) ?? []) candidates.add(r);
      for (const ref of candidates) {
        const words = (v.names.get(ref.column)?.core.length ?? 0) >= 2 ? unglued : span;
        const hit = nameHit(words, v.names.get(ref.column), words.map((x) => links[x.i] ?? new Map()), ref.column.kind === 'temporal');
        if (hit === undefined) continue;
        add(lat.col, spanKey(i, j), { ref, ...hit }, sameCol);
        // "orders" naming `order_id`, one per row: the rows themselves.
        if (hit.link !== 'part' && isIdLike(ref.column)) {
          // The table where the id is unique holds the things themselves, and is the better reading.
          const r: RowsHit = { table: ref.table, cost: Math.max(0, hit.cost - 0.05) + (ref.column.unique ? 0 : 0.1) };
          // Ids that repeat name things observed many times; a few duplicate rows do not make observations.
          if (!ref.column.unique && ref.column.distinct <= ref.table.rowCount / 1.5) r.entity = ref;
          add(lat.rows, spanKey(i, j), r, (a, b) => a.table === b.table);
        }
      }
    }
  }
}

/** How a stretch of question words names a column (all of its core words, in any order), if it does. */
function nameHit(span: Tok[], n: { core: string[]; optional: string[]; compact?: string } | undefined, links: ReadonlyArray<Map<string, { cost: number; link: Link }>>, dated = false): { cost: number; link: Link } | undefined {
  if (n === undefined) return undefined;
  const first = span[0] as Tok;
  if (span.length === 1 && n.compact !== undefined && forms(first).includes(n.compact)) return { cost: 0.05, link: 'name' };
  // Every question word names a different name word, and every core word is named.
  const words = [...n.core, ...n.optional];
  // `steelprice` for "steel price", `totpay` for "total payroll": one name word run together.
  // ("beer per capita" for `beerpercap`: a glue word may sit inside, never at either end.)
  const glued = span.every((t, k) => t.kind === 'word' && !degreeWord(t) && (!t.stop || (k > 0 && k < span.length - 1 && t.norm.length <= 4)));
  if (span.length >= 2 && span.length <= 4 && n.core.length === 1 && glued && runsTogether(n.core[0] ?? '', span.map((t) => t.norm))) {
    return { cost: 0.3 + 0.1 * span.length, link: 'abbreviation' };
  }
  if (span.length > words.length) {
    // "miles per gallon" for `mpg`, "birth weight" for `bwt`: a short name abbreviating several words.
    // Only the initials of every word are sure ("mpg"): `trtm` may be travel or transfer time, so
    // "travel time" is offered as a binding instead of read that way.
    const only = n.core.length === 1 ? n.core[0] ?? '' : '';
    if (only.length >= 2 && span.length <= 4 && span.every((t) => t.kind === 'word' && !t.stop && !degreeWord(t)) && span.map((t) => t.norm[0]).join('') === only) return { cost: 0.8, link: 'abbreviation' };
    // ... or several words for each name word ("high school degree" for `hs_degree`).
    if (n.core.length < 2 || span.length > words.length + 2) return undefined;
  }
  return wordByWord(span, n, words, links, dated);
}

/** Each question word (or a run of them spelling one) names a different name word, and every core word is named. */
function wordByWord(span: Tok[], n: { core: string[]; optional: string[] }, words: string[], links: ReadonlyArray<Map<string, { cost: number; link: Link }>>, dated: boolean): { cost: number; link: Link } | undefined {
  let cost = 0;
  let link: Link = 'name';
  const used = new Set<number>();
  for (let s = 0; s < span.length; s++) {
    let best: { k: number; cost: number; link: Link; take: number } | undefined;
    words.forEach((w, k) => {
      if (used.has(k)) return;
      const l = links[s]?.get(w);
      // ("cheapest housing" is no name of `HousingCost`: a superlative ranks, it names a word only as written.)
      const ranks = span.length > 1 && degreeWord(span[s] as Tok) && l?.link !== 'name';
      if (l !== undefined && !ranks && (best === undefined || l.cost < best.cost)) best = { k, ...l, take: 1 };
      // `hs_degree` for "high school degree": one name word spelled by the initials of several
      // question words, or by them run together.
      for (let take = 2; take <= 3 && s + take <= span.length; take++) {
        const group = span.slice(s, s + take);
        if (!group.every((t) => t.kind === 'word' && !t.stop)) break;
        const spelled = group.map((t) => t.norm[0]).join('') === w || (w.length >= 4 && runsTogether(w, group.map((t) => t.norm)));
        if (spelled && (best === undefined || 0.6 < best.cost)) best = { k, cost: 0.6, link: 'abbreviation', take };
      }
    });
    if (best === undefined) return undefined;
    used.add(best.k);
    cost += best.cost;
    s += best.take - 1;
    if (best.link !== 'name') link = best.link;
  }
  const coreNamed = n.core.filter((_, k) => used.has(k)).length;
  if (coreNamed === n.core.length) return { cost: cost / span.length + 0.05 * (words.length - used.size), link };
  // A word of a longer name: its last word (the head: "price" of `unit_price`) is likelier meant.
  if (span.length !== 1 || coreNamed !== 1 || link === 'typo' || link === 'abbreviation') return undefined;
  const head = used.has(n.core.length - 1);
  return { cost: cost + (head ? 0.55 : 0.9) + (dated ? 0.6 : 0), link: 'part' };
}

function valueHits(lat: Lattice, v: Vocabulary): void {
  const { tokens } = lat;
  const put = (i: number, j: number, es: readonly ValueEntry[], cost: number, link: Link, partial?: string): void => {
    const byColumn = new Map<ColRef['column'], ValueEntry[]>();
    for (const e of es) byColumn.set(e.ref.column, [...(byColumn.get(e.ref.column) ?? []), e]);
    for (const group of byColumn.values()) {
      const ref = (group[0] as ValueEntry).ref;
      // A key value that names a measure of a long table ("GDP") is likelier that measure than a filter.
      const names = ref.table.columns.some((c) => c.keyedBy?.key === ref.column.name && group.some((e) => e.value === c.keyedBy?.value));
      const hit: ValHit = { ref, values: group.map((e) => e.value), cost: cost + (names ? 0.6 : 0), link };
      if (partial !== undefined) hit.partial = partial;
      if (hit.ref.column.distinct === 1) hit.constant = true;
      add(lat.val, spanKey(i, j), hit, sameVal);
    }
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Tok;
    if (t.kind === 'quoted') {
      const ws = identifierWords(t.norm);
      const es = v.values.get(ws.join(' ')) ?? v.values.get(ws.map(singular).join(' '));
      if (es !== undefined) put(i, i + 1, es, 0, 'name');
      continue;
    }
    for (let j = i + 1; j <= Math.min(tokens.length, i + Math.max(v.longestValue, 3)); j++) {
      const span = tokens.slice(i, j);
      if (!span.every(wordish)) break;
      // ("babies" is no plural of the first name "Baby": names are matched as written.)
      const pluralOfName = span.length === 1 && t.pos === 'NOUN' && t.norm !== t.sing && t.raw === t.raw.toLowerCase();
      // (`matrix_cal` as typed: values are indexed by their words, "matrix cal".)
      const exact = v.values.get(span.map((x) => x.norm).join(' ')) ?? v.values.get(span.map((x) => x.sing).join(' '))?.filter((e) => !(pluralOfName && isNameColumn(e.ref.column)))
        ?? (span.length === 1 && t.norm.includes('_') ? v.values.get(identifierWords(t.norm).join(' ')) : undefined);
      // A lower-case function word ("by", "in", "other") is a value only right after its column's name ("race other").
      // ("always", "often": adverbs are answers a survey column may hold.)
      const weak = span.length === 1 && t.stop && t.pos !== 'ADV' && t.raw === t.raw.toLowerCase();
      const named = (e: { ref: ColRef }, k: number): boolean => k >= 0 && (v.names.get(e.ref.column)?.core ?? []).includes(tokens[k]?.sing ?? '');
      const after = weak && exact !== undefined ? exact.filter((e) => named(e, i - 1) || (/^(is|was|=|equals)$/.test(tokens[i - 1]?.norm ?? '') && named(e, i - 2))) : exact;
      // "biggest bank" is likelier the Banking category than a company called "Bank": an everyday
      // word in lower case names one of many names only when nothing else fits ("density of gold").
      const everyday = span.length === 1 && t.raw === t.raw.toLowerCase() && taggedSenses(t.lemma) >= 2;
      const named1 = everyday ? after?.filter((e) => isNameColumn(e.ref.column)) ?? [] : [];
      const kept = after?.filter((e) => !named1.includes(e));
      if (!(span.length === 1 && t.norm.length < 2 && t.raw !== t.raw.toUpperCase())) {
        if (kept !== undefined && kept.length > 0) put(i, j, kept, weak ? 0.3 : 0, 'name');
        if (named1.length > 0) put(i, j, named1, 0.7, 'name');
      }
      // "us cities": the pronoun never comes before a noun it does not follow a verb for ("show us cities").
      const usPlace = span.length === 1 && t.norm === 'us' && tokens[i + 1]?.pos === 'NOUN' && tokens[i - 1]?.pos !== 'VERB' && !/^(show|give|tell|let|get|send|help|find|list|bring|for)$/.test(tokens[i - 1]?.norm ?? '');
      const raw = usPlace ? 'US' : span.map((x) => x.raw).join(' ');
      const ids = placesOfPhrase(raw);
      for (const id of ids) {
        const es = v.places.get(id);
        if (es !== undefined) put(i, j, es, 0.3, 'place');
      }
      // "chinese holidays", "german airlines": the country the adjective is of.
      if (ids.length === 0 && span.length === 1 && !t.stop) {
        for (const id of placesOfAdjective(t.norm)) {
          const es = v.places.get(id);
          if (es !== undefined) put(i, j, es, 0.4, 'place');
        }
      }
      // "New South Wales" for NSW (initials), "victoria" for VIC (a prefix): codes written short in the data.
      if (span.every((x) => x.kind === 'word' && !x.stop && x.norm.length >= 3)) {
        // Place codes are read as places; two initials ("freight rate" and FR) prove nothing.
        const initials = span.length > 2 ? span.map((x) => x.norm[0]).join('') : undefined;
        const es = v.codes.filter((e) => {
          const code = e.value.trim().toLowerCase();
          return code.length >= 2 && placesOfValue(e.value).length === 0
            // ("season" is no SEA: an everyday word is no code.)
            && (initials === code || (span.length === 1 && code.length >= 3 && t.norm.length >= 5 && t.norm.startsWith(code) && taggedSenses(t.lemma) < 2));
        });
        if (es.length > 0) put(i, j, es, 0.8, 'abbreviation');
      }
    }
    if (t.kind !== 'word' || t.stop) continue;
    // "women" where `Sex` holds F and M; "north" where `Region` holds N, S, E, W and C: the letter
    // that stands for it in a column of such letters.
    const sex = t.pos === 'NOUN' ? sexOfNoun(t.sing) : undefined;
    const letter = sex !== undefined ? sex[0] : COMPASS[t.norm];
    if (letter !== undefined) {
      const es = (v.values.get(letter) ?? []).filter((e) => (e.ref.column.values ?? []).every((x) => x.trim().length <= 2 || (e.ref.column.nullMarkers ?? []).includes(x))
        && (sex === undefined || isSexColumn(e.ref.column)));
      if (es.length > 0) put(i, i + 1, es, 0.4, 'initial');
    }
    // "women" where `personal_status` says "female div/dep/mar": the values that say the sex in words.
    if (sex !== undefined) {
      const es = v.tables.flatMap((tb) => tb.columns.flatMap((c) => (c.kind === 'text' ? (c.values ?? []).filter((x) => saysSex(x, sex)).map((value) => ({ ref: { table: tb, column: c }, value })) : [])));
      if (es.length > 0) put(i, i + 1, es, 0.5, 'word');
    }
    // A word inside longer values ("ford" in "ford torino"); a plural noun in lower case ("companies",
    // "paintings") names the rows asked about, not a search of one value's words.
    const plural = t.pos === 'NOUN' && t.norm !== t.sing && t.raw === t.raw.toLowerCase();
    // An everyday word ("new", "image", "year") inside many names or titles is no search of them;
    // inside a few category values ("oil" in "Oil & gas operations") it may name one.
    const common = t.raw === t.raw.toLowerCase() && taggedSenses(t.lemma) >= 1;
    const found = t.norm.length >= 3 && !plural ? v.valueWords.get(t.sing) ?? v.valueWords.get(t.norm) : undefined;
    const part = common ? found?.filter((e) => !isNameColumn(e.ref.column)) : found;
    if (part !== undefined && part.length > 0) put(i, i + 1, part, t.pos === 'ADJ' ? 1.6 : 0.9, 'part', t.norm);
    // "women" for `female`, "died" for `dead`: a value word WordNet relates to the question word.
    for (const [key, es] of v.fewValues) {
      if (key.length < 3 || forms(t).includes(key)) continue;
      // "bank" for the category `Banking`: one stem.
      if (t.sing.length >= 4 && key.length >= 4 && stemOf(t.sing) === stemOf(key)) {
        put(i, i + 1, es, 0.4, 'word');
        continue;
      }
      const m = meet(t.pos === 'NOUN' || t.pos === 'PROPN' ? broaderConcepts(t.sing) : conceptsOf(t.lemma, t.pos), nameConcepts(key));
      if (m !== undefined && m <= 1.4) put(i, i + 1, es, 0.6 + m * 0.5, 'synonym');
    }
  }
}

const COMPASS: Record<string, string> = { north: 'n', northern: 'n', south: 's', southern: 's', east: 'e', eastern: 'e', west: 'w', western: 'w', central: 'c', centre: 'c', center: 'c' };

/** A column of names, titles or scopes: text with many values. */
const isNameColumn = (c: ColumnMeta): boolean => c.kind === 'text' && c.distinct > 50;

/** The quantity a unit measures, for units written in column names. */
const UNIT_QUANTITY: Record<string, string> = {
  g: 'weight', kg: 'weight', lb: 'weight', lbs: 'weight', oz: 'weight', pound: 'weight', tonne: 'weight', ton: 'weight',
  mm: 'length', cm: 'length', km: 'length', ft: 'length', inch: 'length', mi: 'distance', mile: 'distance',
  celsius: 'temperature', fahrenheit: 'temperature', degc: 'temperature', degf: 'temperature',
};

function attrHits(lat: Lattice, v: Vocabulary): void {
  lat.tokens.forEach((t, i) => {
    if (t.kind !== 'word' || t.pos !== 'ADJ' || GRAMMAR_DEGREE.test(t.lemma)) return;
    const dir = LOW_POLE.has(t.lemma) ? 'asc' : 'desc';
    const degree = t.lemma !== t.norm && /est$/.test(t.norm) ? 'sup' : t.lemma !== t.norm && /er$/.test(t.norm) ? 'cmp' : 'pos';
    const hits: AttrHit[] = [];
    for (const table of v.tables) for (const column of table.columns) {
      if (column.kind !== 'numeric' && column.kind !== 'temporal') continue;
      const n = v.names.get(column);
      const all = [...(n?.core ?? []), ...(n?.optional ?? [])];
      // `Body Mass (g)`: a unit of weight says the column is a weight ("heaviest").
      const words = [...all, ...all.map((w) => UNIT_QUANTITY[w]).filter((q): q is string => q !== undefined)].filter((w) => /^[a-z]{2,}$/.test(w));
      let best: number | undefined;
      const nouns = attributeNouns(t.lemma);
      for (const w of words) {
        const m = meet(conceptsOf(t.lemma, 'ADJ'), nameConcepts(w));
        // "coldest" with a `temp` column: the attribute (temperature) written short.
        const viaAbbr = abbreviates(w, [t.lemma]) || nouns.some((x) => x !== w && /^[a-z]+$/.test(x) && abbreviates(w, [x])) ? 0.8 : undefined;
        // (A name of three letters or less is likelier short for something: `hum` is humidity, so
        // "busiest" meeting "hum" through "humming" is no reading; `age` for "oldest" is direct.)
        const loose = m !== undefined && m > 0.5 && w.length <= 3 && !nouns.includes(w);
        const c = Math.min(loose ? 9 : m ?? 9, viaAbbr ?? 9);
        if (c < 9 && (best === undefined || c < best)) best = c;
      }
      if (best !== undefined && best <= 1.6) hits.push({ ref: { table, column }, dir, cost: 0.4 + best * 0.5, degree });
    }
    if (hits.length > 0) lat.attr.set(i, hits);
  });
}

/** "furthest east", "north of 50": compass points rank or compare a table's longitude or latitude. */
function compassHits(lat: Lattice, v: Vocabulary): void {
  lat.tokens.forEach((t, i) => {
    const m = /^(north|south|east|west)(ern|ward|wards)?$/.exec(t.norm);
    if (m === null) return;
    const axis = m[1] === 'north' || m[1] === 'south' ? /^(lat|latitude)$/ : /^(lon|lng|long|longitude)$/;
    const dir = m[1] === 'north' || m[1] === 'east' ? 'desc' : 'asc';
    const hits: AttrHit[] = [];
    for (const table of v.tables) for (const column of table.columns) if (column.kind === 'numeric' && axis.test(identifierWords(column.name)[0] ?? '')) hits.push({ ref: { table, column }, dir, cost: 0.3, degree: 'pos' });
    if (hits.length > 0) lat.attr.set(i, hits);
  });
}

/** "outdoor" readings where the data has an `indoor` yes/no column: that column, read as no. */
function oppositeHits(lat: Lattice, v: Vocabulary): void {
  lat.tokens.forEach((t, i) => {
    if (t.kind !== 'word' || t.stop || lat.col.has(spanKey(i, i + 1))) return;
    const opposite = new Set([...antonyms(t.sing), ...antonyms(t.lemma)]);
    if (opposite.size === 0) return;
    for (const table of v.tables) for (const column of table.columns) {
      const n = v.names.get(column);
      if (isFlag(column) && n !== undefined && n.core.length === 1 && opposite.has(n.core[0] ?? '')) add(lat.col, spanKey(i, i + 1), { ref: { table, column }, cost: 0.4, link: 'synonym', negated: true }, sameCol);
    }
  });
}

/** "the index", "the values" in a table with one measured column: that column. */
function soleMeasureHits(lat: Lattice, v: Vocabulary): void {
  for (const table of v.tables) {
    const only = soleMeasure(table)?.column;
    if (only === undefined) continue;
    lat.tokens.forEach((t, i) => {
      if (/^(value|index|figure|level|reading|series|number|measure|measurement|statistic|metric)$/.test(t.sing) && !lat.col.has(spanKey(i, i + 1))) add(lat.col, spanKey(i, i + 1), { ref: { table, column: only }, cost: 0.6, link: 'synonym' }, sameCol);
    });
  }
}

function glossaryHits(lat: Lattice, glossary: readonly GlossaryEntry[]): void {
  const { tokens } = lat;
  for (const g of glossary) {
    const words = g.phrase.split(' ');
    for (let i = 0; i + words.length <= tokens.length; i++) {
      if (!words.every((w, k) => tokens[i + k]?.norm === w || tokens[i + k]?.sing === w)) continue;
      const key = spanKey(i, i + words.length);
      for (const table of lat.tables) {
        const column = table.columns.find((c) => c.name === g.column);
        if (column === undefined || (g.table !== undefined && g.table !== table.label)) continue;
        const ref = { table, column };
        if (g.value !== undefined) add(lat.val, key, { ref, values: [g.value], cost: 0, link: 'glossary' }, sameVal);
        else add(lat.col, key, { ref, cost: 0, link: 'glossary' }, sameCol);
      }
    }
  }
}

/** The lattice of a question over the selected tables (and the dataset's glossary). */
export function latticeOf(question: string, tokens: Tok[], tables: TableMeta[], glossary: readonly GlossaryEntry[] = []): Lattice {
  const v = vocabularyOf(tables);
  const lat: Lattice = { tokens, tables, col: new Map(), val: new Map(), rows: new Map(), attr: new Map(), guess: new Map(), date: dateLiterals(question, tokens) };
  columnHits(lat, v);
  valueHits(lat, v);
  rowsHits(lat, v);
  attrHits(lat, v);
  // "warmest" is a ranking by its attribute, never a bare mention of the column it is near.
  lat.attr.forEach((hits, i) => {
    const key = spanKey(i, i + 1);
    if (hits.some((h) => h.degree === 'sup')) lat.col.set(key, (lat.col.get(key) ?? []).filter((h) => h.link === 'name'));
    if (lat.col.get(key)?.length === 0) lat.col.delete(key);
  });
  // "new cases", "old cars": an adjective before its noun narrows the noun; it names no column by a
  // loose WordNet relation ("new" is no `AGE`).
  tokens.forEach((t, i) => {
    const key = spanKey(i, i + 1);
    if (t.pos !== 'ADJ' || tokens[i + 1]?.pos !== 'NOUN' || !lat.col.has(key)) return;
    const kept = (lat.col.get(key) ?? []).filter((h) => h.link !== 'synonym');
    if (kept.length > 0) lat.col.set(key, kept);
    else lat.col.delete(key);
  });
  compassHits(lat, v);
  oppositeHits(lat, v);
  soleMeasureHits(lat, v);
  glossaryHits(lat, glossary);
  guessRows(lat, v);
  return lat;
}

/** Whether token `i` is inside some reading of the lattice (else it is a filler or an unknown word). */
export function bound(lat: Lattice, i: number): boolean {
  if (lat.attr.has(i)) return true;
  for (const m of [lat.col, lat.val, lat.rows, lat.date]) {
    for (const k of m.keys()) {
      const [a, b] = k.split(':').map(Number) as [number, number];
      if (a <= i && i < b) return true;
    }
  }
  return false;
}
