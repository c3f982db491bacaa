/**
 * Role assignment: given the spans (what is named) and cues (what is asked), decides which named
 * columns are filters, which group the result and which are measured. Each step marks the tokens it
 * explains, so whatever is left unexplained can be reported instead of guessed.
 */
import type { Cue } from './cues';
import type { DateExpr } from './dates';
import { COUNT_COLUMN, MONEY_WORDS, PERCENT_WORDS, ROW_WORDS } from './lexicon';
import type { Span } from './mentions';
import { identifierWords, type Token } from './text';
import type { ColRef, ColumnMeta, Filter, TableMeta } from './types';

export interface Parse {
  question: string;
  tokens: Token[];
  cues: Cue[];
  spans: Span[];
  dates: DateExpr[];
  tables: TableMeta[];
  /** Token indices explained by some role. */
  used: Set<number>;
  /** Spans consumed by a role. */
  taken: Set<Span>;
}

/** Words that may sit between a cue and the span it governs. */
const GLUE = new Set(['the', 'a', 'an', 'their', 'its', 'our', 'of', 'each', 'every', 'all', 'which', 'what', 'is', 'are', 'was', 'were', 'with', 'where', 'whose', 'that', 'has', 'have', 'had', 'total', 'in', 'for', 'by', 'on', 'per', 'to', 'do', 'does', 'did', 'there', 'me', 'show', 'value', 'values', 'amount', 'level', 'levels',
  // "temperature readings above 50": the row word sits between the column and the comparison.
  'row', 'rows', 'record', 'records', 'reading', 'readings', 'entry', 'entries', 'measurement', 'measurements', 'observation', 'observations']);

export const isNumeric = (c: ColumnMeta): boolean => c.kind === 'numeric';
/** Columns that group well: categories, flags, dates, and numbers with few distinct values. */
export const isGroupable = (c: ColumnMeta): boolean =>
  c.kind === 'text' || c.kind === 'boolean' || c.kind === 'temporal' || (c.kind === 'numeric' && !c.unique && (c.distinct <= 12
    || (c.distinct <= 60 && Number.isInteger(c.min) && Number.isInteger(c.max) && c.distinct * 2 <= c.nonNull)));
/**
 * A table of counts (R's `as.data.frame(Titanic)`: Class, Sex, Age, Survived, Freq): one whole-number
 * column named as a count, every other column a category. Each row stands for that many people, so
 * "how many survived" is the sum of the counts, not the number of rows.
 */
export function frequencyWeight(table: TableMeta): ColRef | undefined {
  const counts = table.columns.filter((c) => COUNT_COLUMN.test(c.name.trim()));
  const w = counts[0];
  if (counts.length !== 1 || w === undefined || w.kind !== 'numeric' || !Number.isInteger(w.min) || !Number.isInteger(w.max) || (w.min as number) < 0) return undefined;
  const categorical = table.columns.every((c) => c === w || c.kind === 'text' || c.kind === 'boolean' || c.kind === 'temporal'
    || (c.kind === 'numeric' && Number.isInteger(c.min) && Number.isInteger(c.max) && c.distinct <= 12));
  return categorical && table.columns.length >= 2 ? { table, column: w } : undefined;
}

/** Whether a column is the one a word like "lightest" or "older" points at: by name, or by a word of it (`wt` is weight). */
export const hintFits = (hint: RegExp, c: ColumnMeta): boolean => hint.test(c.name) || c.tokens.some((t) => hint.test(t));
export const isIdName = (c: ColumnMeta): boolean => /(^|[^a-z])(id|key|code|uuid|guid)$/i.test(c.name.trim()) || /Id$/.test(c.name);

/** An identifier column: it names rows ("orders"), it is not measured. */
export const isIdLike = (c: ColumnMeta): boolean => isIdName(c) || (c.unique && c.kind === 'text');

/** The next span after token `i`, skipping glue words (at most `gap` tokens). */
export function nextSpan(p: Parse, i: number, gap = 2): Span | undefined {
  let skipped = 0;
  for (let k = i; k < p.tokens.length; k++) {
    const s = p.spans.find((x) => x.start === k);
    if (s !== undefined) return s;
    const t = p.tokens[k];
    if (t === undefined || !(GLUE.has(t.norm) || t.kind === 'op') || ++skipped > gap) return undefined;
  }
  return undefined;
}

