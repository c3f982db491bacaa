/**
 * Role assignment: given the spans (what is named) and cues (what is asked), decides which named
 * columns are filters, which group the result and which are measured. Each step marks the tokens it
 * explains, so whatever is left unexplained can be reported instead of guessed.
 */
import type { Cue } from './cues';
import type { DateExpr } from './dates';
import { MONEY_WORDS, PERCENT_WORDS } from './lexicon';
import type { Span } from './mentions';
import type { Token } from './text';
import type { ColRef, ColumnMeta, Dim, Filter, TableMeta } from './types';

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
      return c && (!hint || hint.test(c.column.name)) ? c : undefined;
    };
    let col = hint ? hinted(before) ?? hinted(after) : numericOf(before);
    let span = col ? (hinted(before) ? before : after) : undefined;
    if (!col && hint) {
      // "people older than 40": the comparison word names the column.
      const tables = prefer ? [prefer, ...p.tables.filter((t) => t !== prefer)] : p.tables;
      for (const table of tables) {
        const c = table.columns.find((x) => isNumeric(x) && !isIdLike(x) && hint.test(x.name));
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
    col ??= columnForUnit(p, n.unit, prefer) ?? (entity(before) || entity(after) ? entityMeasure(p, before ?? after, prefer) : undefined);
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
    // The column's own name right next to a value is part of the filter ("the online channel", "region Europe").
    const valueSpans = p.spans.filter((v) => v.kind === 'value' && v.matches.some((m) => m.ref.column === e.col.column));
    for (const s of p.spans) {
      if (s.kind !== 'column' || !s.cols.some((c) => c.column === e.col.column)) continue;
      if (valueSpans.some((v) => v.end === s.start || s.end === v.start)) p.taken.add(s);
    }
    const distinctWritten = p.spans.filter((s) => s.kind === 'value' && p.taken.has(s) && s.matches.some((m) => m.ref.column === e.col.column)).length;
    if (distinctWritten >= 2) multi.push({ col: e.col, joiner: e.joiners.includes('or') ? 'or' : 'and' });
  }
  return { filters, multi };
}

const wholeYear = (d: { from?: string; to?: string }): number | undefined =>
  d.from !== undefined && d.to !== undefined && /-01-01$/.test(d.from) && /-01-01$/.test(d.to) && Number(d.to.slice(0, 4)) - Number(d.from.slice(0, 4)) === 1
    ? Number(d.from.slice(0, 4)) : undefined;

/** Date filters on the chosen date column (or equality on a numeric `year` column). */
export function dateFilters(p: Parse, prefer?: TableMeta): Filter[] {
  const out: Filter[] = [];
  if (p.dates.length === 0) return out;
  const col = dateColumn(p, prefer);
  // "2024 vs 2023": several whole years are a comparison, not an (empty) intersection.
  const years = p.dates.map(wholeYear);
  if (col !== undefined && p.dates.length >= 2 && years.every((y) => y !== undefined)) {
    for (const d of p.dates) mark(p, d.at, d.end);
    const values = [...new Set(years as number[])].sort();
    return [{ kind: 'datePart', col, part: 'year', values, label: values.join(' and ') }];
  }
  for (const d of p.dates) {
    if (col !== undefined) {
      mark(p, d.at, d.end);
      if (d.part !== undefined) out.push({ kind: 'datePart', col, part: d.part.part, values: [d.part.value], label: d.label });
      else {
        const f: Filter = { kind: 'dateRange', col, label: d.label };
        if (d.from !== undefined) f.from = d.from;
        if (d.to !== undefined) f.to = d.to;
        out.push(f);
      }
      continue;
    }
    // No date column: a year may still be a column of numbers ("year" = 2024, `yearBuilt` > 1900).
    const yearCol = yearColumn(p, prefer);
    const f = yearCol !== undefined ? yearFilter(yearCol, d) : undefined;
    if (yearCol !== undefined && f !== undefined) {
      mark(p, d.at, d.end);
      out.push(f);
      for (const s of p.spans) if (s.kind === 'column' && s.cols.some((c) => c.column === yearCol.column)) p.taken.add(s);
    }
  }
  return out;
}

const YEAR_RANGE = (c: ColumnMeta): boolean => c.kind === 'numeric' && typeof c.min === 'number' && typeof c.max === 'number' && c.min >= 1000 && c.max <= 2999;

/** A numeric column of years: one the question names, else one called "year". */
function yearColumn(p: Parse, prefer?: TableMeta): ColRef | undefined {
  for (const s of p.spans) {
    if (s.kind !== 'column') continue;
    const c = s.cols.find((x) => /year|yr/i.test(x.column.name) && YEAR_RANGE(x.column));
    if (c !== undefined) return c;
  }
  return (prefer ? [prefer, ...p.tables] : p.tables).flatMap((t) => t.columns.map((c) => ({ table: t, column: c })))
    .find((r) => /^(fiscal[ _]?)?year$/i.test(r.column.name.trim()) && YEAR_RANGE(r.column));
}

