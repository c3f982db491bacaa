/**
 * The grammar of the questions the engine computes, declared once: measures and aggregates,
 * groupings with time units, filters (values, comparisons, thresholds, dates and ranges, missing
 * values), rankings and top N, shares, comparisons, intents and follow-up edits. A question is a
 * sequence of these parts, with filler words (by part of speech) between them; a word no part
 * reads is an unknown word, and a reading with one is never answered. The writer (`writer.ts`)
 * spells plans with the same keywords, and a test parses every sentence it writes.
 */
import { isActNoun, isGroupNoun, isPersonNoun, verbFile } from '../language/concepts';
import { isFlag, isGroupable, isNumeric, timeNamed } from './shape';
import { ratioColumn } from './columnTypes';
import { senses } from '../language/wordnet';
import { bound, spanKey, type Lattice } from './lattice';
import { compile, isKeyword, kw, tok, type Feed, type RuleDef, type Sym } from './parser';
import type { ColM, DimSpec, NumM, Part, PartBody, RowsM, ValM } from './parts';
import { DATE_RULES } from './grammarDates';
import type { Agg, CmpOp, Grain } from './types';

const rules: RuleDef[] = [];
/** Adjectives whose superlative is the least of their attribute ("coldest", "cheapest"). */
const LOW_POLE = /^(light|young|cheap|short|small|little|low|few|cold|cool|slow|thin|narrow|shallow|weak|poor|early|dry|near|close|sparse)$/;

/**
 * Every part costs one, so the reading with the fewest parts wins ("from 2023 to 2024" is one
 * range, not two dates and a stray "to"); a filler word costs a half, an unknown word ten.
 */
const r = (name: string, symbols: Sym[], build?: RuleDef['build'], cost?: number): void => {
  const def: RuleDef = { name, symbols };
  if (build !== undefined) def.build = build;
  const total = (cost ?? 0) + (name === 'Part' ? 1 : 0);
  if (total !== 0) def.cost = total;
  rules.push(def);
};
const part = (body: PartBody): object => body;
const at = <T>(d: unknown[], i: number): T => d[i] as T;
type ValList = { vals: ValM[]; joiner?: 'and' | 'or' };
const vl = (d: unknown[], i: number): ValList => at<ValList>(d, i);

// --- Tokens the lattice reads -------------------------------------------------------------
const inLat = (kind: string): Sym => tok((f) => f.in.has(kind));
const lattice = (name: string, kind: 'col' | 'val' | 'rows', max: number, make: (alts: never[], f: Feed[]) => object): void => {
  for (let n = 1; n <= max; n++) {
    r(name, Array.from({ length: n }, () => inLat(kind)), (d) => {
      const fs = d as Feed[];
      const first = fs[0] as Feed;
      const alts = first.lat[kind].get(spanKey(first.t.i, first.t.i + n));
      return alts === undefined || alts.length === 0 ? undefined : make(alts as never[], fs);
    });
  }
};
lattice('Col', 'col', 4, (alts) => ({ alts }));
lattice('Val', 'val', 6, (alts, fs) => ({ alts, text: fs.map((f) => f.t.raw).join(' ') }));
lattice('Rows', 'rows', 3, (alts) => ({ alts }));
// A noun that may be the rows (see `guessRows`), only where a question counts, ranks or picks them.
r('Subject', ['Rows']);
r('Subject', [inLat('guess')], (d) => ({ alts: at<Feed>(d, 0).lat.guess.get(at<Feed>(d, 0).t.i) ?? [] }), 0.3);
r('Attr', [inLat('attr')], (d) => {
  const f = at<Feed>(d, 0);
  return { alts: f.lat.attr.get(f.t.i) ?? [], word: f.t.norm };
});
// The adjective said as a superlative ("heaviest"), a comparative ("heavier") or plainly ("heavy").
const degreeOf = (d: unknown[], i: number): string | undefined => at<{ alts: Array<{ degree: string }> }>(d, i).alts[0]?.degree;
r('SupAttr', ['Attr'], (d) => (degreeOf(d, 0) === 'sup' ? at<object>(d, 0) : undefined));
r('CmpAttr', ['Attr'], (d) => (degreeOf(d, 0) !== 'sup' ? at<object>(d, 0) : undefined));
// "battery level", "error rate", "co2 values": a word for the measured quantity after its column.
const MEASURE_NOUN = kw('level', 'levels', 'rate', 'rates', 'value', 'values', 'time', 'times', 'duration', 'figure', 'figures', 'amount', 'amounts', 'reading', 'readings', 'number', 'numbers', 'score', 'scores', 'index', 'measurement', 'measurements', 'statistic', 'statistics', 'metric', 'data');
// (Unless the word is a column itself: "firm value" with a `value` column is two columns.)
r('MCol', ['Col', MEASURE_NOUN], (d) => (at<Feed>(d, 1).in.has('col') ? undefined : { alts: at<ColM>(d, 0).alts }), 0.2);
// "fuel type", "body style": a word for the sorts of a category after its column.
// "level value", "co2 values": the column itself (unless a column is named `value`).
const VALUE_WORD = tok((f) => /^values?$/.test(f.t.norm) && !(f.lat.col.get(`${f.t.i}:${f.t.i + 1}`) ?? []).some((h) => h.link === 'name'));
r('Col', ['Col', VALUE_WORD], (d) => at<object>(d, 0), 0.1);
r('Col', ['Col', kw('type', 'types', 'kind', 'kinds', 'category', 'categories', 'class', 'classes', 'group', 'groups', 'sort', 'variety', 'style', 'level', 'levels', 'status')], (d) => {
  const alts = at<ColM>(d, 0).alts.filter((a) => a.ref.column.kind !== 'numeric' || a.ref.column.distinct <= 12);
  return alts.length > 0 ? { alts } : undefined;
}, 0.2);
// "firm value", "country population": a number said of a category it belongs to (`firm`, `value`).
r('MCol', ['Col', 'Col'], (d) => {
  const head = at<ColM>(d, 0).alts.some((a) => a.ref.column.kind === 'text');
  const alts = at<ColM>(d, 1).alts.filter((a) => a.ref.column.kind === 'numeric');
  return head && alts.length > 0 ? { alts } : undefined;
}, 0.3);
// "unemployed people", "union members", "low income students": a plural noun nothing names belongs to its column.
r('MCol', ['MCol', tok((f) => f.t.kind === 'word' && f.t.pos === 'NOUN' && f.t.sing !== f.t.norm && [...f.in].every((k) => k === 'guess' || k === 'rows') && !isKeyword(f.t.norm) && (isPersonNoun(f.t.sing) || isGroupNoun(f.t.sing)))], (d) => ({ alts: at<ColM>(d, 0).alts }), 0.35);
r('MCol', ['MCol', MEASURE_NOUN], (d) => (at<Feed>(d, 1).in.has('col') ? undefined : { alts: at<ColM>(d, 0).alts }), 0.2);
// "burglary crime rate", "yes share": a noun nothing names, between a column and its measure noun or
// naming the act counted, belongs to the column's phrase.
const FREE_NOUN = tok((f) => f.t.kind === 'word' && f.t.pos === 'NOUN' && [...f.in].every((k) => k === 'guess') && !f.t.stop && !isKeyword(f.t.norm));
r('MCol', ['Col', FREE_NOUN, MEASURE_NOUN], (d) => (at<Feed>(d, 2).in.has('col') ? undefined : { alts: at<ColM>(d, 0).alts }), 0.4);
r('MCol', ['Col', tok((f) => f.t.kind === 'word' && f.t.pos === 'NOUN' && f.in.size === 0 && !isKeyword(f.t.norm) && isActNoun(f.t.sing))], (d) => ({ alts: at<ColM>(d, 0).alts }), 0.4);
// "river volume", "sea temperature": a noun nothing names before its column qualifies it.
// (A name of one thing, "chicago retailers", "texas sales", is a condition the data must hold: WordNet
// files it as an instance of a kind, not a kind.)
const instanceName = (f: Feed): boolean => senses(f.t.sing, 'n', 1)[0]?.ptrs.some((p) => p.sym === '@i') === true;
// (Only a word of the language: "matrix_cal" or "zork" before `time` is a name or a value the data
// does not hold, never a qualifier to drop.)
const QUALIFIER_NOUN = tok((f) => f.t.kind === 'word' && f.t.pos === 'NOUN' && f.in.size === 0 && !f.t.stop && !isKeyword(f.t.norm) && !instanceName(f) && senses(f.t.sing, 'n', 1).length > 0);
// (Only before a column named outright: "mortality rate" is no qualified `ApacheIIScore`, a far guess.)
r('MCol', [QUALIFIER_NOUN, 'Col'], (d) => {
  const alts = at<ColM>(d, 1).alts.filter((a) => a.link === 'name' && a.cost <= 0.3);
  return alts.length > 0 ? { alts } : undefined;
}, 0.5);
// "order value", "car price": a column said of the rows it belongs to.
r('MCol', ['Subject', 'Col'], (d) => {
  // (A noun only guessed to name the rows, "mortality", qualifies only a column named outright.)
  const guessed = at<RowsM>(d, 0).alts.every((a) => 'guessed' in a && a.guessed === true);
  const alts = at<ColM>(d, 1).alts.filter((a) => a.ref.column.kind === 'numeric' && (!guessed || (a.link === 'name' && a.cost <= 0.3)));
  return alts.length > 0 ? { alts } : undefined;
}, 0.1);
// "the yes share" naming `YES` in referendum.csv: a column said with the file's noun for its rows.
r('MCol', ['Col', 'Rows'], (d) => {
  const tables = at<RowsM>(d, 1).alts.filter((a) => a.generic !== true).map((a) => a.table);
  const alts = at<ColM>(d, 0).alts.filter((a) => a.ref.column.kind === 'numeric' && tables.includes(a.ref.table));
  return alts.length > 0 ? { alts } : undefined;
}, 0.2);
// "price per hp": one number column over another that is no grouping (each row's own ratio).
r('MCol', ['MCol', kw('per'), 'Col'], (d) => {
  const alts = at<ColM>(d, 0).alts.flatMap((a) => at<ColM>(d, 2).alts.filter((b) => b.ref.table === a.ref.table && b.ref.column !== a.ref.column && isNumeric(a.ref.column) && isNumeric(b.ref.column) && !isGroupable(b.ref.column))
    .map((b) => ({ ref: { table: a.ref.table, column: ratioColumn(a.ref.column, b.ref.column) }, cost: a.cost + b.cost, link: b.link === 'name' ? a.link : b.link })));
  return alts.length > 0 ? { alts } : undefined;
}, 0.3);
r('Num', [tok((f) => f.t.kind === 'number')], (d) => {
  const t = at<Feed>(d, 0).t;
  const n: Partial<NumM> = { value: t.value ?? 0, raw: t.raw };
  if (t.unit !== undefined) n.unit = t.unit;
  if (t.yearLike === true) n.yearLike = true;
  if (t.ordinal === true) n.ordinal = true;
  return n;
});