/** Words between a number and what it counts: "16 years of education", "10 degrees". */
const UNIT_GLUE = new Set(['year', 'years', 'day', 'days', 'month', 'months', 'week', 'weeks', 'hour', 'hours', 'minute', 'minutes', 'of', 'degree', 'degrees',
  'point', 'points', 'percent', 'time', 'times', 'unit', 'units', 'dollar', 'dollars', 'euro', 'euros', 'the', 'a', 'an', 'in', 'more', 'less', 'fewer']);

/** The span starting at or after token `i`, skipping unit words (at most 3). */
export function spanPastUnits(p: Parse, i: number): Span | undefined {
  for (let k = i; k < Math.min(p.tokens.length, i + 4); k++) {
    const s = p.spans.find((x) => x.start === k);
    if (s !== undefined) return s;
    const t = p.tokens[k];
    if (t === undefined || !(UNIT_GLUE.has(t.norm) || GLUE.has(t.norm))) return undefined;
  }
  return undefined;
}

/** The span ending right before token `i`, skipping glue words. */
export function prevSpan(p: Parse, i: number, gap = 3): Span | undefined {
  let skipped = 0;
  for (let k = i - 1; k >= 0; k--) {
    const s = p.spans.find((x) => x.end === k + 1);
    if (s !== undefined) return s;
    const t = p.tokens[k];
    if (t === undefined || !GLUE.has(t.norm) || ++skipped > gap) return undefined;
  }
  return undefined;
}

export function mark(p: Parse, from: number, to: number): void {
  for (let k = from; k < to; k++) p.used.add(k);
}

/** The primary table: the one most named, ties broken by size. */
export function primaryTable(p: Parse): TableMeta | undefined {
  const score = new Map<TableMeta, number>();
  for (const s of p.spans) {
    const ts = s.kind === 'column' ? s.cols.map((c) => c.table) : s.kind === 'value' ? s.matches.map((m) => m.ref.table) : [s.table];
    for (const t of new Set(ts)) score.set(t, (score.get(t) ?? 0) + 1 / new Set(ts).size);
  }
  return [...p.tables].sort((a, b) => (score.get(b) ?? 0) - (score.get(a) ?? 0) || b.rowCount - a.rowCount)[0];
}

/** Picks the best column of a span for a role, preferring `prefer`'s table. */
export function pickColumn(span: Span, role: 'measure' | 'dim' | 'count', prefer?: TableMeta): ColRef | undefined {
  if (span.kind !== 'column') return undefined;
  const rank = (r: ColRef): number => {
    const c = r.column;
    let s = r.table === prefer ? 0.5 : 0;
    if (role === 'measure') s += isNumeric(c) && !isIdLike(c) ? 3 : isNumeric(c) ? 1 : -5;
    if (role === 'dim') s += isGroupable(c) ? 3 : -2 + (isIdName(c) ? 0 : 0.5);
    if (role === 'dim' && isIdName(c)) s -= 0.8;
    if (role === 'count') s += isIdName(c) ? 1 : 0;
    return s;
  };
  return [...span.cols].sort((a, b) => rank(b) - rank(a))[0];
}

/** The main temporal column: the one named in the question, else of the primary table. */
export function dateColumn(p: Parse, prefer?: TableMeta): ColRef | undefined {
  for (const s of p.spans) {
    if (s.kind !== 'column') continue;
    const c = s.cols.find((x) => x.column.kind === 'temporal');
    if (c !== undefined) return c;
  }
  const tables = prefer ? [prefer, ...p.tables.filter((t) => t !== prefer)] : p.tables;
  for (const table of tables) {
    const temporal = table.columns.filter((c) => c.kind === 'temporal' && c.nonNull > 0);
    const best = temporal.find((c) => /date|time|day|timestamp|created|at$/i.test(c.name)) ?? temporal[0];
    if (best) return { table, column: best };
  }
  return undefined;
}

/** The table's money column (revenue, amount, total...): what "the biggest order" is ranked by. */
export function moneyColumn(p: Parse, prefer?: TableMeta): ColRef | undefined {
  return columnForUnit(p, '$', prefer);
}