/** A date range of whole years as a filter on a column of years ("since 1950" -> >= 1950). */
function yearFilter(col: ColRef, d: { from?: string; to?: string }): Filter | undefined {
  const whole = (iso: string | undefined): number | undefined => (iso !== undefined && /-01-01$/.test(iso) ? Number(iso.slice(0, 4)) : undefined);
  const from = whole(d.from);
  const to = whole(d.to);
  if ((d.from !== undefined && from === undefined) || (d.to !== undefined && to === undefined)) return undefined;
  if (from !== undefined && to !== undefined) return to - from === 1 ? { kind: 'cmp', col, op: '=', value: from } : { kind: 'between', col, lo: from, hi: to - 1 };
  if (from !== undefined) return { kind: 'cmp', col, op: '>=', value: from };
  if (to !== undefined) return { kind: 'cmp', col, op: '<', value: to };
  return undefined;
}

/** "no discount", "without an email": the column is missing (or zero, for numbers). */
export function noneFilters(p: Parse): Filter[] {
  const out: Filter[] = [];
  p.tokens.forEach((t, i) => {
    if (t.norm !== 'no' && t.norm !== 'without') return;
    if (p.cues.some((c) => c.kind === 'cmp' && c.at <= i && i < c.end)) return;
    // "no known weight", "no value for 1960", "without a listed price".
    let k = i + 1;
    while (k < i + 4 && /^(known|listed|recorded|given|available|reported|value|values|data|entry|entries|for|in|a|an|the|any)$/.test(p.tokens[k]?.norm ?? '') && !p.spans.some((x) => x.start === k)) k++;
    const s = nextSpan(p, k, 1);
    // "no rating listed", "no known weight": nothing recorded (a zero is a value); "no discount": zero or nothing.
    const recorded = p.tokens.slice(i + 1, (s?.end ?? k) + 2).some((x) => /^(known|listed|recorded|given|available|reported)$/.test(x.norm));
    if (s?.kind !== 'column' || p.taken.has(s)) return;
    const col = s.cols[0];
    if (!col || col.column.kind === 'boolean') return;
    p.taken.add(s);
    mark(p, i, s.end);
    out.push(recorded ? { kind: 'null', col, isNull: true } : { kind: 'none', col });
  });
  return out;
}

/** "with a known discovery year", "that have a price listed": only rows where the column has a value. */
export function knownFilters(p: Parse): Filter[] {
  const out: Filter[] = [];
  p.tokens.forEach((t, i) => {
    if (!/^(known|listed|recorded|reported|given)$/.test(t.norm)) return;
    const s = p.spans.find((x) => x.kind === 'column' && !p.taken.has(x) && (x.start === i + 1 || x.end === i));
    if (s?.kind !== 'column' || !/^(with|a|an|have|has|having|the)$/.test(p.tokens[Math.min(s.start, i) - 1]?.norm ?? '')) return;
    const col = s.cols[0];
    if (col === undefined) return;
    p.taken.add(s);
    mark(p, Math.min(s.start, i) - 1, Math.max(s.end, i + 1));
    out.push({ kind: 'null', col, isNull: false });
  });
  return out;
}

