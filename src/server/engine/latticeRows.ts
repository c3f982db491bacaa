/**
 * The rows a question may be about, in its lattice: words for rows in general, the file's own name,
 * people (WordNet's nouns of persons) over a table of people and the key that names them, and nouns
 * only guessed to name a table's rows. Split from lattice.ts, which reads columns and values.
 */
import { conceptsOf, isKindOf, isPersonNoun, isSexedNoun, meet, nameConcepts } from '../language/concepts';
import type { Tok } from '../language/tokens';
import { senses } from '../language/wordnet';
import { fold, identifierWords, isPlural, singular } from '../language/words';
import { add, bound, spanKey, type Lattice, type RowsHit } from './lattice';
import { isKeyword } from './parser';
import { isFlag, isIdLike, isIdName, isSexColumn } from './shape';
import type { ColRef, TableMeta } from './types';
import type { Vocabulary } from './vocabulary';

/** A column naming the people rows are about, repeated over rows (`individual`, `patient_id`). */
function entityColumn(table: TableMeta): ColRef | undefined {
  // An id, or a column named for a person whose values are many and repeat (`individual` 1..210 over 840 rows).
  const c = table.columns.find((x) => !x.unique && x.distinct >= 10 && x.distinct <= table.rowCount / 1.5 && (x.kind === 'text' || (x.kind === 'numeric' && Number.isInteger(x.min)))
    // (Codes of things, `School` 1224..9586, key the things, not the people in the rows.)
    && ((isIdLike(x) && !(x.role === 'id' && !isIdName(x))) || (identifierWords(x.name).length === 1 && isPersonNoun(singular(x.name.toLowerCase())))));
  return c !== undefined ? { table, column: c } : undefined;
}

/** Words for people in general; any other person noun names a role ("voter", "customer"). */
const ANYONE = /^(person|people|individual|human|adult|someone|somebody|respondent|participant|subject|traveller|traveler|member)$/;

/** The id column of a people table (`customer_id`), when its noun is a role. */
function idOfPeople(table: TableMeta): ColRef | undefined {
  const c = table.columns.find((x) => isIdLike(x) && isPersonNoun(singular(identifierWords(x.name)[0] ?? '')));
  return c !== undefined ? { table, column: c } : undefined;
}

/** Whether a person noun may name the rows whose key is `entity`: a general word, or the key's own role. */
function fitsPeople(word: string, entity: ColRef | undefined): boolean {
  if (ANYONE.test(word) || entity === undefined) return true;
  const role = singular(identifierWords(entity.column.name)[0] ?? '');
  return !isPersonNoun(role) || ANYONE.test(role) || role === word;
}


/** Whether a table's rows are people: it has an age, a sex or gender, or a column naming persons. */
export function rowsArePeople(table: TableMeta): boolean {
  return table.columns.some((c) => /^(age|sex|gender|male|female)$/i.test(identifierWords(c.name)[0] ?? '')) || entityColumn(table) !== undefined;
}

/** Words for the rows of whatever table is asked about. */
const ROW_WORDS = /^(row|record|entry|observation|line|reading|measurement|data point|case|item)$/;