/** A numeric column for a bare number with a unit ("over $500", "above 20%"). */
function columnForUnit(p: Parse, unit: string | undefined, prefer?: TableMeta): ColRef | undefined {
  const tables = prefer ? [prefer, ...p.tables.filter((t) => t !== prefer)] : p.tables;
  const pattern = unit === '%' ? PERCENT_WORDS : unit !== undefined && /^[$€£¥]|usd|eur|gbp|dollar|euro/.test(unit) ? MONEY_WORDS
    : unit !== undefined && /^(°|deg)/.test(unit) ? /(temp|°)/i : undefined;
  if (pattern === undefined) return undefined;
  for (const table of tables) {
    const cols = table.columns.filter((c) => isNumeric(c) && !isIdLike(c) && pattern.test(c.name));
    // A total (revenue, amount) is what "orders over $500" means more often than a unit price; beyond
    // that, a unit fits a column only when one column fits it.
    const totals = cols.filter((c) => /(revenue|amount|total|sales|value|spend|paid|payment)/i.test(c.name));
    const best = totals.length === 1 ? totals[0] : cols.length === 1 ? cols[0] : undefined;
    if (best) return { table, column: best };
    if (cols.length > 1) return undefined;
  }
  return undefined;
}

const ORDER_LIKE = /^(order|sale|transaction|purchase|invoice|payment|deal|booking|bill|receipt|donation|expense|claim|loan)$/;
const PERSON_LIKE = /^(person|people|voter|worker|employee|customer|patient|member|user|student|resident|woman|man|adult|child|player|respondent|subscriber|participant|driver|passenger|traveller|traveler|staff|client|applicant)$/;

/** What a bare number compares when the rows themselves are named: money for orders, age for people. */
function entityMeasure(p: Parse, s: Span | undefined, prefer?: TableMeta): ColRef | undefined {
  if (s === undefined) return undefined;
  const word = p.tokens[s.end - 1]?.stem ?? '';
  const label = s.kind === 'table' ? s.table.tokens : [];
  if (ORDER_LIKE.test(word) || label.some((w) => ORDER_LIKE.test(w))) return columnForUnit(p, '$', prefer);
  if (PERSON_LIKE.test(word) || label.some((w) => PERSON_LIKE.test(w))) {
    const tables = prefer ? [prefer, ...p.tables.filter((t) => t !== prefer)] : p.tables;
    for (const table of tables) {
      const age = table.columns.find((c) => isNumeric(c) && /^age$|(^|[^a-z])age([^a-z]|$)/i.test(c.name));
      if (age !== undefined) return { table, column: age };
    }
  }
  return undefined;
}

/** Numeric comparisons ("revenue over 500", "more than 3 units", "price between 10 and 20"). */
export function comparisonFilters(p: Parse, prefer?: TableMeta): Filter[] {
  return comparisons(p, prefer).filters;
}

/**
 * Comparisons, plus the written ones no column could be found for ("over 200" with nothing
 * measurable named): those make the question unanswerable rather than silently dropped.
 */