/** "rating of 5", "a discount of 20%": a number right after a numeric column means equality. */
export function equalityFilters(p: Parse, prefer?: TableMeta): Filter[] {
  const out: Filter[] = [];
  p.tokens.forEach((t, i) => {
    if (t.kind !== 'number' || t.value === undefined || t.yearLike || p.used.has(i)) return;
    if (p.cues.some((c) => c.at <= i && i < c.end)) return;
    if (p.cues.some((c) => (c.kind === 'cmp' || c.kind === 'between') && (c.end === i || (c.kind === 'cmp' && c.postfix === true && c.at === i + 1)))) return;
    if (p.dates.some((d) => d.at <= i && i < d.end)) return;
    const value = t.value;
    // "3 pets", "12 years of schooling": a whole number before a column of few whole numbers.
    const next = Number.isInteger(value) && t.unit === undefined ? spanPastUnits(p, i + 1) : undefined;
    if (next?.kind === 'column' && !p.taken.has(next)) {
      const col = next.cols.find((c) => isNumeric(c.column) && !isIdLike(c.column) && c.column.distinct <= 60
        && typeof c.column.min === 'number' && typeof c.column.max === 'number' && value >= c.column.min && value <= c.column.max);
      if (col !== undefined) {
        p.taken.add(next);
        mark(p, i, next.end);
        out.push({ kind: 'cmp', col, op: '=', value });
        return;
      }
    }
    // "tier 2", "group 3": a small-integer column followed by one of its values.
    const before = p.spans.find((x) => x.end === i);
    if (before?.kind === 'column' && !p.taken.has(before) && Number.isInteger(value) && t.unit === undefined) {
      const col = before.cols.find((c) => isNumeric(c.column) && isGroupable(c.column) && typeof c.column.min === 'number' && typeof c.column.max === 'number'
        && value >= c.column.min && value <= c.column.max);
      if (col !== undefined) {
        p.taken.add(before);
        mark(p, before.start, i + 1);
        out.push({ kind: 'cmp', col, op: '=', value });
        return;
      }
    }
    const glue = p.tokens[i - 1]?.norm;
    if (glue !== 'of' && glue !== 'is' && glue !== 'equals' && glue !== 'a' && glue !== 'an' && glue !== 'at' && glue !== '=') return;
    const s = p.spans.find((x) => x.end === i - 1);
    if (s?.kind !== 'column' || p.taken.has(s)) return;
    const col = pickColumn(s, 'measure', prefer);
    if (!col || !isNumeric(col.column)) return;
    p.taken.add(s);
    mark(p, s.start, i + 1);
    const scale = t.unit === '%' && typeof col.column.max === 'number' && col.column.max <= 1 ? 0.01 : 1;
    out.push({ kind: 'cmp', col, op: '=', value: t.value * scale });
  });
  return out;
}

/**
 * "customers who have not ordered", "products without orders": the subject table's key must not
 * occur in the other table. Only where the other table points at the subject by a safe key.
 */
export function absentFilters(p: Parse, prefer: TableMeta | undefined, keyOf: (fact: TableMeta, dim: TableMeta) => { left: ColumnMeta; right: ColumnMeta } | undefined): Filter[] {
  const out: Filter[] = [];
  if (!prefer || p.tables.length < 2) return out;
  p.tokens.forEach((t, i) => {
    if (!/^(not|never|no|without)$/.test(t.norm)) return;
    for (let k = i + 1; k <= i + 3 && k < p.tokens.length; k++) {
      const w = p.tokens[k]?.stem ?? '';
      const base = w.replace(/(ed|ing)$/, '');
      const other = p.tables.find((x) => x !== prefer && x.tokens.some((tok) => tok === w || tok === base || tok === `${base}e`));
      if (!other) continue;
      const key = keyOf(other, prefer);
      if (!key) return;
      mark(p, i, k + 1);
      for (const s of p.spans) if (s.kind === 'table' && s.table === other && s.start <= k && k < s.end) p.taken.add(s);
      out.push({ kind: 'absentIn', col: { table: prefer, column: key.right }, other, otherColumn: key.left });
      return;
    }
  });
  return out;
}

/** Boolean columns used as adjectives ("active customers", "not churned"). */
export function booleanFilters(p: Parse, dims: readonly Dim[]): Filter[] {
  const out: Filter[] = [];
  for (const s of p.spans) {
    if (s.kind !== 'column' || p.taken.has(s)) continue;
    const b = s.cols.find((c) => c.column.kind === 'boolean') ?? s.cols.find((c) => isFlag(c.column));
    if (!b || dims.some((d) => d.col.column === b.column)) continue;
    // "the average of retired" measures the flag; "retired members" selects by it.
    if (b.column.kind !== 'boolean' && p.cues.some((c) => (c.kind === 'agg' || c.kind === 'share') && c.end === s.start)) continue;
    if (b.column.kind !== 'boolean' && p.cues.some((c) => c.kind === 'intent' && c.intent === 'correlation')) continue;
    const neg = p.cues.find((c) => c.kind === 'negate' && c.end <= s.start && s.start - c.end <= 1)
      ?? (p.tokens[s.start - 1]?.norm === 'non' ? { at: s.start - 1, end: s.start } : undefined);
    p.taken.add(s);
    mark(p, s.start, s.end);
    if (neg) mark(p, neg.at, neg.end);
    const yes = (neg === undefined) !== (s.negated === true);
    if (b.column.kind === 'boolean') out.push({ kind: 'bool', col: b, value: yes });
    else out.push({ kind: 'cmp', col: b, op: '=', value: yes ? 1 : 0 });
  }
  return out;
}

/** A 0/1 number column: a yes/no flag ("retired", "smoker", "vip"). */
export function isFlag(c: ColumnMeta): boolean {
  return c.kind === 'numeric' && c.min === 0 && c.max === 1 && c.distinct === 2 && !c.converted;
}
