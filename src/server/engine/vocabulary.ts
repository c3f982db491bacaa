/**
 * What the words of the selected tables are, worked out once per table version: each column's
 * name as the words a question must say (its core) and may leave out (units, glue, parts in
 * brackets), the values of its category columns by their words, and the nouns a table's rows go
 * by (its file name). The lattice looks question words up here.
 */
import { identifierWords, singular } from '../language/words';
import { placesOfValue } from '../language/places';
import type { ColRef, ColumnMeta, TableMeta } from './types';

export interface NameWords {
  /** Singular words a question must name. */
  core: string[];
  /** Words it may leave out: units, glue, parts in brackets. */
  optional: string[];
  /** The core run together ("lifeexp" for `LifeExp`), when it has two or more words. */
  compact?: string;
}

export interface ValueEntry {
  ref: ColRef;
  value: string;
}

export interface Vocabulary {
  tables: TableMeta[];
  /** Column name words by column. */
  names: Map<ColumnMeta, NameWords>;
  /** Columns by each core word (singular). */
  byWord: Map<string, ColRef[]>;
  /** Values by their whole words joined with spaces (folded, and singular). */
  values: Map<string, ValueEntry[]>;
  /** Values of two or more words by each word that tells them apart ("lovelace"). */
  valueWords: Map<string, ValueEntry[]>;
  /** Values that name places, by place id. */
  places: Map<string, ValueEntry[]>;
  /** Short codes (`NSW`, `SW`, `F`) of category columns, for abbreviations and initials. */
  codes: ValueEntry[];
  /** Single-word values of columns with few values (`female`, `dead`): met by WordNet synonyms too. */
  fewValues: Map<string, ValueEntry[]>;
  /** Columns named by one word (`mpg`, `steelprice`): several question words may spell them. */
  oneWordNames: ColRef[];
  /** Columns with a short core word (`hs` of `hs_degree`), by its first letter: initials of several words. */
  shortWordNames: Map<string, ColRef[]>;
  longestValue: number;
  /** Row nouns of each table: the singular words of its file name that say what a row is. */
  rowNouns: Map<TableMeta, string[]>;
}

/**
 * Words a column name may end with that give its unit, not its meaning (`Weight_in_lbs`, `Cost (USD)`).
 * (Not `pct` or `percent`: `population_pct` is a share, and "population" names `territory_population`.)
 */
const UNIT = /^(in|lbs?|kg|g|km|mi|mins|minutes?|secs?|seconds?|ms|hrs?|hours?|usd|eur|gbp|dollars?|euros?|mph|kmh|kph|cm|mm|m|ft|inch(es)?|celsius|fahrenheit|c|f|kwh|mw|kw|liters?|litres?|l|ml|oz|pounds?|tonnes?|tons?|k|thousands?|millions?|mn|bn|billions?|1000s?|000s?)$/;
/** Glue inside names ("Miles_per_Gallon", "Cost of goods"). */
const GLUE = /^(of|per|the|and|a|an|by|for|to|at|on|with|from|is)$/;
/** File-name words about the copy, not the subject: orders_raw.csv, sales_clean_final.csv. */
const QUALIFIER = /^(raw|clean|cleaned|final|export|exported|dump|copy|backup|processed|full|sample|data|dataset|table|file|v\d+|new|old|latest|tmp|temp|\d+)$/;

export function nameWords(name: string): NameWords {
  const inBrackets = new Set(identifierWords((name.match(/\([^)]*\)|\[[^\]]*\]/g) ?? []).join(' ')).map(singular));
  const words = identifierWords(name).map(singular);
  const core: string[] = [];
  const optional: string[] = [];
  words.forEach((w, i) => {
    const trailingUnit = i > 0 && words.slice(i).every((x) => UNIT.test(x) || GLUE.test(x) || inBrackets.has(x));
    // `order_id`, `customer_code`: the entity is named by its noun alone.
    const idSuffix = i > 0 && i === words.length - 1 && /^(id|key|code|no|nr|num|number|uuid|guid)$/.test(w);
    // `temp_max`, `temp_min`: "temperature" names both; which one is a choice for the user.
    const statistic = i > 0 && /^(max|min|mean|avg|median|hi|lo)$/.test(w);
    // `hasWiFi`, `is_active`: the verb of a yes/no column's name says nothing the question must repeat.
    const flagVerb = i === 0 && /^(has|have|had|is|was|are|can|did|does)$/.test(w);
    // `chol0`, `sbp0`, `income2`: the wave or visit a measure was taken at; "cholesterol" names it.
    const wave = i > 0 && i === words.length - 1 && /^\d{1,2}$/.test(w) && /[a-z]/.test(words[i - 1] ?? '');
    if (words.length > 1 && (GLUE.test(w) || inBrackets.has(w) || trailingUnit || idSuffix || statistic || flagVerb || wave)) optional.push(w);
    else core.push(w);
  });
  const out: NameWords = { core: core.length > 0 ? core : words, optional };
  if (out.core.length >= 2) out.compact = out.core.join('');
  return out;
}