export function comparisons(p: Parse, prefer?: TableMeta): { filters: Filter[]; unresolved: string[] } {
  const out: Filter[] = [];
  const unresolved: string[] = [];
  for (const cue of p.cues) {
    if (cue.kind !== 'cmp' && cue.kind !== 'between') continue;
    const numAt = cue.kind === 'cmp' && cue.postfix ? cue.at - 1 : cue.end;
    const n = p.tokens[numAt];
    if (n?.kind !== 'number' || n.value === undefined) continue;
    // "between 1990 and 1995" with a date to filter on: years, read as a date range.
    if (n.yearLike === true && p.dates.some((d) => d.at <= numAt && numAt < d.end)) continue;
    let hi: number | undefined;
    let last = numAt;
    if (cue.kind === 'between') {
      const m = p.tokens[numAt + 2];
      if (p.tokens[numAt + 1]?.norm !== 'and' || m?.kind !== 'number' || m.value === undefined) continue;
      hi = m.value;
      last = numAt + 2;
    }
    // "chicks with fewer than 12 measurements": a number of rows per thing, not a value of a column.
    if (cue.kind === 'cmp' && !cue.postfix && ROW_WORDS.has(p.tokens[last + 1]?.stem ?? '')) {
      unresolved.push(p.tokens.slice(cue.at, last + 2).map((t) => t.raw).join(' '));
      mark(p, cue.at, last + 2);
      continue;
    }
    const before = prevSpan(p, cue.kind === 'cmp' && cue.postfix ? numAt : cue.at);
    // "3 or more pets": after a postfix comparison, the thing compared follows the cue.
    const after = spanPastUnits(p, cue.kind === 'cmp' && cue.postfix ? cue.end : last + 1);
    const numericOf = (s: Span | undefined): ColRef | undefined => {
      if (s?.kind !== 'column') return undefined;
      const c = pickColumn(s, 'measure', prefer);
      return c && isNumeric(c.column) && !isIdLike(c.column) ? c : undefined;
    };
    // "orders over 200": the compared noun is the rows themselves, so the number is their amount.
    const entity = (s: Span | undefined): boolean => s?.kind === 'table' || (s?.kind === 'column' && s.cols.every((c) => isIdLike(c.column) || !isNumeric(c.column)));
    const hint = cue.kind === 'cmp' && cue.hint !== undefined ? new RegExp(cue.hint, 'i') : undefined;
    const hinted = (s: Span | undefined): ColRef | undefined => {
      const c = numericOf(s);
      return c && (!hint || hintFits(hint, c.column)) ? c : undefined;
    };
    // "months with at least 400 passengers": a column named right after the number is what it counts.
    const unitAfter = !hint && after !== undefined && after.start === last + 1 ? numericOf(after) : undefined;
    let col = hint ? hinted(before) ?? hinted(after) : unitAfter ?? numericOf(before);
    let span = col ? (unitAfter !== undefined ? after : hinted(before) ? before : after) : undefined;
    if (!col && hint) {
      // "people older than 40": the comparison word names the column.
      const tables = prefer ? [prefer, ...p.tables.filter((t) => t !== prefer)] : p.tables;
      for (const table of tables) {
        const c = table.columns.find((x) => isNumeric(x) && !isIdLike(x) && hintFits(hint, x));
        if (c) {
          col = { table, column: c };
          break;
        }
      }
    }
    if (!col) {
      col = numericOf(after);
      span = col ? after : undefined;
    }
    // "orders over 200": the amount of the orders; "voters over 60": their age. Other nouns say nothing.
    // A comparison word that names its column ("older than") never falls back to another measure.
    col ??= columnForUnit(p, n.unit, prefer) ?? (!hint && (entity(before) || entity(after)) ? entityMeasure(p, before ?? after, prefer) : undefined);
    if (!col) {
      unresolved.push(p.tokens.slice(cue.at, last + 1).map((t) => t.raw).join(' '));
      mark(p, cue.at, last + 1);
      continue;
    }
    if (span) p.taken.add(span);
    mark(p, cue.kind === 'cmp' && cue.postfix ? numAt : cue.at, Math.max(cue.end, last + 1));
    // "20%" against a column holding fractions (max <= 1) means 0.2.
    const scale = n.unit === '%' && typeof col.column.max === 'number' && col.column.max <= 1 ? 0.01 : 1;
    const value = n.value * scale;
    if (hi !== undefined) out.push({ kind: 'between', col, lo: Math.min(value, hi * scale), hi: Math.max(value, hi * scale) });
    else out.push({ kind: 'cmp', col, op: cue.kind === 'cmp' ? cue.op : '=', value });
  }
  return { filters: out, unresolved };
}

