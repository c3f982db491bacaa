/**
 * What a table's columns are for, beyond their type: identifiers and codes (never added up),
 * yes/no flags, categories that group, dates and their parts, a count or weight column that says
 * how many each row stands for, and whether a measure adds up (amounts, counts) or is a level
 * that averages (prices, rates, ages, temperatures). Decided from the data and the column's name
 * (WordNet says which nouns are attributes), once per table; every reading follows it.
 */
import { follow, senses, type Synset } from '../language/wordnet';
import { identifierWords, singular } from '../language/words';
import type { Agg, ColRef, ColumnMeta, TableMeta } from './types';

export const isNumeric = (c: ColumnMeta): boolean => c.kind === 'numeric';

/** Columns that group well: categories, flags, dates, and numbers with few distinct values. */
export const isGroupable = (c: ColumnMeta): boolean =>
  c.kind === 'text' || c.kind === 'boolean' || c.kind === 'temporal' || (c.kind === 'numeric' && !c.unique && (c.distinct <= 12 || isIdLike(c)
    || (c.distinct <= 60 && Number.isInteger(c.min) && Number.isInteger(c.max) && c.distinct * 2 <= c.nonNull)));

export const isIdName = (c: ColumnMeta): boolean => /(^|[^a-z])(id|key|code|uuid|guid|no|nr|num)$/i.test(c.name.trim()) || /Id$/.test(c.name);

/** An identifier: it names rows, it is never measured. */
export const isIdLike = (c: ColumnMeta): boolean => isIdName(c) || c.role === 'id' || (c.unique && c.kind === 'text');

/** WordNet's lexicographer files of artifacts (a store, a hospital) and locations (a district). */
const THING_FILES = new Set([6, 15]);

/** Whether a noun's commonest sense is a thing or an organisation (a school, a store), not a quantity or a group's size. */
function namesThing(noun: string): boolean {
  const first = senses(noun, 'n', 1)[0];
  if (first === undefined) return false;
  if (THING_FILES.has(first.lex)) return true;
  let level: Synset[] = [first];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    if (level.some((x) => x.words.includes('institution'))) return true;
    level = level.flatMap((x) => follow(x, '@'));
  }
  return false;
}

/**
 * What a column is for, decided when the table is read. Whole numbers under a singular noun for a
 * thing (`School` 1224..9586, `store` 1..45), repeated over many rows, are codes of those things:
 * never added up, averaged or ranked by value ("largest school" is the one with the most rows).
 */
export function ingestRole(c: ColumnMeta): ColumnMeta['role'] {
  if (c.role !== undefined || c.kind !== 'numeric' || !Number.isInteger(c.min) || !Number.isInteger(c.max) || timeNamed(c) || isFlag(c)) return c.role;
  // Whole numbers each in one row only, packed into their range (`zip` 501..99950: 42,555 of 99,450
  // possible values) are codes; amounts in one row each are spread thin (1,203 to 48,210,000).
  const lo = c.min as number;
  const hi = c.max as number;
  if (c.unique && c.distinct >= 1000 && lo >= 0 && c.distinct / (hi - lo + 1) >= 0.2 && !(lo >= 1000 && hi <= 2999)
    && !/rank/i.test(c.name) && !AVERAGED.test(c.name) && !FLOW_MONEY.test(c.name) && !COUNTED.test(c.name)) return 'id';
  const words = identifierWords(c.name);
  const noun = words.length === 1 ? words[0] ?? '' : '';
  if (noun.length < 3 || singular(noun) !== noun || c.distinct < 10 || c.distinct > c.nonNull / 2) return undefined;
  return namesThing(noun) ? 'id' : undefined;
}

/** A column holding people's sex (`sex`, `gender`, `Sex_code`). */
/** Whether a value says the sex in words ("female div/dep/mar"; "male" is not found in "female"). */
export const saysSex = (value: string, sex: 'female' | 'male'): boolean => new RegExp(`(^|[^a-z])${sex}([^a-z]|$)`, 'i').test(value);

/** `sex`, `gender`, a column holding just F and M, or one whose values say "female" in words. */
export const isSexColumn = (c: ColumnMeta): boolean => /^(sex|gender)$/i.test(identifierWords(c.name)[0] ?? '')
  || (c.values !== undefined && c.values.filter((v) => !(c.nullMarkers ?? []).includes(v)).map((v) => v.trim().toUpperCase()).sort().join() === 'F,M')
  || (c.kind === 'text' && (c.values ?? []).some((v) => saysSex(v, 'female')));

/** A 0/1 number column: a yes/no flag ("retired", "smoker"). */
export const isFlag = (c: ColumnMeta): boolean => c.kind === 'boolean' || (c.kind === 'numeric' && c.min === 0 && c.max === 1 && c.distinct === 2);