export function rowsHits(lat: Lattice, v: Vocabulary): void {
  const { tokens } = lat;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Tok;
    if (t.kind !== 'word') continue;
    if (ROW_WORDS.test(t.sing) && t.pos !== 'VERB') for (const table of v.tables) add(lat.rows, spanKey(i, i + 1), { table, cost: 0.2, generic: true }, (a, b) => a.table === b.table);
    // "voters", "patients", "travellers": people (WordNet's nouns of persons) are what a table's rows
    // are about; a column naming them (`individual`) counts them when they repeat.
    // A column the word names exactly (`passengers`) is what it means.
    // ... as is a yes/no column the agent noun comes from ("survivors": `Survived`).
    const named = (t.sing !== t.norm && (lat.col.get(spanKey(i, i + 1)) ?? []).some((h) => h.cost === 0 && fold(h.ref.column.name) === t.norm))
      || (lat.col.get(spanKey(i, i + 1)) ?? []).some((h) => h.ref.column.kind === 'boolean' && h.cost <= 0.1)
      // ("smokers" where `Smoke` holds Current, Past...: some of the rows, which that column tells apart.)
      || (lat.col.get(spanKey(i, i + 1)) ?? []).some((h) => h.link === 'word' && h.cost <= 0.1);
    // "smokers" where `Smoke` holds Current, Past, Nonsmoker: which of them is meant is for the user to say.
    const agentOf = (lat.col.get(spanKey(i, i + 1)) ?? []).filter((h) => h.link === 'word' && h.cost <= 0.1 && h.ref.column.kind !== 'boolean' && !isFlag(h.ref.column));
    if (agentOf.length > 0 && t.pos === 'NOUN' && isPersonNoun(t.sing)) {
      const rest = (lat.col.get(spanKey(i, i + 1)) ?? []).filter((h) => !agentOf.includes(h));
      if (rest.length > 0) lat.col.set(spanKey(i, i + 1), rest);
      else lat.col.delete(spanKey(i, i + 1));
      continue;
    }
    if (t.pos === 'NOUN' && !named && !isKeyword(t.norm) && !lat.val.has(spanKey(i, i + 1)) && isPersonNoun(t.sing)) {
      const people = v.tables.filter(rowsArePeople);
      // "voters" in a table of voters: the people, not `voting` (a derivation is no name).
      if (people.length > 0) lat.col.set(spanKey(i, i + 1), (lat.col.get(spanKey(i, i + 1)) ?? []).filter((h) => h.cost <= 0.5 || h.ref.column.kind === 'boolean'));
      if (lat.col.get(spanKey(i, i + 1))?.length === 0) lat.col.delete(spanKey(i, i + 1));
      for (const table of people) {
        const entity = entityColumn(table) ?? idOfPeople(table);
        // "salesperson" in a table of customers: another role, not these rows; "women" where a
        // column holds the sex: some of the rows, which that column tells apart.
        if (!fitsPeople(t.sing, entity) || (isSexedNoun(t.sing) && table.columns.some(isSexColumn))) continue;
        const r: RowsHit = { table, cost: t.sing !== t.norm ? 0.35 : 0.5 };
        if (entity !== undefined) r.entity = entity;
        add(lat.rows, spanKey(i, i + 1), r, (a, b) => a.table === b.table);
      }
    }
    for (const table of v.tables) {
      const nouns = v.rowNouns.get(table) ?? [];
      const last = nouns[nouns.length - 1];
      // The whole file name, or its last word ("car" for used_cars.csv).
      const n = nouns.length;
      if (n > 1 && i + n <= tokens.length && nouns.every((w, k) => tokens[i + k]?.sing === w)) add(lat.rows, spanKey(i, i + n), { table, cost: 0 }, (a, b) => a.table === b.table);
      if (last === undefined) continue;
      // ("temperature" in city-temperature.csv with a `temp` column: the column is likelier meant.)
      if (t.sing === last && t.sing.length >= 4) countedIn(lat, i, table, t.sing);
      // ("satisfaction" in job_satisfaction.csv with a `Job.Satisfaction` column: the column again, said
      // before "breakdown by gender"; a plural, "the most isotopes", still counts the rows.)
      const measured = (lat.col.get(spanKey(i, i + 1)) ?? []).some((h) => h.ref.table === table && h.cost <= 0.8 && (h.ref.column.kind === 'numeric' || (t.norm === t.sing && h.ref.column.kind === 'text' && !h.ref.column.unique)));
      if (t.sing === last || (t.pos === 'VERB' && t.lemma === last)) {
        add(lat.rows, spanKey(i, i + 1), { table, cost: measured ? 1.2 : 0.1 }, (a, b) => a.table === b.table);
        // "the most isotopes" in isotopes.csv: said in the plural, likelier the rows than a word of `isotope_mass`.
        if (t.norm !== t.sing) for (const h of lat.col.get(spanKey(i, i + 1)) ?? []) if (h.link === 'part' && h.ref.table === table) h.cost += 0.6;
      }
      // "fires" for danish_fire_losses.csv: another noun of the file's name, said in the plural, names
      // the rows it is about (a loss is a fire's) where no column or value takes the word.
      // ("wines" in wine_reviews.csv: `winery`, only a far synonym, does not take the word from the rows.)
      // (Said once, "the most expensive wine", where no column takes it at all, it is one of them.)
      else if (t.pos === 'NOUN' && nouns.slice(0, -1).includes(t.sing) && !lat.val.has(spanKey(i, i + 1))
        && (t.norm !== t.sing ? (lat.col.get(spanKey(i, i + 1)) ?? []).every((h) => h.cost >= 0.9 && h.link !== 'name') : (lat.col.get(spanKey(i, i + 1)) ?? []).every((h) => h.cost >= 0.9 && h.link === 'synonym'))) {
        add(lat.rows, spanKey(i, i + 1), { table, cost: t.norm !== t.sing ? 0.5 : 0.7 }, (a, b) => a.table === b.table);
      }
      // "cars" for mtcars.csv, "strikes" for birdstrikes.csv: a word glued into the name.
      else if (t.sing.length >= 3 && !t.stop && !isKeyword(t.norm) && nouns.some((w) => w.length > t.sing.length + 1 && (w.endsWith(t.sing) || w.startsWith(t.sing)))) add(lat.rows, spanKey(i, i + 1), { table, cost: 0.6 }, (a, b) => a.table === b.table);
      else {
        const m = t.sing.length >= 3 ? meet(conceptsOf(t.sing, 'NOUN'), nameConcepts(last)) : undefined;
        if (m !== undefined && m <= 1) add(lat.rows, spanKey(i, i + 1), { table, cost: 0.4 + m * 0.5 }, (a, b) => a.table === b.table);
        // "birds" for cormorants.csv, "vehicles" for cars.csv: what the file's rows are a kind of,
        // said in the plural (a "growth rate" names no row of a file of growth, though growth is a rate).
        else if (t.pos === 'NOUN' && !t.stop && t.sing.length >= 3 && t.norm !== t.sing && !ROW_WORDS.test(t.sing) && isKindOf(last, t.sing, 6)) add(lat.rows, spanKey(i, i + 1), { table, cost: 0.5 }, (a, b) => a.table === b.table);
      }
    }
  }
}