// --- Lists ----------------------------------------------------------------------------------
const AND = kw('and', '&', 'plus');
r('MCol', ['Col']);
r('Cols', ['MCol'], (d) => ({ cols: [d[0]] }));
r('Cols', ['Cols', AND, 'MCol'], (d) => ({ cols: [...at<{ cols: ColM[] }>(d, 0).cols, d[2]] }));
r('Vals', ['Val'], (d) => ({ vals: [d[0]] }));
r('Vals', ['Vals', kw('and', '&', 'or', 'nor'), 'Val'], (d) => ({ vals: [...at<{ vals: ValM[] }>(d, 0).vals, d[2]], joiner: at<Feed>(d, 1).t.norm === 'or' ? 'or' : 'and' }));
// "ratio of population of Texas to Ohio", "higher in Texas than Alabama": two groups set against each other.
r('Vals', ['Val', kw('to', 'than'), 'Val'], (d) => ({ vals: [d[0], d[2]], joiner: 'and', against: true }), 0.3);

// --- Aggregates and measures --------------------------------------------------------------
const AGGS: Array<[Agg, string[]]> = [
  ['sum', ['total', 'sum', 'cumulative', 'combined', 'aggregate', 'somme', 'totale', 'suma', 'summe', 'gesamt']],
  ['avg', ['average', 'avg', 'mean', 'averages', 'moyen', 'moyenne', 'promedio', 'media', 'durchschnitt', 'durchschnittlich', 'mittelwert']],
  ['median', ['median', 'typical', 'mediane', 'mediana']],
  ['min', ['minimum', 'min']],
  ['max', ['maximum', 'max']],
];
for (const [agg, words] of AGGS) r('Agg', [kw(...words)], () => ({ agg }));
r('Aggs', ['Agg'], (d) => ({ aggs: [at<{ agg: Agg }>(d, 0).agg] }));
r('Aggs', ['Aggs', kw('and', 'or', '&'), 'Agg'], (d) => ({ aggs: [...at<{ aggs: Agg[] }>(d, 0).aggs, at<{ agg: Agg }>(d, 2).agg] }));
r('Aggs', ['Aggs', 'Agg'], (d) => ({ aggs: [...at<{ aggs: Agg[] }>(d, 0).aggs, at<{ agg: Agg }>(d, 1).agg] }), 0.3);
r('Part', ['Aggs', 'Cols'], (d) => part({ k: 'measure', aggs: at<{ aggs: Agg[] }>(d, 0).aggs, cols: at<{ cols: ColM[] }>(d, 1).cols }));
r('Part', ['Aggs', kw('of'), 'Cols'], (d) => part({ k: 'measure', aggs: at<{ aggs: Agg[] }>(d, 0).aggs, cols: at<{ cols: ColM[] }>(d, 2).cols }));
r('Part', ['Cols', 'Aggs'], (d) => part({ k: 'measure', aggs: at<{ aggs: Agg[] }>(d, 1).aggs, cols: at<{ cols: ColM[] }>(d, 0).cols }), 0.4);
r('Part', [kw('how'), kw('much'), 'Cols'], (d) => part({ k: 'measure', aggs: ['sum'], cols: at<{ cols: ColM[] }>(d, 2).cols }));
// "theft rate by region": a rate said after a measure of rates is their average, not their sum.
r('Part', ['MCol', kw('rate', 'rates', 'level', 'levels')], (d) => part({ k: 'measure', aggs: ['avg'], cols: [at<ColM>(d, 0)] }), -0.3);
const UNIT_ADJ: Record<string, Grain> = { hourly: 'hour', daily: 'day', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year', annual: 'year', annually: 'year' };
r('Part', ['Aggs', tok((f) => UNIT_ADJ[f.t.norm] !== undefined), 'Cols'], (d) => part({ k: 'measure', aggs: at<{ aggs: Agg[] }>(d, 0).aggs, cols: at<{ cols: ColM[] }>(d, 2).cols, unit: UNIT_ADJ[at<Feed>(d, 1).t.norm] as Grain }));
r('Part', ['Aggs', tok((f) => UNIT_ADJ[f.t.norm] !== undefined), kw('total'), kw('of'), 'Cols'], (d) => part({ k: 'measure', aggs: at<{ aggs: Agg[] }>(d, 0).aggs, cols: at<{ cols: ColM[] }>(d, 4).cols, unit: UNIT_ADJ[at<Feed>(d, 1).t.norm] as Grain, totals: true }));
r('Part', ['Aggs'], (d) => part({ k: 'aggs', aggs: at<{ aggs: Agg[] }>(d, 0).aggs }), 1);
// "on average", "in total": how to combine, said after the measure.
r('Part', [kw('on', 'in'), 'Aggs'], (d) => part({ k: 'aggs', aggs: at<{ aggs: Agg[] }>(d, 1).aggs, adverb: true }));
// "how much did General Electric invest": a total of the measure said further on.
r('Part', [kw('how'), kw('much')], () => part({ k: 'aggs', aggs: ['sum'], adverb: true }), 0.3);
r('Part', ['MCol'], (d) => part({ k: 'col', col: at<ColM>(d, 0) }));

// --- Counting -------------------------------------------------------------------------------
r('CountCue', [kw('how'), kw('many')]);
r('CountCue', [kw('number', 'no', 'num', 'count', 'counts', 'amount', 'anzahl', 'nombre', 'numero'), kw('of', 'de')]);
r('CountCue', [kw('total'), kw('number', 'count'), kw('of')]);
r('CountCue', [kw('count')]);
const DISTINCT = kw('distinct', 'unique', 'different', 'separate', 'individual');
r('Counted', ['Subject'], (d) => ({ target: d[0] }));
r('Counted', ['Col'], (d) => ({ target: d[0] }), 0.2);
r('Counted', ['Vals', 'Rows'], (d) => ({ target: d[1], vals: at<{ vals: ValM[] }>(d, 0).vals }));
r('Counted', ['Vals'], (d) => ({ vals: at<{ vals: ValM[] }>(d, 0).vals }), 0.3);
r('Counted', ['Vals', 'Col'], (d) => ({ target: d[1], vals: at<{ vals: ValM[] }>(d, 0).vals }), 0.2);
r('Counted', ['GrainNoun'], (d) => ({ target: at<{ grain: Grain }>(d, 0).grain }));
r('Counted', ['Col', 'Rows'], (d) => ({ target: d[1], qual: d[0] }));
r('Counted', ['Rows', kw('of', 'for', 'with'), 'Col'], (d) => ({ target: d[0], qual: d[2] }));
// "how many co2 values", "how many values of co2": the rows that hold one.
r('Counted', ['Col', VALUE_WORD], (d) => ({ target: [], qual: d[0] }));
r('Counted', [kw('value', 'values'), kw('of', 'for'), 'Col'], (d) => ({ target: [], qual: d[2] }));
r('Part', ['CountCue'], () => part({ k: 'count', distinct: false }));
r('Part', ['CountCue', 'Counted'], (d) => part({ k: 'count', distinct: false, ...at<object>(d, 1) }));
r('Part', ['CountCue', DISTINCT, 'Counted'], (d) => part({ k: 'count', distinct: true, ...at<object>(d, 2) }));
r('Part', [DISTINCT, 'Col'], (d) => part({ k: 'count', distinct: true, target: at<ColM>(d, 1) }), 0.3);

// --- Time units and groupings ---------------------------------------------------------------
const GRAINS: Array<[Grain, string[]]> = [
  ['hour', ['hour']], ['day', ['day', 'date']], ['week', ['week']], ['month', ['month']], ['quarter', ['quarter']], ['year', ['year']], ['decade', ['decade']],
];
for (const [grain, words] of GRAINS) r('GrainNoun', [kw(...words)], () => ({ grain }));
r('Cyclic', [kw('weekday', 'weekdays', 'dow')], () => ({ grain: 'weekday' }));
r('Cyclic', [kw('day'), kw('of'), kw('week')], () => ({ grain: 'weekday' }));
r('Cyclic', [kw('hour', 'time'), kw('of'), kw('day')], () => ({ grain: 'hourOfDay' }));
r('Cyclic', [kw('month'), kw('of'), kw('year')], () => ({ grain: 'monthOfYear' }));
r('Cyclic', [kw('quarter'), kw('of'), kw('year')], () => ({ grain: 'quarterOfYear' }));
r('Grain', ['GrainNoun'], undefined, 0.05);
r('Grain', ['Cyclic'], undefined, 0.05);
const grainOf = (d: unknown[], i: number): Grain => at<{ grain: Grain }>(d, i).grain;
r('Dim', ['Col'], (d) => ({ d: 'col', col: d[0] }));
// "for each number of children": the number of them is the grouping itself.
r('Dim', [kw('number', 'count'), kw('of'), 'Col'], (d) => ({ d: 'col', col: d[2] }), 0.2);
r('Dim', ['Grain'], (d) => ({ d: 'grain', grain: grainOf(d, 0) }));
r('Dim', ['Grain', kw('of'), 'Col'], (d) => ({ d: 'grain', grain: grainOf(d, 0), of: d[2] }));
r('Dim', ['Col', 'GrainNoun'], (d) => ({ d: 'col', col: d[0], grain: grainOf(d, 1) }));
r('Dim', ['Subject'], (d) => ({ d: 'rows', rows: d[0] }), 0.5);
// "per customer segment": the segment of the customers, a column of the table the noun names.
r('Dim', ['Subject', 'Col'], (d) => {
  const tables = at<RowsM>(d, 0).alts.map((a) => a.table);
  const alts = at<ColM>(d, 1).alts.filter((a) => tables.includes(a.ref.table));
  return alts.length > 0 ? { d: 'col', col: { ...at<ColM>(d, 1), alts } } : undefined;
}, 0.1);
r('Dims', ['Dim'], (d) => ({ dims: [d[0]] }));
r('Dims', ['Dims', kw('and', '&', 'then'), 'Dim'], (d) => ({ dims: [...at<{ dims: DimSpec[] }>(d, 0).dims, d[2]] }));
r('Dims', ['Dims', kw('by', 'per')], (d) => at<object>(d, 0));
r('Dims', ['Dims', kw('by', 'per'), 'Dim'], (d) => ({ dims: [...at<{ dims: DimSpec[] }>(d, 0).dims, d[2]] }));
const BY: string[][] = [['by'], ['per'], ['for', 'each'], ['for', 'every'], ['in', 'each'], ['in', 'every'], ['each'], ['every'], ['across'], ['broken', 'down', 'by'],
  ['break', 'down', 'by'], ['breakdown', 'by'], ['breakdown', 'of'], ['broken', 'out', 'by'], ['grouped', 'by'], ['group', 'by'], ['split', 'by'], ['split', 'across'], ['segmented', 'by'], ['par'], ['por'], ['pro'], ['nach']];
for (const words of BY) r('By', words.map((w) => kw(w)));
r('Part', ['By', 'Dims'], (d) => part({ k: 'group', dims: at<{ dims: DimSpec[] }>(d, 1).dims }));
r('Part', ['Dim', kw('wise')], (d) => part({ k: 'group', dims: [at<DimSpec>(d, 0)] }));
// "share of rows where X within each region": the share is taken inside each group, not of the whole.
r('Part', [kw('within'), kw('each', 'every'), 'Dims'], (d) => part({ k: 'group', dims: at<{ dims: DimSpec[] }>(d, 2).dims, within: true }));
r('Part', [kw('hourly', 'daily', 'weekly', 'monthly', 'quarterly', 'yearly', 'annual', 'annually')], (d) => {
  const w = at<Feed>(d, 0).t.norm;
  const grain: Grain = w === 'hourly' ? 'hour' : w === 'daily' ? 'day' : w === 'weekly' ? 'week' : w === 'monthly' ? 'month' : w === 'quarterly' ? 'quarter' : 'year';
  return part({ k: 'group', dims: [{ d: 'grain', grain, from: 0, to: 0, cost: 0 }], adj: true });
});
r('Part', [kw('across', 'by', 'for', 'over', 'among'), kw('all', 'every'), 'Dim'], () => part({ k: 'everything' }));
r('Part', [kw('trend', 'trends', 'trending', 'evolution', 'evolve', 'evolved', 'timeline')], () => part({ k: 'trend' }));
r('Part', [kw('over', 'through', 'across'), kw('time', 'years', 'months')], () => part({ k: 'trend' }));
r('Part', [kw('time'), kw('series')], () => part({ k: 'trend' }));
// "how did co2 change", "how has it varied": a change told as its course over time.
// ("average weekly change", "the biggest change" are figures of changes, which are not computed.)
r('Part', [kw('change', 'changed', 'vary', 'varied', 'develop', 'developed', 'moved')], (d) => {
  const f = at<Feed>(d, 0);
  const before = f.lat.tokens[f.t.i - 1];
  return before !== undefined && (UNIT_ADJ[before.norm] !== undefined || /^(average|avg|mean|total|biggest|largest|smallest|greatest|max|maximum|min|minimum|percent|percentage|net)$/.test(before.norm)) ? undefined : part({ k: 'trend' });
}, 0.3);

// --- Which / who / when ---------------------------------------------------------------------
const WHICH = kw('which', 'what', 'whose');
r('Part', [WHICH, 'Dim'], (d) => part({ k: 'which', dim: at<DimSpec>(d, 1) }));
// "which flight phase": a noun nothing names before the column qualifies it, as in a measure's name.
r('Part', [WHICH, QUALIFIER_NOUN, 'Col'], (d) => part({ k: 'which', dim: { d: 'col', col: at<ColM>(d, 2) } as DimSpec }), 0.5);
r('Part', [WHICH, 'Dim', kw('and'), 'Dim'], (d) => part({ k: 'which', dim: at<DimSpec>(d, 1), also: at<DimSpec>(d, 3) }));
// "peak GNP, and the year?", "lowest flow and when": the row behind the extreme is asked for.
r('Part', [kw('and'), kw('when', 'year', 'date', 'day', 'month')], () => part({ k: 'which', who: 'when' }));
r('Part', [kw('and'), kw('who', 'which', 'where')], () => part({ k: 'which', who: 'who' }));
r('Part', [WHICH, 'Num', 'Dim'], (d) => part({ k: 'which', dim: at<DimSpec>(d, 2), n: at<NumM>(d, 1).value }));
r('Part', [kw('in', 'on', 'at', 'during', 'for'), WHICH, 'Dim'], (d) => part({ k: 'which', dim: at<DimSpec>(d, 2) }));
r('Part', [kw('who')], () => part({ k: 'which', who: 'who' }), 0.2);
r('Part', [kw('when')], () => part({ k: 'which', who: 'when' }), 0.2);

const isFlagCol = (c: { min?: number | string; max?: number | string; distinct: number }): boolean => c.min === 0 && c.max === 1 && c.distinct === 2;
/** An equality never takes an ordinal word as its value ("first" is not `co2` = 1). */
const notOrdinal = (d: unknown[]): boolean => !d.some((x) => x !== null && typeof x === 'object' && (x as Partial<NumM>).ordinal === true && !/\d/.test((x as Partial<NumM>).raw ?? ''));
// --- Rankings -------------------------------------------------------------------------------
const UP = ['highest', 'largest', 'biggest', 'greatest', 'most', 'max', 'maximum', 'top', 'best', 'peak', 'record', 'higher', 'larger', 'bigger', 'greater', 'more', 'furthest', 'farthest'];
const DOWN = ['lowest', 'smallest', 'least', 'fewest', 'min', 'minimum', 'worst', 'bottom', 'lower', 'smaller', 'fewer', 'less'];
r('Super', [kw(...UP)], (d) => ({ dir: 'desc', word: at<Feed>(d, 0).t.norm }));
r('Super', [kw(...DOWN)], (d) => ({ dir: 'asc', word: at<Feed>(d, 0).t.norm }));
r('Super', [kw('latest', 'newest', 'recent')], (d) => ({ dir: 'desc', word: at<Feed>(d, 0).t.norm, date: true }));
r('Super', [tok((f) => f.t.kind === 'word' && f.t.pos === 'ADJ' && /est$/.test(f.t.norm) && f.t.lemma !== f.t.norm && !f.in.has('attr') && !isKeyword(f.t.norm))], (d) => ({ dir: LOW_POLE.test(at<Feed>(d, 0).t.lemma) ? 'asc' : 'desc', word: at<Feed>(d, 0).t.norm }), 0.3);
r('Super', [kw('earliest')], (d) => ({ dir: 'asc', word: at<Feed>(d, 0).t.norm, date: true }));
r('Super', [kw('most'), kw('recent')], () => ({ dir: 'desc', word: 'latest', date: true }));
// "when was co2 first recorded", "the last reading": in time order, when nothing else takes the word.
r('Super', [tok((f) => f.t.raw.toLowerCase() === 'first')], () => ({ dir: 'asc', word: 'earliest', date: true }), 0.4);
r('Super', [tok((f) => f.t.raw.toLowerCase() === 'last')], () => ({ dir: 'desc', word: 'latest', date: true }), 0.4);
const sup = (d: unknown[], i: number): { dir: 'desc' | 'asc'; word: string } => at<{ dir: 'desc' | 'asc'; word: string }>(d, i);
r('Part', ['Super'], (d) => part({ k: 'rank', ...sup(d, 0) }));
r('Part', ['Super', 'Cols'], (d) => part({ k: 'rank', ...sup(d, 0), cols: at<{ cols: ColM[] }>(d, 1).cols }));
// "highest average revenue"; but "min, max and average revenue" lists aggregates, it ranks nothing.
r('Part', ['Super', 'Aggs', 'Cols'], (d) => (/^(min|max|minimum|maximum)$/.test(sup(d, 0).word) || at<{ aggs: Agg[] }>(d, 1).aggs.length > 1 ? undefined
  : part({ k: 'rank', ...sup(d, 0), aggs: at<{ aggs: Agg[] }>(d, 1).aggs, cols: at<{ cols: ColM[] }>(d, 2).cols })));
r('Part', ['Super', 'Subject'], (d) => part({ k: 'rank', ...sup(d, 0), rows: at<RowsM>(d, 1) }));
// "element with the most isotopes" in isotopes.csv: the element whose rows are most.
r('Part', ['Col', kw('with', 'having'), 'Super', 'Subject'], (d) => part({ k: 'rank', ...sup(d, 2), counted: true, dim: { d: 'col', col: at<ColM>(d, 0), from: at<ColM>(d, 0).from, to: at<ColM>(d, 0).to, cost: 0 } }));
r('Part', ['Super', 'Attr'], (d) => part({ k: 'rank', dir: 'desc', word: at<{ word: string }>(d, 1).word, attr: at<never>(d, 1) }));
// "the densest element", "the heaviest cars": rows ranked by the adjective's column.
r('Part', ['SupAttr', 'Subject'], (d) => part({ k: 'rank', dir: 'desc', word: at<{ word: string }>(d, 0).word, attr: at<never>(d, 0), rows: at<RowsM>(d, 1) }));
// "the coldest day", "the hottest month": the day (row) ranked, and when it was; "the warmest
// year" of monthly rows: the year whose months average highest.
r('Part', ['SupAttr', 'GrainNoun'], (d) => part({ k: 'rank', dir: 'desc', word: at<{ word: string }>(d, 0).word, attr: at<never>(d, 0), when: true, grain: at<{ grain: Grain }>(d, 1).grain }));
// "of the elements", "among the districts": the rows a question is about, said.
// (A guessed noun only in the plural: "of the elements", never "in dollars".)
r('Part', [kw('of', 'among', 'for'), 'Subject'], (d) => (at<RowsM>(d, 1).alts.some((a) => a.guessed === true && a.plural !== true) ? undefined : part({ k: 'rows', rows: at<RowsM>(d, 1) })), 0.1);
// The writer's form of a record row: "`date` of the row with the highest `temp`".
r('Part', ['Col', kw('of'), 'Rows', kw('with'), 'Super', 'MCol'], (d) => part({ k: 'rank', ...sup(d, 4), cols: [at<ColM>(d, 5)], rows: at<RowsM>(d, 2), show: at<ColM>(d, 0) }), -0.5);
r('Part', ['Super', kw('number', 'count', 'amount'), kw('of'), 'Rows'], (d) => part({ k: 'rank', ...sup(d, 0), rows: at<RowsM>(d, 3), counted: true }));
r('Part', ['Super', kw('number', 'count'), kw('of')], (d) => part({ k: 'rank', ...sup(d, 0), counted: true }));
// "the record number of trips" where `trips` is a column of counts: that column.
r('Part', ['Super', kw('number', 'count', 'amount'), kw('of'), 'Cols'], (d) => part({ k: 'rank', ...sup(d, 0), cols: at<{ cols: ColM[] }>(d, 3).cols }));
r('Part', ['Super', kw('often', 'frequently')], (d) => part({ k: 'rank', ...sup(d, 0), counted: true }));
r('Part', [kw('most', 'least'), kw('common', 'frequent', 'popular', 'usual', 'often'), 'Col'], (d) => part({ k: 'rank', dir: at<Feed>(d, 0).t.norm === 'most' ? 'desc' : 'asc', word: 'most common', cols: [at<ColM>(d, 2)], mode: true }));
r('Part', [kw('most', 'least'), kw('common', 'frequent', 'popular')], (d) => part({ k: 'rank', dir: at<Feed>(d, 0).t.norm === 'most' ? 'desc' : 'asc', word: 'most common', mode: true }));
r('Part', ['SupAttr'], (d) => part({ k: 'rank', dir: 'desc', word: at<{ word: string }>(d, 0).word, attr: at<never>(d, 0) }), 0.2);
r('Part', [kw('most', 'more'), 'Attr'], (d) => part({ k: 'rank', dir: 'desc', word: `most ${at<{ word: string }>(d, 1).word}`, attr: at<never>(d, 1) }));
r('Part', [kw('least', 'less'), 'Attr'], (d) => part({ k: 'rank', dir: 'asc', word: `least ${at<{ word: string }>(d, 1).word}`, attr: at<never>(d, 1) }));
r('Part', ['Col', kw('at'), kw('its', 'their'), 'Super'], (d) => part({ k: 'rank', ...sup(d, 3), cols: [at<ColM>(d, 0)] }));
// "(when was) the navy budget largest", "rainfall highest": the superlative after its column.
r('Part', ['Cols', kw('largest', 'highest', 'biggest', 'greatest', 'lowest', 'smallest', 'most', 'least')], (d) => at<{ cols: ColM[] }>(d, 0).cols.some((c) => c.alts.every((a) => isFlag(a.ref.column))) ? undefined : part({ k: 'rank', dir: /^(lowest|smallest|least)$/.test(at<Feed>(d, 1).t.norm) ? 'asc' : 'desc', word: at<Feed>(d, 1).t.norm, cols: at<{ cols: ColM[] }>(d, 0).cols }), 0.2);
r('Part', ['Col', kw('at'), 'Super'], (d) => part({ k: 'rank', ...sup(d, 2), cols: [at<ColM>(d, 0)] }));
// Top N: "top 5 cities by revenue", "bottom 3", "5 largest orders", "the 3 most populous states".
const TOP = kw('top', 'bottom', 'first', 'last', 'best', 'worst');
const topDir = (f: Feed): 'desc' | 'asc' => (/^(bottom|last|worst)$/.test(f.t.norm) ? 'asc' : 'desc');
const count = (n: NumM): number | undefined => (Number.isInteger(n.value) && n.value >= 1 && n.value <= 1000 && n.unit === undefined && n.yearLike !== true ? n.value : undefined);
r('TopN', [TOP, 'Num'], (d) => {
  const n = count(at<NumM>(d, 1));
  return n === undefined ? undefined : { dir: topDir(at<Feed>(d, 0)), n };
});
r('TopN', ['Num', 'Super'], (d) => {
  const n = count(at<NumM>(d, 0));
  return n === undefined ? undefined : { dir: sup(d, 1).dir, n, word: sup(d, 1).word };
});
r('TopN', ['Num', kw('most', 'least'), 'Attr'], (d) => {
  const n = count(at<NumM>(d, 0));
  return n === undefined ? undefined : { dir: at<Feed>(d, 1).t.norm === 'most' ? 'desc' : 'asc', n, attr: d[2] };
});
r('TopN', ['Num', 'SupAttr'], (d) => {
  const n = count(at<NumM>(d, 0));
  return n === undefined ? undefined : { dir: 'desc', n, attr: d[1] };
});
r('TopN', [TOP, 'Num', 'Super'], (d) => {
  const n = count(at<NumM>(d, 1));
  return n === undefined ? undefined : { dir: sup(d, 2).dir, n, word: sup(d, 2).word };
});
r('TopN', [TOP, 'Num', 'SupAttr'], (d) => {
  const n = count(at<NumM>(d, 1));
  return n === undefined ? undefined : { dir: 'desc', n, attr: d[2] };
});
const topOf = (d: unknown[]): { dir: 'desc' | 'asc'; n: number } => at<{ dir: 'desc' | 'asc'; n: number }>(d, 0);
// "top 3 days by level": the number and its unit written as one ("3 days").
const GRAIN_UNITS: Record<string, Grain> = { day: 'day', week: 'week', month: 'month', year: 'year', hour: 'hour' };
const numGrain = tok((f) => f.t.kind === 'number' && GRAIN_UNITS[(f.t.unit ?? '').replace(/s$/, '')] !== undefined && Number.isInteger(f.t.value) && (f.t.value ?? 0) >= 1);
const topGrain = (d: unknown[]): object => {
  const t = at<Feed>(d, 1).t;
  return { dir: topDir(at<Feed>(d, 0)), n: t.value, dim: { d: 'grain', grain: GRAIN_UNITS[(t.unit ?? '').replace(/s$/, '')], from: t.i, to: t.i + 1, cost: 0 } };
};
r('Part', [TOP, numGrain], (d) => part({ k: 'top', ...(topGrain(d) as { dir: 'desc'; n: number }) }));
r('Part', [TOP, numGrain, 'TopBy'], (d) => part({ k: 'top', ...(topGrain(d) as { dir: 'desc'; n: number }), by: at<never>(d, 2) }));
r('TopBy', [kw('by', 'in', 'for', 'on'), 'Cols'], (d) => ({ col: at<{ cols: ColM[] }>(d, 1).cols[0] }));
r('TopBy', [kw('by', 'in', 'for', 'on'), 'Aggs', 'Cols'], (d) => ({ aggs: at<{ aggs: Agg[] }>(d, 1).aggs, col: at<{ cols: ColM[] }>(d, 2).cols[0] }));
r('TopBy', [kw('by', 'in', 'for', 'on'), kw('number', 'count'), kw('of'), 'Rows'], () => ({ counted: true }));
r('Part', ['TopN'], (d) => part({ k: 'top', ...topOf(d) }));
r('Part', ['TopN', 'Dim'], (d) => part({ k: 'top', ...topOf(d), dim: at<DimSpec>(d, 1) }));
r('Part', ['TopN', 'Dim', 'TopBy'], (d) => part({ k: 'top', ...topOf(d), dim: at<DimSpec>(d, 1), by: at<never>(d, 2) }));
r('Part', ['TopN', 'TopBy'], (d) => part({ k: 'top', ...topOf(d), by: at<never>(d, 1) }));
r('Part', [kw('sorted', 'ordered', 'ranked', 'sort', 'order', 'rank'), kw('by')], () => part({ k: 'order' }));
r('Part', [kw('descending', 'desc', 'decreasing')], () => part({ k: 'order', dir: 'desc' }));
r('Part', [kw('ascending', 'asc', 'increasing')], () => part({ k: 'order', dir: 'asc' }));
r('Part', [kw('highest', 'largest', 'biggest'), kw('first')], () => part({ k: 'order', dir: 'desc' }));
r('Part', [kw('lowest', 'smallest'), kw('first')], () => part({ k: 'order', dir: 'asc' }));

// --- Filters --------------------------------------------------------------------------------
const PREP = kw('in', 'for', 'from', 'at', 'of', 'with', 'on', 'among', 'within', 'inside', 'whose', 'where', 'that', 'are', 'is', 'was', 'were');
r('Part', ['Vals'], (d) => part({ k: 'val', ...vl(d, 0) }));
r('Part', [PREP, 'Vals'], (d) => part({ k: 'val', ...vl(d, 1) }));
// "bad rate", "default rate": the share of the rows holding the value (within each group, if grouped).
// (A whole category value, not a word inside longer values: "birth rate" inside an indicator's name is no "bad rate".)
r('Part', ['Vals', kw('rate', 'rates')], (d) => (vl(d, 0).vals.every((v) => v.alts.every((a) => a.link !== 'part'))
  ? part({ k: 'val', ...vl(d, 0), rate: true }) : undefined));
/** "region is Europe", "race other": a value right after its own column's name. */
const named = (col: ColM, list: ValList, neg = false): object | undefined => {
  const cols = new Set(col.alts.map((a) => a.ref.column));
  const vals = list.vals.map((v) => ({ ...v, alts: v.alts.filter((a) => cols.has(a.ref.column)) }));
  return vals.every((v) => v.alts.length > 0) ? part({ k: 'val', ...list, vals, named: col, ...(neg ? { neg } : {}) }) : undefined;
};
r('Part', ['Col', kw('is', 'was', 'are', '=', 'equals', 'equal', 'of', 'being'), 'Vals'], (d) => named(at<ColM>(d, 0), vl(d, 2)));
r('Part', ['Col', 'Vals'], (d) => named(at<ColM>(d, 0), vl(d, 1)));
const NEG = [['not'], ['no'], ['excluding'], ['exclude'], ['except'], ['without'], ['non'], ['other', 'than'], ['outside'], ['outside', 'of'], ['but', 'not'], ['apart', 'from'], ['besides']];
for (const words of NEG) r('Neg', words.map((w) => kw(w)));
r('Part', ['Neg', 'Vals'], (d) => part({ k: 'val', ...vl(d, 1), neg: true }));
r('Part', ['Neg', PREP, 'Vals'], (d) => part({ k: 'val', ...vl(d, 2), neg: true }));
r('Part', ['Col', kw('is', 'was', 'are'), 'Neg', 'Vals'], (d) => named(at<ColM>(d, 0), vl(d, 3), true));
r('Part', ['Neg'], () => part({ k: 'neg' }), 0.5);
r('Part', ['Neg', 'Col'], (d) => part({ k: 'col', col: at<ColM>(d, 1), neg: true }));
// "customers without orders", "products that never sold": rows of another table that do not occur.
r('Part', ['Neg', 'Rows'], (d) => part({ k: 'absent', rows: at<RowsM>(d, 1) }));
// "name contains \"Lovelace\"", "titles mentioning war": a text column searched for a word.
const CONTAINS = kw('contains', 'contain', 'containing', 'includes', 'including', 'mentions', 'mentioning', 'mention');
const QUOTED_TEXT = tok((f) => f.t.kind === 'quoted' || (f.t.kind === 'word' && !f.t.stop));
// The text as written, quotes off: the search ignores case, and the reading shows it as the user wrote it.
const quoted = (f: Feed): string => (f.t.kind === 'quoted' ? f.t.raw.slice(1, -1) : f.t.raw).trim();
r('Part', ['Col', CONTAINS, QUOTED_TEXT], (d) => part({ k: 'contains', col: at<ColM>(d, 0), text: quoted(at<Feed>(d, 2)) }));
// "emojis with cat in the name": a word searched in the column named after it.
r('Part', [kw('with', 'having'), QUOTED_TEXT, kw('in'), 'Col'], (d) => part({ k: 'contains', col: at<ColM>(d, 3), text: quoted(at<Feed>(d, 1)) }));
r('Part', ['Col', kw('does', 'do'), kw('not'), CONTAINS, QUOTED_TEXT], (d) => part({ k: 'contains', col: at<ColM>(d, 0), text: quoted(at<Feed>(d, 4)), neg: true }));
r('Part', ['Rows'], (d) => part({ k: 'rows', rows: at<RowsM>(d, 0) }));
// "5 rows", "the first 10 rows", "some sample rows": rows as they come, so many of them.
const rowCount = (n: NumM): number | undefined => (Number.isInteger(n.value) && n.value >= 1 && n.value <= 1000 && n.yearLike !== true && n.unit === undefined ? n.value : undefined);
const SAMPLE = kw('sample', 'example', 'random', 'few');
// Only where rows are asked to be shown ("show 5 rows"), never in a condition ("orders with 3 items").
const listed = tok((f) => f.t.kind === 'number' && (f.t.i === 0 || /^(show|list|display|print|give|get|see|me|view)$/.test(f.lat.tokens[f.t.i - 1]?.norm ?? '')));
r('Part', [listed, 'Rows'], (d) => {
  const t = at<Feed>(d, 0).t;
  const n = rowCount({ value: t.value ?? 0, raw: t.raw, ...(t.unit !== undefined ? { unit: t.unit } : {}), ...(t.yearLike === true ? { yearLike: true } : {}) } as NumM);
  return n !== undefined ? part({ k: 'rows', rows: at<RowsM>(d, 1), n }) : undefined;
});
r('Part', ['Num', SAMPLE, 'Rows'], (d) => (rowCount(at<NumM>(d, 0)) !== undefined ? part({ k: 'rows', rows: at<RowsM>(d, 2), n: rowCount(at<NumM>(d, 0)) }) : undefined));
r('Part', [tok((f) => f.t.raw.toLowerCase() === 'first'), 'Num', 'Rows'], (d) => (rowCount(at<NumM>(d, 1)) !== undefined ? part({ k: 'rows', rows: at<RowsM>(d, 2), n: rowCount(at<NumM>(d, 1)) }) : undefined));
r('Part', [SAMPLE, 'Rows'], (d) => part({ k: 'rows', rows: at<RowsM>(d, 1) }));
r('Part', ['Vals', 'Rows'], (d) => part({ k: 'rows', rows: at<RowsM>(d, 1), vals: at<{ vals: ValM[] }>(d, 0).vals }));
// Comparisons.
const OPS: Array<[CmpOp, string[][]]> = [
  ['>', [['more', 'than'], ['greater', 'than'], ['higher', 'than'], ['larger', 'than'], ['bigger', 'than'], ['longer', 'than'], ['over'], ['above'], ['exceeding'], ['exceeds'], ['exceed'], ['>'], ['after']]],
  ['>=', [['at', 'least'], ['no', 'less', 'than'], ['not', 'less', 'than'], ['>='], ['greater', 'than', 'or', 'equal', 'to'], ['minimum', 'of']]],
  ['<', [['less', 'than'], ['fewer', 'than'], ['lower', 'than'], ['smaller', 'than'], ['shorter', 'than'], ['under'], ['below'], ['<'], ['before']]],
  ['<=', [['at', 'most'], ['no', 'more', 'than'], ['not', 'more', 'than'], ['up', 'to'], ['<='], ['less', 'than', 'or', 'equal', 'to'], ['maximum', 'of']]],
  ['=', [['='], ['equal', 'to'], ['equals'], ['exactly']]],
  ['<>', [['<>'], ['not', 'equal', 'to']]],
];
for (const [op, forms] of OPS) for (const words of forms) r('CmpOp', words.map((w) => kw(w)), () => ({ op }));
const OR_MORE: Array<[CmpOp, string[]]> = [['>=', ['more', 'higher', 'above', 'greater', 'over', 'plus']], ['<=', ['less', 'fewer', 'lower', 'below', 'under']]];
for (const [op, words] of OR_MORE) r('OrMore', [kw('or'), kw(...words)], () => ({ op }));
const opOf = (d: unknown[], i: number): CmpOp => at<{ op: CmpOp }>(d, i).op;
r('Part', ['MCol', 'CmpOp', 'Num'], (d) => part({ k: 'cmp', col: at<ColM>(d, 0), op: opOf(d, 1), num: at<NumM>(d, 2) }));
r('Part', ['MCol', kw('='), 'Num', kw('or'), 'Num'], (d) => part({ k: 'cmp', col: at<ColM>(d, 0), op: '=', num: at<NumM>(d, 2), alts: [at<NumM>(d, 4)] }));
r('Part', ['MCol', kw('is', 'was', 'are', 'of', 'with', 'for', 'by'), 'CmpOp', 'Num'], (d) => part({ k: 'cmp', col: at<ColM>(d, 0), op: opOf(d, 2), num: at<NumM>(d, 3) }));
r('Part', ['MCol', kw('of', 'is', '=', 'at'), 'Num', 'OrMore'], (d) => part({ k: 'cmp', col: at<ColM>(d, 0), op: opOf(d, 3), num: at<NumM>(d, 2) }));
r('Part', ['CmpOp', 'Num', 'MCol'], (d) => part({ k: 'cmp', col: at<ColM>(d, 2), op: opOf(d, 0), num: at<NumM>(d, 1), unitCol: at<ColM>(d, 2) }));
r('Part', ['CmpOp', 'Num', kw('in', 'of'), 'Col'], (d) => part({ k: 'cmp', col: at<ColM>(d, 3), op: opOf(d, 0), num: at<NumM>(d, 1), unitCol: at<ColM>(d, 3) }));
r('Part', ['CmpOp', 'Num'], (d) => part({ k: 'cmp', op: opOf(d, 0), num: at<NumM>(d, 1) }), 0.3);
// "women who have children" over a count of children: at least one.
r('Part', [kw('have', 'has', 'had', 'having', 'with'), 'Col'], (d) => {
  const alts = at<ColM>(d, 1).alts.filter((a) => a.ref.column.kind === 'numeric' && a.ref.column.min === 0 && a.ref.column.distinct <= 20 && !isFlagCol(a.ref.column));
  return alts.length > 0 ? part({ k: 'cmp', col: { ...at<ColM>(d, 1), alts }, op: '>', num: { value: 0, raw: 'any' } as NumM }) : undefined;
}, 0.1);
// "over 60 voters"; but "fewer than 3 measurements" counts rows per thing, which is not computed.
r('Part', ['CmpOp', 'Num', 'Rows'], (d) => (at<RowsM>(d, 2).alts.some((a) => a.generic === true) ? undefined : part({ k: 'cmp', op: opOf(d, 0), num: at<NumM>(d, 1), rowsAfter: true })), 0.3);
r('Part', ['Num', 'OrMore', 'Col'], (d) => part({ k: 'cmp', col: at<ColM>(d, 2), op: opOf(d, 1), num: at<NumM>(d, 0), unitCol: at<ColM>(d, 2) }));
r('Part', ['Col', 'Num', 'OrMore'], (d) => part({ k: 'cmp', col: at<ColM>(d, 0), op: opOf(d, 2), num: at<NumM>(d, 1) }));
r('Part', ['Num', 'OrMore'], (d) => part({ k: 'cmp', op: opOf(d, 1), num: at<NumM>(d, 0) }), 0.3);
// "population from 1990 to 2010" is a span of years, not of population, unless the column holds
// years ("between" is left to the column: "price between 1990 and 2010").
const yearSpan = (d: unknown[], lo: number, hi: number, col: number): number =>
  (at<Feed>(d, lo - 1).t.norm === 'from' && at<NumM>(d, lo).yearLike === true && at<NumM>(d, hi).yearLike === true && at<ColM>(d, col).alts.every((a) => !timeNamed(a.ref.column)) ? 1.5 : 0);
r('Part', ['Col', kw('between', 'from'), 'Num', kw('and', 'to', '-'), 'Num'], (d) => ({ ...part({ k: 'cmp', col: at<ColM>(d, 0), op: '>=', num: at<NumM>(d, 2), hi: at<NumM>(d, 4) }), cost: yearSpan(d, 2, 4, 0) }));
r('Part', [kw('between'), 'Num', kw('and', 'to'), 'Num', 'Col'], (d) => part({ k: 'cmp', col: at<ColM>(d, 4), op: '>=', num: at<NumM>(d, 1), hi: at<NumM>(d, 3), unitCol: at<ColM>(d, 4) }));
r('Part', [kw('between'), 'Num', kw('and'), 'Num'], (d) => part({ k: 'cmp', op: '>=', num: at<NumM>(d, 1), hi: at<NumM>(d, 3) }), 0.3);
// "LifeExp at 66": the number is a condition on the whole-number column it fits (the composer finds it).
r('Part', [kw('at'), 'Num'], (d) => (notOrdinal(d) && at<NumM>(d, 1).unit === undefined ? part({ k: 'cmp', op: '=', num: at<NumM>(d, 1) }) : undefined), 0.1);
r('Part', ['Col', kw('of', 'is', '=', 'equals', 'was'), 'Num'], (d) => (notOrdinal(d) ? part({ k: 'cmp', col: at<ColM>(d, 0), op: '=', num: at<NumM>(d, 2) }) : undefined), 0.1);
r('Part', ['Col', 'Num'], (d) => (notOrdinal(d) ? part({ k: 'cmp', col: at<ColM>(d, 0), op: '=', num: at<NumM>(d, 1) }) : undefined), 0.3);
r('Part', ['Num', 'Col'], (d) => (notOrdinal(d) ? part({ k: 'cmp', col: at<ColM>(d, 1), op: '=', num: at<NumM>(d, 0), unitCol: at<ColM>(d, 1) }) : undefined), 0.2);
// "12 years of education", "3 years of experience": the number is a value of the column after "of".
r('Part', ['Num', kw('of', 'in'), 'Col'], (d) => (notOrdinal(d) ? part({ k: 'cmp', col: at<ColM>(d, 2), op: '=', num: at<NumM>(d, 0), unitCol: at<ColM>(d, 2) }) : undefined), 0.2);
// "5 times a week", "3 times per month": a number with its unit.
r('Num', ['Num', kw('times'), kw('per', 'every', 'each'), 'GrainNoun'], (d) => ({ ...at<object>(d, 0), unit: 'times' }));
r('Num', ['Num', kw('times'), 'GrainNoun'], (d) => ({ ...at<object>(d, 0), unit: 'times' }));
r('Part', ['CmpAttr', kw('than'), 'Num'], (d) => part({ k: 'cmp', attr: at<never>(d, 0), op: '>', num: at<NumM>(d, 2) }));
// "east of 30 degrees": beyond a number on the attribute's side.
r('Part', ['Attr', kw('of'), 'Num'], (d) => part({ k: 'cmp', attr: at<never>(d, 0), op: '>', num: at<NumM>(d, 2) }));
r('Part', ['Attr', kw('of'), 'Num', 'Col'], (d) => part({ k: 'cmp', attr: at<never>(d, 0), op: '>', num: at<NumM>(d, 2), unitCol: at<ColM>(d, 3) }));
r('Part', [kw('more', 'less'), 'Attr', kw('than'), 'Num'], (d) => part({ k: 'cmp', attr: at<never>(d, 1), op: at<Feed>(d, 0).t.norm === 'more' ? '>' : '<', num: at<NumM>(d, 3) }));
// Missing values.
const KNOWN = kw('known', 'listed', 'recorded', 'reported', 'given', 'available', 'filled', 'entered');
r('Part', [kw('no', 'without', 'lacking'), 'MCol'], (d) => part({ k: 'null', col: at<ColM>(d, 1), isNull: true, none: true }));
r('Part', [kw('no', 'without'), KNOWN, 'Col'], (d) => part({ k: 'null', col: at<ColM>(d, 2), isNull: true }));
r('Part', [kw('no', 'without'), 'Col', KNOWN], (d) => part({ k: 'null', col: at<ColM>(d, 1), isNull: true }));
r('Part', [kw('missing', 'unknown', 'blank', 'empty', 'null', 'lacking'), 'MCol'], (d) => part({ k: 'null', col: at<ColM>(d, 1), isNull: true }));
r('Part', ['Col', kw('is', 'are', 'was', 'were'), kw('missing', 'null', 'empty', 'blank', 'unknown', 'na')], (d) => part({ k: 'null', col: at<ColM>(d, 0), isNull: true }));
r('Part', ['Col', kw('missing')], (d) => part({ k: 'null', col: at<ColM>(d, 0), isNull: true }), 0.1);
r('Part', [kw('with', 'have', 'has', 'having'), KNOWN, 'Col'], (d) => part({ k: 'null', col: at<ColM>(d, 2), isNull: false }));
r('Part', ['Col', KNOWN], (d) => part({ k: 'null', col: at<ColM>(d, 0), isNull: false }));
// "subdivisions that have a parent", "airlines with an IATA code": a value is there (not a breakdown by it).
r('Part', [kw('have', 'has', 'having', 'with'), kw('a', 'an'), 'Col'], (d) => part({ k: 'null', col: at<ColM>(d, 2), isNull: false }));
r('Part', [kw('have', 'has', 'having'), 'Col'], (d) => (at<ColM>(d, 1).alts.some((a) => a.ref.column.kind === 'boolean') ? undefined : part({ k: 'null', col: at<ColM>(d, 1), isNull: false })));
r('Part', [kw('missing', 'null', 'empty', 'blank'), kw('value', 'values')], () => part({ k: 'intent', intent: 'missing' }));
// "no value for 1960": the column is missing.
r('Part', [kw('no', 'without', 'missing'), kw('value', 'values', 'data', 'entry'), kw('for', 'in', 'of'), 'Col'], (d) => part({ k: 'null', col: at<ColM>(d, 3), isNull: true }));

// --- Shares, comparisons, intents, charts -----------------------------------------------------
r('Part', [kw('share', 'percentage', 'percent', 'proportion', 'fraction', 'pct', '%', 'percentages', 'shares')], () => part({ k: 'share' }));
r('Part', [kw('compare', 'comparison', 'versus', 'vs', 'v', 'against')], () => part({ k: 'compare', how: 'compare' }));
r('Part', [kw('compared', 'relative'), kw('to', 'with')], () => part({ k: 'compare', how: 'compare' }));
r('Part', [kw('difference', 'gap'), kw('between', 'in', 'of')], () => part({ k: 'compare', how: 'difference' }));
r('Part', [kw('difference', 'gap')], () => part({ k: 'compare', how: 'difference' }), 0.2);
r('Part', [kw('ratio'), kw('of', 'between')], () => part({ k: 'compare', how: 'ratio' }));
r('Part', [kw('how'), kw('much', 'many'), kw('more', 'higher', 'less', 'lower', 'bigger', 'smaller', 'larger', 'greater', 'fewer')], () => part({ k: 'compare', how: 'howMuch' }));
r('Part', [kw('times'), kw('more', 'higher', 'larger', 'bigger', 'greater')], () => part({ k: 'compare', how: 'ratio' }));
const INTENTS: Array<[Part['k'] extends never ? never : 'histogram' | 'correlation' | 'duplicates' | 'outliers' | 'overview', string[]]> = [
  ['histogram', ['distribution', 'histogram', 'distributed', 'spread']],
  ['correlation', ['correlation', 'correlated', 'correlate', 'correlates', 'relationship', 'related', 'relate', 'association', 'associated']],
  ['duplicates', ['duplicate', 'duplicates', 'duplicated', 'dupes', 'repeated']],
  ['outliers', ['outlier', 'outliers', 'anomaly', 'anomalies', 'anomalous', 'unusual', 'abnormal', 'extreme']],
  ['overview', ['overview', 'summarize', 'summarise', 'summary', 'describe', 'profile']],
];
// An intent word beats the same word read as a framing verb ("are there duplicate rows").
for (const [intent, words] of INTENTS) r('Part', [kw(...words)], () => part({ k: 'intent', intent }), -0.6);
r('Part', [kw('as', 'in'), kw('a', 'table')], () => part({ k: 'chart', wish: 'table' }));
r('Part', [kw('as', 'in'), kw('table')], () => part({ k: 'chart', wish: 'table' }));
r('Part', [kw('without', 'no'), kw('chart', 'graph')], () => part({ k: 'chart', wish: 'table' }));
r('Part', [kw('line'), kw('chart', 'graph', 'plot')], () => part({ k: 'chart', wish: 'line' }));
r('Part', [kw('bar', 'column'), kw('chart', 'graph', 'plot')], () => part({ k: 'chart', wish: 'bar' }));
r('Part', [kw('chart', 'graph', 'plot', 'visualize', 'visualise')], () => part({ k: 'chart', wish: 'chart' }));

// "in one day", "in a single year": the unit of a record, no condition.
r('Part', [kw('in', 'per', 'on', 'for'), kw('one', 'single', 'any', 'a'), 'GrainNoun'], (d) => part({ k: 'filler', word: at<Feed>(d, 0).t }));
r('Part', [kw('in', 'per', 'on', 'for'), 'Num', 'GrainNoun'], (d) => (at<NumM>(d, 1).value === 1 ? part({ k: 'filler', word: at<Feed>(d, 0).t }) : undefined));
// --- Words about the data itself: "in the data", "in the survey", "one of the" --------------
r('Part', [kw('in', 'from', 'of', 'across'), kw('data', 'dataset', 'survey', 'file', 'table', 'sample', 'spreadsheet', 'sheet', 'records')], (d) => part({ k: 'filler', word: at<Feed>(d, 1).t }));
// "profile this data", "summarize the file": the data itself.
r('Part', [kw('this', 'these', 'my', 'our', 'your', 'the', 'all'), kw('data', 'dataset', 'file', 'table', 'spreadsheet', 'sheet')], (d) => part({ k: 'filler', word: at<Feed>(d, 1).t }));
r('Part', [tok((f) => /^(data|dataset)$/.test(f.t.norm) && f.in.size === 0)], (d) => part({ k: 'filler', word: at<Feed>(d, 0).t }), 0.2);
r('Part', [kw('in', 'from', 'of', 'across'), kw('this', 'these', 'my', 'our', 'your'), kw('data', 'dataset', 'survey', 'file', 'table', 'sample', 'spreadsheet', 'sheet', 'records')], (d) => part({ k: 'filler', word: at<Feed>(d, 2).t }));
r('Part', [tok((f) => f.t.raw.toLowerCase() === 'one'), kw('of')], (d) => part({ k: 'filler', word: at<Feed>(d, 0).t }));
// "in 2000" where the table has a column per year: that column.
r('Part', [kw('in', 'for', 'of', 'during'), 'Col'], (d) => (at<ColM>(d, 1).alts.some((a) => /^\d+$/.test(a.ref.column.name.trim())) ? part({ k: 'col', col: at<ColM>(d, 1) }) : undefined));

// --- Follow-up edits and definitions ---------------------------------------------------------
r('Part', [kw('instead')], () => part({ k: 'edit', edit: 'instead' }));
r('Part', [kw('what', 'how'), kw('about')], () => part({ k: 'edit', edit: 'whatAbout' }));
r('Part', [kw('only', 'just', 'solely')], () => part({ k: 'edit', edit: 'only' }));
r('Part', [kw('also', 'too')], () => part({ k: 'edit', edit: 'also' }));
r('Part', [kw('as'), kw('well')], () => part({ k: 'edit', edit: 'also' }));
r('Part', [kw('same')], () => part({ k: 'edit', edit: 'same' }));
r('Part', [kw('again', 'repeat', 'redo')], () => part({ k: 'edit', edit: 'again' }));
r('Part', [kw('once'), kw('more')], () => part({ k: 'edit', edit: 'again' }));
r('Part', [kw('all', 'any', 'every'), kw('years', 'months', 'dates', 'time', 'periods', 'regions', 'values')], () => part({ k: 'edit', edit: 'all' }));
r('Part', [kw('remove', 'drop', 'clear', 'without'), kw('filter', 'filters', 'condition', 'conditions')], () => part({ k: 'edit', edit: 'clear' }));
r('Part', [kw('list', 'show', 'display', 'print', 'details')], () => part({ k: 'edit', edit: 'list' }), 0.1);
r('Part', [kw('column', 'columns', 'field', 'fields', 'variable', 'variables', 'attribute', 'attributes')], () => part({ k: 'edit', edit: 'columns' }), 0.1);
const QUOTED = tok((f) => f.t.kind === 'quoted');
const TARGET = tok((f) => f.t.kind === 'name' || f.t.kind === 'quoted');
const defined = (phrase: Feed, target: Feed): object | undefined => {
  const lat = target.lat;
  const key = spanKey(target.t.i, target.t.i + 1);
  const col = lat.col.get(key);
  const val = lat.val.get(key);
  if (col === undefined && val === undefined) return undefined;
  const out: Record<string, unknown> = { k: 'define', phrase: phrase.t.norm };
  if (col !== undefined) out['col'] = { alts: col, from: target.t.i, to: target.t.i + 1, cost: 0 };
  else if (val !== undefined) out['val'] = { alts: val, text: target.t.norm, from: target.t.i, to: target.t.i + 1, cost: 0 };
  return out;
};
r('Part', [QUOTED, kw('means', 'mean', 'is', '='), TARGET], (d) => defined(at<Feed>(d, 0), at<Feed>(d, 2)));
r('Part', [kw('by'), QUOTED, kw('i'), kw('mean'), TARGET], (d) => defined(at<Feed>(d, 1), at<Feed>(d, 4)));
// "\"women\" means `sex` = 2": one code of a column (the chip offered for a word where codes stand for it).
const CODE = tok((f) => f.t.kind === 'number' || f.t.kind === 'quoted');
r('Part', [QUOTED, kw('means', 'mean'), TARGET, kw('=', 'is'), CODE], (d) => {
  const out = defined(at<Feed>(d, 0), at<Feed>(d, 2)) as Record<string, unknown> | undefined;
  return out?.['col'] === undefined ? undefined : { ...out, code: at<Feed>(d, 4).t.kind === 'number' ? String(at<Feed>(d, 4).t.value) : at<Feed>(d, 4).t.norm };
});

// --- Dates ----------------------------------------------------------------------------------
rules.push(...DATE_RULES);
r('Part', ['WhenF'], (d) => part({ k: 'when', ...at<object>(d, 0) } as PartBody));

// --- Words no part reads ----------------------------------------------------------------------
const CLOSED = /^(DET|PRON|AUX|ADP|CCONJ|SCONJ|PART|INTJ|PUNCT|SYM)$/;
/** WordNet's lexicographer file of nouns of places (county, city, province). */
const LOCATION_FILE = 15;
/**
 * Verb senses that frame a question about rows without naming data ("orders placed", "reviews
 * that happened", "people who work in"): change, communication, contact, creation, motion,
 * perception ("voters who watch TV news"), possession, social and stative verbs. Verbs of
 * competition ("won"), consumption, emotion and weather say something a column would have to
 * hold: they stay unknown words.
 */
const FRAMING_VERBS = new Set([30, 32, 35, 36, 38, 39, 40, 41, 42]);

/** Whether an unbound token is filler: a closed-class word, a stop word, or a verb that only frames the question. */
export function isFiller(f: Feed): boolean {
  const t = f.t;
  // Punctuation is filler; a comparison, "%" or "+" carries a meaning ("what % of patients", "a + b").
  if (t.kind === 'op') return !/^[<>=%+]/.test(t.norm);
  if (t.kind !== 'word') return false;
  // A negation is never filler: dropped, it would answer the opposite question.
  if (/^(not|no|never|none|neither|nor|without|except|excluding|nobody|nothing|n't)$/.test(t.norm)) return false;
  // A grammar word with a meaning of its own ("many", "most", "per", "only") is never dropped.
  if (MEANINGFUL.test(t.norm)) return false;
  // "by school" where a column of school codes repeats: a grouping, never a word to drop ("by area"
  // naming a measure may still rank).
  if (t.norm === 'by' && [...f.lat.rows.entries()].some(([k, hs]) => k.startsWith(`${t.i + 1}:`) && hs.some((h) => h.entity !== undefined))) return false;
  // "in may": a month after a preposition is a time, even when the tagger reads a modal verb.
  if (f.in.has('date') && /^(in|during|since|until|before|after|of|from|through|for)$/.test(f.lat.tokens[t.i - 1]?.norm ?? '')) return false;
  // "yes" naming a `YES` column is that column, not an interjection to drop.
  if (t.pos === 'INTJ' && f.in.has('col')) return false;
  // "us employment": the lattice placed "us" (it reads the pronoun only after a verb: "show us").
  if ((f.lat.val.get(`${t.i}:${t.i + 1}`) ?? []).some((h) => h.link === 'place')) return false;
  // A function word may be filler even where a value or name is spelled like it ("in", "are", "a").
  if (CLOSED.test(t.pos) || (t.stop && !(t.pos === 'ADV' && f.in.has('val')))) return t.raw === t.raw.toLowerCase() || f.in.size === 0;
  // A noun only guessed to name the rows ("people work in ...") may still be a verb the tagger missed.
  if (f.in.size > 0 && ![...f.in].every((k) => k === 'guess')) return false;
  // An open-class word the grammar gives a meaning ("duplicate", "distribution") is read by its rule.
  if (isKeyword(t.norm) && t.pos !== 'VERB') return false;
  // A capitalised word inside a question is a name ("Ford's"), whatever the tagger made of it.
  if (t.i > 0 && /^\p{Lu}/u.test(t.raw)) return false;
  const verbish = t.pos === 'VERB' || (t.pos === 'NOUN' && f.t.i > 0 && /^(people|who|that|which)$/.test(f.lat.tokens[f.t.i - 1]?.norm ?? ''));
  // "missed their target": a verb with an object of the rows' own is a comparison the data must hold, not framing.
  if (verbish && /^(their|its|his|her|our|my|your)$/.test(f.lat.tokens[t.i + 1]?.norm ?? '')) return false;
  // "los angeles county", "cook county": a word for a kind of place after a value names what the value is.
  if (t.pos === 'NOUN' && !f.in.has('col') && senses(t.sing, 'n', 1)[0]?.lex === LOCATION_FILE && [...f.lat.val.keys()].some((k) => Number(k.split(':')[1]) === t.i)) return true;
  // "naturally occurring isotopes", "registered voters": a participle before a noun narrows it.
  if (t.pos === 'VERB' && t.i > 0 && /(ing|ed)$/.test(t.norm) && f.lat.tokens[t.i + 1]?.pos === 'NOUN') return false;
  if (verbish) {
    // A verb that frames the question ("orders placed in 2024", "the lowest temperature
    // recorded"); the composer refuses a bare count whose last word it is ("how many cars were sold").
    const file = verbFile(t.lemma);
    return file !== undefined && FRAMING_VERBS.has(file);
  }
  // ("italy" is tagged an adverb for its ending: only a word the dictionary knows as one is dropped.)
  return t.pos === 'ADV' && /ly$/.test(t.norm) && !isKeyword(t.norm) && senses(t.norm, 'r', 1).length > 0;
}
/** Grammar words that carry a calculation: counting, combining, ranking, grouping, restricting. */
const MEANINGFUL = /^(first|last|latest|earliest|many|much|most|least|more|less|fewer|top|bottom|per|each|every|only|just|total|average|avg|mean|median|sum|count|minimum|maximum|min|max|highest|lowest|largest|smallest|biggest|greatest|distinct|unique|share|percentage|percent|proportion|compare|versus|vs|over|under|above|below|than|since|before|after|until|instead|also|same)$/;
/** Question words: read as filler they cost more than in a part ("which region" beats "which" dropped). */
const QUESTION = /^(which|what|who|whom|whose|when|where|how|why)$/;
/** Grammar words that only join a sentence: read as filler, they cost no more than any filler. */

// A grammar word with a meaning ("most", "who", "per", "only") costs more as filler than in a part,
// so a reading that drops it never beats one that uses it.
// "how long did the oldest patient survive": a question word; the duration is the column the verb names.
r('Part', [kw('how'), kw('long')], (d) => part({ k: 'filler', word: at<Feed>(d, 0).t }), 0.5);
// "overall revenue", "overall accuracy": over all the rows, whatever combines the measure (a sum, a share).
r('Part', [kw('overall')], (d) => part({ k: 'filler', word: at<Feed>(d, 0).t }), -0.5);
r('Part', [tok(isFiller)], (d) => {
  const f = at<Feed>(d, 0);
  const w = f.t;
  // A verb with nothing bound after it is the question's predicate ("how many cars were sold").
  const predicate = w.pos === 'VERB' && !f.lat.tokens.slice(w.i + 1).some((x) => x.kind !== 'word' || bound(f.lat, x.i));
  return { ...part({ k: 'filler', word: w, ...(predicate ? { predicate } : {}) }), cost: QUESTION.test(w.norm) ? 1 : 0 };
}, -0.5);
r('Part', [tok((f) => f.unknown)], (d) => part({ k: 'unknown', word: at<Feed>(d, 0).t }), 9);

r('Items', []);
r('Items', ['Items', 'Part'], (d) => ({ parts: [...(at<{ parts?: Part[] }>(d, 0).parts ?? []), d[1]] }));

export const GRAMMAR = compile(rules, 'Items');

/** Feeds a question's tokens to the grammar; `lenient` lets any content word be an unknown word. */
export function feedOf(lat: Lattice, lenient: boolean): Feed[] {
  const kinds = new Map<number, Set<string>>();
  const mark = (map: Map<string, unknown>, kind: string): void => {
    for (const k of map.keys()) {
      const [a, b] = k.split(':').map(Number) as [number, number];
      for (let i = a; i < b; i++) kinds.set(i, (kinds.get(i) ?? new Set()).add(kind));
    }
  };
  mark(lat.col, 'col');
  mark(lat.val, 'val');
  mark(lat.rows, 'rows');
  mark(lat.date, 'date');
  for (const i of lat.guess.keys()) kinds.set(i, (kinds.get(i) ?? new Set()).add('guess'));
  for (const i of lat.attr.keys()) kinds.set(i, (kinds.get(i) ?? new Set()).add('attr'));
  // Articles that no name or value holds say nothing: they are left out of the parse.
  const kept = lat.tokens.filter((t) => !(/^(the|a|an)$/.test(t.raw) && !kinds.has(t.i)));
  return kept.map((t) => {
    const f: Feed = { t, lat, in: kinds.get(t.i) ?? new Set(), unknown: false };
    f.unknown = t.kind === 'word' || t.kind === 'name' || t.kind === 'quoted' ? (lenient || (f.in.size === 0 && !isKeyword(t.norm) && !isFiller(f))) : t.kind === 'number' && lenient;
    return f;
  });
}