/** Columns named after a unit of time: counted as distinct values, grouped whatever their size. */
export const TIME_NAMED = /^(year|yr|quarter|qtr|month|week|day|decade|hour|season|date|weekday|dow|day[ _]?of[ _]?(week|month|year)|month[ _]?of[ _]?year|hour[ _]?of[ _]?day|week[ _]?of[ _]?year)s?$/i;
export const timeNamed = (c: ColumnMeta): boolean => TIME_NAMED.test(c.name.trim());

/** WordNet's lexicographer files of acts, events, groups, people, quantities and states: things counted. */
const COUNTED_FILES = new Set([4, 11, 14, 18, 23, 26]);

/** The one column of a table of counts (`Freq`, `n`, `count`) beside categories: what a row stands for. */
export function frequencyWeight(table: TableMeta): ColRef | undefined {
  const named = table.columns.filter((c) => /^(freq|frequency|n|count|counts|cnt|number|num|weight|wt|persons|people)$/i.test(c.name.trim()));
  // ... or the one whole-number column named by a plural noun (`deaths`, `arrivals`) in a table of
  // categories whose rows name no one thing (no text column is unique) and no one event (no dates:
  // a crash on a day with its `fatalities` is one crash): what the rows count.
  const oneThingEach = table.columns.some((c) => (c.kind === 'text' && c.unique) || (c.kind === 'temporal' && c.derived === undefined));
  const plural = oneThingEach ? [] : table.columns.filter((c) => c.kind === 'numeric' && /INT/i.test(c.type) && identifierWords(c.name).length === 1 && /^[a-z]{4,}$/.test(c.name.trim().toLowerCase())
    && singular(c.name.trim().toLowerCase()) !== c.name.trim().toLowerCase()
    // ... of people, events or acts (`deaths`, `arrivals`, `visitors`); `points` of a review is a score.
    && senses(singular(c.name.trim().toLowerCase()), 'n', 3).some((x) => COUNTED_FILES.has(x.lex)));
  const counts = named.length > 0 ? named : plural.length > 0 ? plural : crossTabCount(table);
  const w = counts[0];
  if (counts.length !== 1 || w === undefined || w.kind !== 'numeric' || !Number.isInteger(w.min) || !Number.isInteger(w.max) || (w.min as number) < 0) return undefined;
  // A column named for counts may sit beside keys of many values; a plural name alone (`Expenses`
  // beside `Income`, `Debt`, `Price`) needs every other number to be a key of few values.
  const keyLike = (c: ColumnMeta): boolean => c.distinct <= 12 || (named.length > 0 ? c.distinct <= table.rowCount / 2 : c.distinct <= 40 || isIdLike(c) || timeNamed(c));
  const categorical = table.columns.every((c) => c === w || c.kind === 'text' || c.kind === 'boolean' || c.kind === 'temporal'
    // (`subject` 1..39 repeated over 117 rows: a key of the counted groups, not a measure.)
    || (c.kind === 'numeric' && Number.isInteger(c.min) && Number.isInteger(c.max) && keyLike(c)));
  return categorical && table.columns.length >= 2 ? { table, column: w } : undefined;
}

/**
 * The one whole-number column of a cross-tabulation: every combination of the other columns'
 * values is one row (`population` per age, sex and year: 76 x 2 x 80 = 12,160 rows), so a row is
 * a cell, never one of the things counted, and the number in it is how many there are.
 */
function crossTabCount(table: TableMeta): ColumnMeta[] {
  const own = table.columns.filter((c) => c.derived === undefined);
  const whole = own.filter((c) => c.kind === 'numeric' && !c.unique && Number.isInteger(c.min) && Number.isInteger(c.max) && (c.min as number) >= 0 && c.distinct > table.rowCount / 2);
  // Named for how many: a group or quantity (`population`, `count`) or things in the plural (`deaths`);
  // `rainfall` in whole millimetres per station and month is a measurement, never a number of rows.
  const word = identifierWords(whole[0]?.name ?? '').join(' ');
  const many = /^[a-z]+$/.test(word) && !AVERAGED.test(word) && (singular(word) !== word || [14, 23].includes(senses(word, 'n', 1)[0]?.lex ?? -1));
  if (!many) return [];
  const keys = own.filter((c) => !whole.includes(c));
  if (whole.length !== 1 || keys.length < 2 || keys.some((c) => c.distinct < 2)) return [];
  return keys.reduce((n, c) => n * c.distinct, 1) === table.rowCount ? whole : [];
}

