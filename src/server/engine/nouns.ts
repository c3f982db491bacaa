/**
 * Nouns a question uses without naming a column. People count the things a table holds ("how many
 * patients", "which planet") and call a measure by its kind ("error rate" for `error`, "the
 * index" for a file's one series). These become spans of their own so every such word is
 * accounted for, and only where the reading is safe: a word that could be a filter ("japanese
 * cars") is never taken as a row noun.
 */
import { GRAIN_NOUN } from './cues';
import { CHANGE_WORDS, ROW_WORDS } from './lexicon';
import type { Span } from './mentions';
import { isIdLike, primaryTable, type Parse } from './roles';
import { STOP_WORDS, type Token } from './text';
import type { TableMeta } from './types';

/** Words for "the measured quantity" that follow (or precede) the thing measured. */
export const MEASURE_NOUNS = new Set(['rate', 'level', 'index', 'figure', 'ratio', 'metric', 'value', 'reading', 'score', 'statistic', 'stat', 'amount', 'measure', 'measurement', 'indicator']);
/** Words before a noun that mark it as the thing asked about ("which element", "each worker"). */
const NOUN_LEADS = new Set(['which', 'what', 'each', 'every', 'per']);
const DISTRIBUTIVE_LEADS = new Set(['each', 'every', 'per']);
/** Words after which a noun is a time or place ("on weekends", "during holidays"), not the rows. */
const CIRCUMSTANCE_LEADS = new Set(['on', 'at', 'during', 'in', 'before', 'after', 'since', 'until', 'till', 'around', 'near', 'throughout']);
const PART_COLUMN = /^(year|yr|quarter|qtr|month|mo|day|week|date_?of_?month|day_?of_?week|hour|minute)$/i;

function covered(p: Parse): Set<number> {
  const out = new Set<number>();
  for (const c of p.cues) for (let k = c.at; k < c.end; k++) out.add(k);
  for (const s of p.spans) for (let k = s.start; k < s.end; k++) out.add(k);
  for (const d of p.dates) for (let k = d.at; k < d.end; k++) out.add(k);
  return out;
}

const isContentWord = (t: Token | undefined): boolean =>
  t?.kind === 'word' && !STOP_WORDS.has(t.norm) && !STOP_WORDS.has(t.stem) && t.norm.length >= 3 && /^\p{L}+$/u.test(t.norm);

/** "error rate" for `error`, "rate of churn" for `churn`: the noun belongs to the column. */
export function absorbMeasureNouns(p: Parse): void {
  const taken = covered(p);
  // "the no ballot" in citypoll.csv: a word of the file's name right after a column is part of that column's phrase.
  for (const s of [...p.spans]) {
    if (s.kind !== 'column') continue;
    const next = p.spans.find((x) => x.kind === 'table' && x.start === s.end && s.cols.some((c) => c.table === x.table));
    if (next !== undefined) {
      s.end = next.end;
      p.spans = p.spans.filter((x) => x !== next);
    }
  }
  for (const s of p.spans) {
    if (s.kind !== 'column') continue;
    const after = p.tokens[s.end];
    if (after?.kind === 'word' && MEASURE_NOUNS.has(after.stem) && !taken.has(s.end)) {
      taken.add(s.end);
      s.end += 1;
      continue;
    }
    const before = p.tokens[s.start - 2];
    if (p.tokens[s.start - 1]?.norm === 'of' && before?.kind === 'word' && MEASURE_NOUNS.has(before.stem) && !taken.has(s.start - 2)) {
      taken.add(s.start - 2);
      taken.add(s.start - 1);
      s.start -= 2;
    }
  }
}

/** The one measured column of a table (not an id, not a date part), if it has exactly one. */
export function soleMeasure(table: TableMeta): Span | undefined {
  const cols = table.columns.filter((c) => c.kind === 'numeric' && !isIdLike(c) && !PART_COLUMN.test(c.name.trim()) && c.derived === undefined);
  const only = cols[0];
  return cols.length === 1 && only !== undefined ? { kind: 'column', start: 0, end: 0, score: 1, cols: [{ table, column: only }], exact: false } : undefined;
}

/** "the index", "the values" in a table with one series: that series. */
export function measureNounSpans(p: Parse): void {
  const table = primaryTable(p);
  if (table === undefined || p.tables.length !== 1) return;
  const taken = covered(p);
  const sole = soleMeasure(table);
  if (sole === undefined || sole.kind !== 'column') return;
  p.tokens.forEach((t, i) => {
    if (taken.has(i) || t.kind !== 'word' || !MEASURE_NOUNS.has(t.stem)) return;
    p.spans.push({ ...sole, start: i, end: i + 1, cols: [...sole.cols] });
    taken.add(i);
  });
  p.spans.sort((a, b) => a.start - b.start);
}