/**
 * "deaths" in arsenic_deaths.csv whose `respdeath` counts them: the file is about deaths, but its
 * rows are groups and the whole-number column glued on the word holds how many, so the word names
 * that column (a sum) before the rows.
 */
function countedIn(lat: Lattice, i: number, table: TableMeta, word: string): void {
  for (const column of table.columns) {
    const name = column.name.toLowerCase();
    const glued = identifierWords(column.name).length === 1 && name.length >= word.length + 3 && (name.endsWith(word) || name.startsWith(word));
    if (!glued || column.kind !== 'numeric' || !Number.isInteger(column.min) || !Number.isInteger(column.max) || (column.min as number) < 0 || column.unique) continue;
    add(lat.col, spanKey(i, i + 1), { ref: { table, column }, cost: 0.5, link: 'abbreviation' }, (a, b) => a.ref.column === b.ref.column);
  }
}

const TIME_UNITS = /^(second|minute|hour|day|week|month|quarter|year|decade|century|night|weekend|season)$/;

/**
 * A noun nothing names ("planets" in planets.json, "wards" in polls.csv) may be
 * what a table's rows are, read so only where a question counts, ranks or picks them. Not when
 * the file's name says what its rows are ("trips" in bike-trips.csv: "riders" are not them), nor
 * when rows repeat what they are about (one `individual` per travel mode).
 */
export function guessRows(lat: Lattice, v: Vocabulary): void {
  if (v.tables.length !== 1) return;
  const table = v.tables[0] as TableMeta;
  // (The file's name in the plural, "crashes" of air_crashes.csv, says what its rows are.)
  const label = identifierWords(table.label.replace(/\.[a-z0-9]+$/i, ''));
  const named = (v.rowNouns.get(table) ?? []).some((w) => isPlural(w) || (senses(w, 'n', 1).length > 0 && label.some((x) => x !== w && singular(x) === w)));
  const labelled = [...lat.col.values()].some((hs) => hs.some((h) => h.cost <= 0.1 && h.ref.column.unique && h.ref.column.kind === 'text'));
  if (named || labelled || entityColumn(table) !== undefined) return;
  lat.tokens.forEach((t, i) => {
    if (t.kind !== 'word' || t.pos !== 'NOUN' || t.stop || isKeyword(t.norm) || bound(lat, i) || senses(t.sing, 'n', 1).length === 0) return;
    // "how many hours" in a file of daily rows: a unit of time is counted in time, never taken for rows.
    if (TIME_UNITS.test(t.sing)) return;
    // "women" where a column holds the sex: some of the rows, not what they are; any other person
    // in a table of people was weighed as its rows already ("smokers": a column tells them apart).
    if ((isSexedNoun(t.sing) && table.columns.some(isSexColumn)) || (isPersonNoun(t.sing) && rowsArePeople(table))) return;
    lat.guess.set(i, [{ table, cost: 0.6, guessed: true, plural: t.sing !== t.norm }]);
  });
}