/** Measures that are levels or per-unit figures whatever WordNet says of their name. */
const AVERAGED = /(price|rate|ratio|pct|percent|score|rating|median|temp|humidity|pressure|^age|_age|age$|salary|wage|speed|duration|latency|level|index|density|margin|discount|per|avg|average|mean|yield|efficiency|share|bmi|expectancy|approval|activity)/i;
/** WordNet's nouns of attributes (weight, age, price), and of states (wealth, health) describe; they do not add up. */
const DESCRIBING_FILES = new Set([7, 26]);
const COGNITION_FILE = 9;

/**
 * A level, not an amount: decimals, all positive and within a factor of 3 of each other (a CO2
 * reading of 313 to 374 ppm). Adding such readings up gives a number nobody means.
 */
function isLevel(c: ColumnMeta): boolean {
  if (c.kind !== 'numeric' || c.converted || !/^(DOUBLE|FLOAT|REAL|DECIMAL\(\d+,\s*[1-9]\d*\))$/i.test(c.type)) return false;
  const lo = typeof c.min === 'number' ? c.min : NaN;
  const hi = typeof c.max === 'number' ? c.max : NaN;
  return lo > 0 && hi > lo && hi <= lo * 3;
}

/** The aggregate a measure gets when the question names it without saying how to combine it. */
export function defaultAgg(c: ColumnMeta): Agg {
  if (c.role === 'count' || c.role === 'amount') return 'sum';
  if (c.role === 'level' || AVERAGED.test(c.name)) return 'avg';
  // A 0/1 column ("acc", "correct") named as a quality ("accuracy"): the share of ones. ("How many
  // were correct" counts them, "total correct" adds them: the question says so.)
  if (c.kind === 'numeric' && isFlag(c) && !COUNTED.test(c.name)) return 'avg';
  const file = headNounFile(c);
  if (file !== undefined && DESCRIBING_FILES.has(file)) return 'avg';
  // A noun of cognition (literacy) over values of 0 to 100 is a rate; points and goals add up.
  if (file === COGNITION_FILE && isPercent(c)) return 'avg';
  // Money taken in or paid out adds up over days and months, however even its daily amounts are.
  if (FLOW_MONEY.test(c.name)) return 'sum';
  if (isScale(c)) return 'avg';
  return isLevel(c) ? 'avg' : 'sum';
}

/** WordNet's lexicographer file of the commonest sense of the last word of a column's name. */
function headNounFile(c: ColumnMeta): number | undefined {
  const words = identifierWords(c.name).filter((w) => /^[a-z]{3,}$/.test(w));
  const head = words[words.length - 1];
  return head !== undefined ? senses(singular(head), 'n', 1)[0]?.lex : undefined;
}

/** Names of columns that count or total something: they add up. */
const COUNTED = /(count|number|total|qty|quantity|units|pop|cases|deaths|sum|freq|^n$)/i;

/** The aggregate the question's own words for a measure say, when the column's name does not ("life expectancy" for `LIFEEX`, "revenue" for `chiffre_affaires`). */
export function aggOfWords(said: string): Agg | undefined {
  if (said === '') return undefined;
  if (AVERAGED.test(said)) return 'avg';
  return FLOW_MONEY.test(said) || COUNTED.test(said) ? 'sum' : undefined;
}

/**
 * Whether the aggregate {@link defaultAgg} gives is known from the column's role, name or values.
 * When it is not (`Bfat`, 5.6 to 35.5), a measure named without an aggregate is shown as both its
 * total and its average, so the answer never rests on a guess between them.
 */
/** A few whole steps from 0 or 1 to at most 10 (`Bitter` 1..7), named for no count: a rating scale, compared by its mean. */
function isScale(c: ColumnMeta): boolean {
  return c.kind === 'numeric' && Number.isInteger(c.min) && Number.isInteger(c.max) && (c.min as number) >= 0 && (c.min as number) <= 1 && (c.max as number) <= 10
    && c.distinct >= 3 && !COUNTED.test(c.name) && identifierWords(c.name).every((w) => singular(w) === w);
}

export function aggIsSure(c: ColumnMeta, said = ''): boolean {
  if (aggOfWords(said) !== undefined) return true;
  if (c.role !== undefined || AVERAGED.test(c.name) || FLOW_MONEY.test(c.name) || COUNTED.test(c.name) || isLevel(c) || isScale(c) || (c.kind === 'numeric' && isFlag(c))) return true;
  const file = headNounFile(c);
  if (file !== undefined && (DESCRIBING_FILES.has(file) || (file === COGNITION_FILE && isPercent(c)))) return true;
  // Whole numbers under a plural name (`passengers`, `goals`) are counts of things.
  const last = identifierWords(c.name).filter((w) => /^[a-z]{3,}$/.test(w)).pop();
  return /INT/i.test(c.type) && typeof c.min === 'number' && c.min >= 0 && last !== undefined && singular(last) !== last;
}