/** Whether the file's name says what a row is: a plural word that is not also a column ("sales", "cars"). */
function ownNoun(table: TableMeta): boolean {
  const base = table.label.replace(/\.[^.]+$/, '').replace(/,.*$/, '');
  // Letters glued to digits ("poll07", "survey12") are a code, not a noun.
  const words = base.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3 && !/\d/.test(w)).map((w) => w.toLowerCase());
  return words.some((w) => w.length >= 4 && /[aeiouy].*[^s]s$/.test(w) && !table.columns.some((c) => c.name.toLowerCase().replace(/s$/, '') === w.replace(/s$/, '')));
}

/**
 * Row nouns: a plural noun ("patients", "players") or a noun after "which"/"each"/a superlative
 * ("which planet", "the largest planet") that names nothing in the data stands for the rows of
 * the (only) table. A word followed by another unknown word is a modifier ("japanese cars"), not
 * a row noun, and stays unexplained. Time words ("days", "years") are left to the count readers.
 */
export function rowNounSpans(p: Parse): void {
  if (p.tables.length !== 1) return;
  const table = p.tables[0] as TableMeta;
  // A table named for what it holds ("sales.csv", "orders.json") has its noun: another noun
  // ("employees") is not its rows.
  if (ownNoun(table)) return;
  // "how many horses did the army have" in army.csv: the rows are already named; another noun is not them.
  // (A whole word of the file name only: "poll" inside "citypoll" names nothing in particular.)
  if (p.spans.some((s) => s.kind === 'table' && s.table === table && s.score >= 3 && s.end - s.start === s.table.tokens.filter((w) => w.length > 0).length)) return;
  // Rows that are events of some repeated entity (each `individual` four times): a noun may mean either.
  if (table.columns.some((c) => !c.unique && ENTITY.test(c.name.trim()) && c.distinct >= 2 && c.distinct * 2 <= table.rowCount)) return;
  const taken = covered(p);
  const superlativeEnds = new Set(p.cues.filter((c) => c.kind === 'superlative' || c.kind === 'topN').map((c) => c.end));
  const found: number[] = [];
  p.tokens.forEach((t, i) => {
    if (taken.has(i) || !isContentWord(t) || GRAIN_NOUN[t.stem] !== undefined) return;
    if (/(ly|ing|ed|est)$/.test(t.norm) && t.stem === t.norm) return;
    const plural = t.stem !== t.norm;
    // "union members", "low income students": a plural right after a column belongs to that column's phrase.
    const owner = p.spans.find((s): s is Extract<Span, { kind: 'column' }> => s.kind === 'column' && s.end === i);
    if (plural && owner !== undefined && (found.length > 0 || !owner.cols.some((c) => c.column.kind === 'boolean' || (c.column.min === 0 && c.column.max === 1)))) {
      p.used.add(i);
      return;
    }
    // "the biggest increase": a change asked for, never what the rows are.
    if (CHANGE_WORDS.test(t.norm)) return;
    const before = p.tokens[i - 1]?.norm ?? '';
    // "average bill on weekends", "sales on christmas day": after such a word a noun says when or
    // where, a condition nothing in the data holds; it is not what the rows are.
    if (CIRCUMSTANCE_LEADS.has(before)) return;
    const lead = NOUN_LEADS.has(before) || superlativeEnds.has(i) || i === 0;
    if (!plural && !lead) return;
    // "average tip per gender", "median weight per class": an unknown noun after "per" or "each"
    // is as likely a grouping the data lacks as the rows, and reading it as the rows would answer
    // one overall figure. Only words that mean rows are taken.
    if (!plural && DISTRIBUTIVE_LEADS.has(before) && !superlativeEnds.has(i) && !ROW_WORDS.has(t.stem)) return;
    // A modifier: another unexplained content word follows ("japanese cars"); a plural is a noun ("voters watch").
    const next = p.tokens[i + 1];
    if (!plural && next !== undefined && !taken.has(i + 1) && isContentWord(next)) return;
    found.push(i);
  });
  // Two different unknown nouns ("districts where teachers are ...") cannot both be the rows.
  if (new Set(found.map((i) => p.tokens[i]?.stem)).size !== 1) return;
  for (const i of found) p.spans.push({ kind: 'table', start: i, end: i + 1, score: 0.5, table });
  p.spans.sort((a, b) => a.start - b.start);
}

/** Columns naming who or what the rows are about ("customer_id", "individual", "patient"). */
const ENTITY = /(^|[^a-z])(id|individual|person|customer|user|patient|member|client|student|employee|subject|respondent|household|account|driver|player|visitor|case)s?([^a-z]|$)/i;