/** Value filters ("in Europe", "online", "not in Asia"); several values of one column combine with IN. */
export function valueFilters(p: Parse, prefer?: TableMeta): { filters: Filter[]; multi: Array<{ col: ColRef; joiner: string }> } {
  const byColumn = new Map<ColumnMeta, { col: ColRef; values: string[]; words: string[]; negate: boolean; joiners: string[] }>();
  const named = new Set(p.spans.flatMap((s) => (s.kind === 'column' ? s.cols.map((c) => c.column) : [])));
  const exactCols = new Set(p.spans.flatMap((s) => (s.kind === 'value' && s.partial === undefined ? s.matches.map((m) => m.ref.column) : [])));
  for (const s of p.spans) {
    if (s.kind !== 'value') continue;
    const best = [...s.matches].sort((a, b) => score(b) - score(a))[0];
    if (best === undefined) continue;
    // "Ways and Means ... in the 104th House": one word of another value of the same column, not joined to
    // the named value by "and"/"or", is not a second value (it stays unexplained).
    const listed = /^(and|or|vs|versus|nor)$/.test(p.tokens[s.start - 1]?.norm ?? '');
    if (s.partial !== undefined && exactCols.has(best.ref.column) && !listed) continue;
    p.taken.add(s);
    mark(p, s.start, s.end);
    const negCue = p.cues.find((c) => c.kind === 'negate' && c.end <= s.start && s.start - c.end <= 2);
    if (negCue) mark(p, negCue.at, negCue.end);
    const entry = byColumn.get(best.ref.column) ?? { col: best.ref, values: [], words: [], negate: negCue !== undefined, joiners: [] };
    const sameValues = s.matches.filter((m) => m.ref.column === best.ref.column).map((m) => m.value);
    // One word of several values ("Wilson", "ford"): the values that contain it.
    if (s.partial !== undefined && sameValues.length > 1) entry.words.push(p.tokens.slice(s.start, s.end).map((t) => t.raw).join(' '));
    else for (const v of sameValues) if (!entry.values.includes(v)) entry.values.push(v);
    const joiner = p.tokens[s.start - 1]?.norm;
    if (joiner !== undefined) entry.joiners.push(joiner);
    byColumn.set(best.ref.column, entry);
  }
  function score(m: { ref: ColRef }): number {
    return (named.has(m.ref.column) ? 2 : 0) + (m.ref.table === prefer ? 1 : 0);
  }
  const filters: Filter[] = [];
  const multi: Array<{ col: ColRef; joiner: string }> = [];
  for (const e of byColumn.values()) {
    // A list column ("English, Spanish") holds a value when the value is one of its items.
    if (e.col.column.listLike === true) filters.push({ kind: 'contains', col: e.col, texts: [...e.values, ...e.words], negate: e.negate });
    else if (e.words.length > 0 && e.values.length === 0) filters.push({ kind: 'contains', col: e.col, texts: e.words, negate: e.negate });
    else if (e.words.length > 0) filters.push({ kind: 'contains', col: e.col, texts: [...e.values, ...e.words], negate: e.negate });
    else filters.push({ kind: 'in', col: e.col, values: e.values, negate: e.negate });
    // The column's own name right next to a value is part of the filter ("the online channel",
    // "region Europe", "race is other").
    const valueSpans = p.spans.filter((v) => v.kind === 'value' && v.matches.some((m) => m.ref.column === e.col.column));
    const linked = (s: Span, v: Span): boolean => v.end === s.start || s.end === v.start
      || (s.end + 1 === v.start && /^(is|was|=|equals)$/.test(p.tokens[s.end]?.norm ?? ''));
    for (const s of p.spans) {
      if (s.kind !== 'column' || !s.cols.some((c) => c.column === e.col.column)) continue;
      if (valueSpans.some((v) => linked(s, v))) {
        p.taken.add(s);
        if (s.end + 1 < p.tokens.length && /^(is|was|=|equals)$/.test(p.tokens[s.end]?.norm ?? '')) mark(p, s.end, s.end + 1);
      }
    }
    const distinctWritten = p.spans.filter((s) => s.kind === 'value' && p.taken.has(s) && s.matches.some((m) => m.ref.column === e.col.column)).length;
    if (distinctWritten >= 2) multi.push({ col: e.col, joiner: e.joiners.includes('or') ? 'or' : 'and' });
  }
  return { filters, multi };
}

/**
 * "how many individuals" over a whole-number `individual` column: the plural of the column's name
 * counts the things it identifies, not the sum of its numbers ("how many passengers" over
 * `passengers` names the count itself).
 */
export function pluralOfName(p: Parse, s: Span, col: ColRef): boolean {
  const last = p.tokens[s.end - 1];
  const name = identifierWords(col.column.name).pop();
  return last !== undefined && name !== undefined && last.norm !== name && (last.norm === `${name}s` || last.norm === `${name}es` || (name.endsWith('y') && last.norm === `${name.slice(0, -1)}ies`));
}

/** Whole numbers numbering the things 0/1..N with none skipped: `individual`, `subject`, `patient`. */
export function denseIds(c: ColumnMeta): boolean {
  if (!/^(BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER|USMALLINT|UTINYINT)$/i.test(c.type)) return false;
  const lo = typeof c.min === 'number' ? c.min : NaN;
  const hi = typeof c.max === 'number' ? c.max : NaN;
  return (lo === 0 || lo === 1) && c.distinct >= 10 && hi - lo + 1 === c.distinct;
}