/** A column of percentages (0-100, named so or reaching past 20) or fractions named as rates. */
export function isPercent(c: ColumnMeta): boolean {
  if (c.kind !== 'numeric' || typeof c.min !== 'number' || typeof c.max !== 'number' || c.min < 0) return false;
  const named = /(percent|pct|rate|share|ratio|fraction|prop)/i.test(c.name);
  return (c.max <= 100 && (named || c.max > 20) && c.max > 1) || (c.max <= 1 && named);
}

const FLOW_MONEY = /(revenue|amount|sales|spend|paid|payment|profit|cost|income|turnover)/i;
const MONEY = /(revenue|amount|price|sales?|total|cost|value|income|salary|spend|paid|payment|fee|profit|wage|earning)/i;

/** The table's money column, if one stands out (revenue or amount before a unit price). */
export function moneyColumn(table: TableMeta): ColRef | undefined {
  const cols = table.columns.filter((c) => isNumeric(c) && !isIdLike(c) && MONEY.test(c.name));
  const totals = cols.filter((c) => /(revenue|amount|total|sales|value|spend|paid|payment)/i.test(c.name));
  const best = totals.length === 1 ? totals[0] : cols.length === 1 ? cols[0] : undefined;
  return best !== undefined ? { table, column: best } : undefined;
}

/** The one measured column of a table, when it has exactly one (not an id, a date part or a derived date). */
export function soleMeasure(table: TableMeta): ColRef | undefined {
  const cols = table.columns.filter((c) => c.kind === 'numeric' && !isIdLike(c) && !timeNamed(c) && c.derived === undefined);
  return cols.length === 1 && cols[0] !== undefined ? { table, column: cols[0] } : undefined;
}

/** The main date column of a table: one called a date or time, else the first with values. */
export function dateColumnOf(table: TableMeta): ColRef | undefined {
  const temporal = table.columns.filter((c) => c.kind === 'temporal' && c.nonNull > 0);
  const best = temporal.find((c) => /date|time|day|timestamp|created|at$/i.test(c.name)) ?? temporal[0];
  return best !== undefined ? { table, column: best } : undefined;
}

const YEARS = (c: ColumnMeta): boolean => c.kind === 'numeric' && typeof c.min === 'number' && typeof c.max === 'number' && c.min >= 1000 && c.max <= 2999 && Number.isInteger(c.min);

/** A numeric column of years: `year`, `yr`, or one whose name says year and whose values are years. */
export function yearColumnOf(table: TableMeta): ColRef | undefined {
  const c = table.columns.find((x) => /^(fiscal[ _]?)?(year|yr)s?$/i.test(x.name.trim()) && YEARS(x)) ?? table.columns.find((x) => /year|yr/i.test(x.name) && YEARS(x));
  return c !== undefined ? { table, column: c } : undefined;
}

/** A whole-number column of months (1-12) or quarters (1-4) named for them. */
export function partColumnOf(table: TableMeta, part: 'month' | 'quarter'): ColRef | undefined {
  const name = part === 'month' ? /^(month|mo|mon|month_?num(ber)?)$/i : /^(quarter|qtr|q)$/i;
  const top = part === 'month' ? 12 : 4;
  const c = table.columns.find((x) => name.test(x.name.trim()) && x.kind === 'numeric' && Number.isInteger(x.min) && Number.isInteger(x.max)
    && (x.min as number) >= 1 && (x.max as number) <= top);
  return c !== undefined ? { table, column: c } : undefined;
}

/** The column a table's rows are known by: a unique text column called a name, title or label, else the first unique text. */
export function labelColumnOf(table: TableMeta): ColRef | undefined {
  const text = table.columns.filter((c) => c.kind === 'text' && c.unique);
  const c = text.find((x) => /(^|[^a-z])(name|title|label)([^a-z]|$)/i.test(x.name)) ?? text[0];
  return c !== undefined ? { table, column: c } : undefined;
}

/** A column named for what the numbers of its rows are (`variable`, `indicator_code`, `series_name`). */
export const namesMeasures = (c: ColumnMeta): boolean =>
  /^(variable|var|indicator|measure|metric|series|statistic|stat|parameter|param|element|item|key|quantity|characteristic|concept)s?$/.test(identifierWords(c.name)[0] ?? '');

/**
 * A key column that says what each row's numbers are, in a long table (`Variable` holding VA and
 * EMP: value added in money, employment in persons): numbers of different rows are only added up
 * or ranked together within one of its values.
 */
export function measureKey(table: TableMeta): ColRef | undefined {
  const c = table.columns.find((x) => x.kind === 'text' && x.distinct >= 2 && x.distinct <= 30 && namesMeasures(x));
  return c !== undefined && table.columns.some((x) => isNumeric(x) && !isIdLike(x) && !timeNamed(x)) ? { table, column: c } : undefined;
}