function push<T>(map: Map<string, T[]>, key: string, v: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [v]);
  else list.push(v);
}

/** The row nouns of a table: the words of its file (and sheet) name, without words about the copy. */
export function rowNounsOf(t: TableMeta): string[] {
  // A wide table read long gives its file's name to the value column (`birth_rate`): the name says what is measured.
  if (t.long !== undefined && t.long.value !== 'value') return [];
  const base = t.label.replace(/\.[a-z0-9]+(\.gz)?(,|$)/i, '$2');
  return identifierWords(base).map(singular).filter((w) => !QUALIFIER.test(w) && w !== 'sheet');
}

const built = new WeakMap<TableMeta[], Vocabulary>();

export function vocabularyOf(tables: TableMeta[]): Vocabulary {
  const hit = built.get(tables);
  if (hit !== undefined) return hit;
  const v: Vocabulary = {
    tables, names: new Map(), byWord: new Map(), values: new Map(), valueWords: new Map(), places: new Map(), codes: [], fewValues: new Map(), oneWordNames: [], shortWordNames: new Map(), longestValue: 1, rowNouns: new Map(),
  };
  for (const table of tables) {
    v.rowNouns.set(table, rowNounsOf(table));
    for (const column of table.columns) {
      const ref: ColRef = { table, column };
      const n = nameWords(column.name);
      v.names.set(column, n);
      for (const w of new Set([...n.core, ...n.optional])) push(v.byWord, w, ref);
      if (n.compact !== undefined) push(v.byWord, n.compact, ref);
      if (n.core.length === 1) v.oneWordNames.push(ref);
      for (const w of n.core) if (n.core.length > 1 && w.length >= 2 && w.length <= 3 && /^[a-z]+$/.test(w)) push(v.shortWordNames, w.slice(0, 1), ref);
      indexValues(v, ref);
    }
  }
  built.set(tables, v);
  return v;
}

function indexValues(v: Vocabulary, ref: ColRef): void {
  const list = ref.column.values ?? [];
  // A total row named by the word alone ("Total") is no value to ask for: "total sales" is a sum.
  const markers = new Set([...(ref.column.nullMarkers ?? []), ...(ref.column.totals ?? []).filter((t) => identifierWords(t).length === 1)]);
  const perWord = new Map<string, ValueEntry[]>();
  for (const value of list) {
    if (markers.has(value) || /^[\d.,\s-]+$/.test(value)) continue;
    const words = identifierWords(value);
    if (words.length === 0 || words.length > 8) continue;
    const e = { ref, value };
    v.longestValue = Math.max(v.longestValue, words.length);
    for (const key of new Set([words.join(' '), words.map(singular).join(' ')])) push(v.values, key, e);
    for (const id of placesOfValue(value)) push(v.places, id, e);
    if (/^[A-Za-z]{1,4}$/.test(value.trim()) && value.trim() === value.trim().toUpperCase()) v.codes.push(e);
    if (words.length === 1 && list.length <= 50) push(v.fewValues, words[0] ?? '', e);
    if (words.length >= 2) for (const w of new Set(words.map(singular))) if (w.length >= 3 && !/^\d+$/.test(w)) push(perWord, w, e);
  }
  // A word in most values of a column ("County", "Inc") tells none of them apart.
  for (const [w, es] of perWord) if (es.length <= Math.max(1, list.length * 0.3)) for (const e of es) push(v.valueWords, w, e);
}
