/**
 * Filters from the parts that name them: values ("in Europe", "not Asia", "women"), comparisons
 * ("over $500", "3 or more children", "older than 40"), times ("in Q1 2024", "since 1990", "in
 * may"), missing values ("no discount"). A comparison with no column it can be about, or a time
 * nothing in the data can place, is not dropped: the reading fails and says which words.
 */
import { pickCol, pickVal, type Chooser } from './choose';
import type { NumM, Part, When } from './parts';
import { dateColumnOf, isIdLike, isNumeric, isPercent, moneyColumn, partColumnOf, yearColumnOf } from './shape';
import type { ColRef, Dim, Filter, Grain, TableMeta } from './types';
import { isPersonNoun } from '../language/concepts';

export interface FilterResult {
  filters: Filter[];
  /** Groupings the filters imply: values set side by side ("Germany and France"), periods compared. */
  dims: Dim[];
  /** Parts that could not be placed, with why. */
  failed?: { part: Part; why: string };
}

type Body<K extends Part['k']> = Extract<Part, { k: K }>;

/** The value of a number for a column: percent written for a column of fractions, a column in thousands. */
function scaled(n: NumM, c: ColRef): number {
  if (n.unit === '%' && typeof c.column.max === 'number' && c.column.max <= 1) return n.value / 100;
  // "over 20 million" against `pop_thousands`: the column counts in thousands, so 20,000 of them.
  // (Only a number said with its magnitude: "pop_thousands over 500" is already in the column's unit.)
  const scale = /(^|[^a-z])(thousands?|000s?|k)([^a-z]|$)/i.test(c.column.name) ? 1e3 : /(^|[^a-z])(millions?|mn|mio|mill)([^a-z]|$)/i.test(c.column.name) ? 1e6 : /(^|[^a-z])(billions?|bn)([^a-z]|$)/i.test(c.column.name) ? 1e9 : 1;
  if (scale > 1 && /thousand|million|billion|\d\s*(k|m|mn|bn)\b/i.test(n.raw) && n.value >= scale) return n.value / scale;
  return n.value;
}

/** The column a bare number is about, from its unit ("$500": money, "20%": a percentage). */
function columnForUnit(n: NumM, table: TableMeta): ColRef | undefined {
  const numeric = table.columns.filter((c) => isNumeric(c) && !isIdLike(c));
  const only = (cs: typeof numeric): ColRef | undefined => (cs.length === 1 && cs[0] !== undefined ? { table, column: cs[0] } : undefined);
  if (n.unit !== undefined && /^[$€£¥]|usd|eur|gbp|dollar|euro/.test(n.unit)) return moneyColumn(table);
  if (n.unit === '%') return only(numeric.filter(isPercent));
  if (n.unit !== undefined && /^(°|deg)/.test(n.unit)) return only(numeric.filter((c) => /temp|°/i.test(c.name)));
  if (n.unit !== undefined && /^(years?|yrs?)$/.test(n.unit)) return only(numeric.filter((c) => /(^|[^a-z])age([^a-z]|$)/i.test(c.name)));
  return undefined;
}

export function cmpFilter(ch: Chooser, p: Body<'cmp'>, table: TableMeta): Filter | string {
  let col: ColRef | undefined;
  let op = p.op;
  if (p.col !== undefined) col = pickCol(ch, p.col, 'measure');
  else if (p.attr !== undefined) {
    const a = [...p.attr.alts].sort((x, y) => x.cost - y.cost)[0];
    if (a !== undefined) {
      col = a.ref;
      ch.cost += a.cost;
      // "younger than 30", "cheaper than 20": the adjective runs down its column.
      if (a.dir === 'asc') op = op === '>' ? '<' : op === '<' ? '>' : op;
    }
  }
  // "orders over 500" naming `order_id`: the orders themselves, so their amount.
  if (col !== undefined && col.column.unique && isIdLike(col.column)) col = moneyColumn(col.table);
  // "voters over 60": people are compared by their age; "orders over 500" by their amount.
  // ("men over 60": people named just before, even as a value of `sex`.)
  const before = ch.tokens?.[p.from - 1];
  const people = p.rowsAfter === true || (before !== undefined && before.pos === 'NOUN' && isPersonNoun(before.sing));
  const age = people ? table.columns.find((c) => isNumeric(c) && /^age$|(^|[^a-z])age([^a-z]|$)/i.test(c.name)) : undefined;
  col ??= columnForUnit(p.num, table) ?? (age !== undefined ? { table, column: age } : undefined) ?? (p.rowsAfter === true ? moneyColumn(table) : undefined);
  // "at 66" with no column named: the one whole-number column whose values reach 66.
  if (col === undefined && op === '=' && Number.isInteger(p.num.value)) {
    const fits = table.columns.filter((c) => isNumeric(c) && Number.isInteger(c.min) && Number.isInteger(c.max) && (c.min as number) <= p.num.value && p.num.value <= (c.max as number));
    if (fits.length === 1 && fits[0] !== undefined) col = { table, column: fits[0] };
  }
  if (col === undefined || !isNumeric(col.column)) return `the question does not say which number "${p.num.raw}" applies to`;
  const lo = scaled(p.num, col);
  if (p.alts !== undefined && op === '=') return { kind: 'in', col, values: [lo, ...p.alts.map((a) => scaled(a, col))].map(String), negate: false };
  if (p.hi !== undefined) {
    const hi = scaled(p.hi, col);
    return { kind: 'between', col, lo: Math.min(lo, hi), hi: Math.max(lo, hi) };
  }
  return { kind: 'cmp', col, op, value: lo };
}

/** Whether a time is only whole years ("2019", "1960 to 1970", "since 1990", "2000 and 2010"). */
function wholeYearsOnly(w: When): boolean {
  if (w.rel !== undefined || w.part !== undefined) return false;
  if (w.periods !== undefined) return w.periods.every((p) => wholeYears(p) !== undefined);
  const whole = (iso: string | undefined): boolean => iso === undefined || /-01-01$/.test(iso);
  return (w.from !== undefined || w.to !== undefined) && whole(w.from) && whole(w.to);
}

const wholeYears = (w: When): [number, number] | undefined =>
  w.from !== undefined && w.to !== undefined && /-01-01$/.test(w.from) && /-01-01$/.test(w.to) ? [Number(w.from.slice(0, 4)), Number(w.to.slice(0, 4)) - 1] : undefined;

/** The last N units before the data's latest date: "the last 30 days" ends with the last day there is. */
function resolveRelative(w: When, date: ColRef): When {
  const rel = w.rel;
  const max = typeof date.column.max === 'string' ? date.column.max.slice(0, 10) : undefined;
  if (rel === undefined || max === undefined) return w;
  const end = new Date(`${max}T00:00:00Z`);
  const start = new Date(end);
  const step = (d: Date, n: number): void => {
    if (rel.grain === 'day') d.setUTCDate(d.getUTCDate() + n);
    else if (rel.grain === 'week') d.setUTCDate(d.getUTCDate() + 7 * n);
    else if (rel.grain === 'month') d.setUTCMonth(d.getUTCMonth() + n);
    else if (rel.grain === 'quarter') d.setUTCMonth(d.getUTCMonth() + 3 * n);
    else d.setUTCFullYear(d.getUTCFullYear() + n * (rel.grain === 'decade' ? 10 : 1));
  };
  const iso = (d: Date): string => d.toISOString().slice(0, 10);
  if (rel.whole === true) {
    // "last year" is the year before the latest one; "this year" the latest one.
    const y = end.getUTCFullYear() - rel.n;
    if (rel.grain === 'year') return { ...w, from: `${y}-01-01`, to: `${y + 1}-01-01` };
    // "on the last day": the data's latest day (a month's start stepped back a day was the month before's end).
    if (rel.grain === 'day') {
      const next = new Date(end);
      next.setUTCDate(next.getUTCDate() + 1);
      return { ...w, from: iso(end), to: iso(next) };
    }
    const m = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1));
    step(m, -rel.n);
    const next = new Date(m);
    step(next, 1);
    return { ...w, from: iso(m), to: iso(next) };
  }
  const to = new Date(end);
  to.setUTCDate(to.getUTCDate() + 1);
  step(start, -rel.n);
  start.setUTCDate(start.getUTCDate() + 1);
  return { ...w, from: iso(start), to: iso(to) };
}

/** A time as filters on the table's date (or its year, month or quarter column). */
export function whenFilters(w: When, table: TableMeta, namedDate?: ColRef): FilterResult | string {
  // "population in 2019" where a `year` column sits beside a date (a date the row was recorded, 1
  // January of the next year): whole years are the year column's.
  // (A date made of the year and other parts is the same year.)
  const stored = dateColumnOf(table);
  const yearNamed = table.columns.find((c) => /^(year|yr)$/i.test(c.name.trim()) && yearColumnOf(table)?.column === c && stored?.column.derived === undefined);
  const date = namedDate ?? (yearNamed !== undefined && wholeYearsOnly(w) ? undefined : stored);
  const out: FilterResult = { filters: [], dims: [] };
  if (w.periods !== undefined) {
    const years = w.periods.map(wholeYears);
    if (years.every((y) => y !== undefined && y[0] === y[1])) {
      const values = [...new Set(years.map((y) => (y as [number, number])[0]))].sort();
      if (date !== undefined) {
        out.filters.push({ kind: 'datePart', col: date, part: 'year', values, label: values.join(' and ') });
        out.dims.push({ col: date, grain: 'year' });
        return out;
      }
      const yc = yearColumnOf(table);
      if (yc === undefined) return `no column of ${table.label} holds years to filter on`;
      out.filters.push({ kind: 'in', col: yc, values: values.map(String), negate: false });
      out.dims.push({ col: yc });
      return out;
    }
    const ranges = w.periods.map((p) => (p.from !== undefined && p.to !== undefined ? { from: p.from, to: p.to } : undefined));
    if (date !== undefined && ranges.every((r) => r !== undefined)) {
      out.filters.push({ kind: 'periods', col: date, ranges: ranges as Array<{ from: string; to: string }>, label: w.label });
      const grain: Grain = w.periods.every((p) => /^Q\d/.test(p.label)) ? 'quarter' : w.periods.every((p) => /^[A-Z][a-z]+ \d{4}$/.test(p.label)) ? 'month' : 'day';
      out.dims.push({ col: date, grain });
      return out;
    }
    const parts = w.periods.map((p) => p.part);
    const first = parts[0];
    if (date !== undefined && first !== undefined && parts.every((p) => p?.part === first.part)) {
      const values = parts.flatMap((p) => p?.values ?? []);
      out.filters.push({ kind: 'datePart', col: date, part: first.part, values, label: w.label });
      out.dims.push({ col: date, grain: first.part === 'month' ? 'monthOfYear' : first.part === 'quarter' ? 'quarterOfYear' : first.part === 'isodow' ? 'weekday' : 'year' });
      return out;
    }
    return `"${w.label}" names periods I cannot set side by side in ${table.label}`;
  }
  const when = date !== undefined ? resolveRelative(w, date) : w;
  if (when.rel !== undefined && date === undefined) return `"${w.label}" counts back from the latest date, and ${table.label} has no date column`;
  if (when.part !== undefined) {
    if (date !== undefined) {
      out.filters.push({ kind: 'datePart', col: date, part: when.part.part, values: when.part.values, label: when.label });
      return out;
    }
    const pc = when.part.part === 'month' || when.part.part === 'quarter' ? partColumnOf(table, when.part.part) : undefined;
    if (pc === undefined) return `"${when.label}" is a date, and no column of ${table.label} holds dates (or months or quarters) to filter on`;
    out.filters.push(when.part.values.length === 1 ? { kind: 'cmp', col: pc, op: '=', value: when.part.values[0] as number } : { kind: 'in', col: pc, values: when.part.values.map(String), negate: false });
    return out;
  }
  if (date !== undefined) {
    const f: Filter = { kind: 'dateRange', col: date, label: when.label };
    if (when.from !== undefined) f.from = when.from;
    if (when.to !== undefined) f.to = when.to;
    out.filters.push(f);
    return out;
  }
  // No date: whole years still filter a column of years ("since 1950" -> year >= 1950).
  const yc = yearColumnOf(table);
  const whole = (iso: string | undefined): number | undefined => (iso !== undefined && /-01-01$/.test(iso) ? Number(iso.slice(0, 4)) : undefined);
  const from = whole(when.from);
  const to = whole(when.to);
  if (yc === undefined || (when.from !== undefined && from === undefined) || (when.to !== undefined && to === undefined)) {
    return `"${when.label}" is a date, and no column of ${table.label} holds dates (or years) to filter on`;
  }
  if (from !== undefined && to !== undefined) out.filters.push(to - from === 1 ? { kind: 'cmp', col: yc, op: '=', value: from } : { kind: 'between', col: yc, lo: from, hi: to - 1 });
  else if (from !== undefined) out.filters.push({ kind: 'cmp', col: yc, op: '>=', value: from });
  else if (to !== undefined) out.filters.push({ kind: 'cmp', col: yc, op: '<', value: to });
  return out;
}

/** Value filters of a `val` part: several values of one column are one IN (or NOT IN). */
export function valFilters(ch: Chooser, p: Body<'val'>, compare: boolean): FilterResult | string {
  const out: FilterResult = { filters: [], dims: [] };
  const byColumn = new Map<ColRef['column'], { col: ColRef; values: string[]; texts: string[] }>();
  for (const v of p.vals) {
    const hit = pickVal(ch, v, p.named);
    if (hit === undefined) return `"${v.text}" names no value`;
    // The one value of a column ("Inflation rate, total" in every row) describes the table; it filters nothing.
    if (hit.constant === true) continue;
    const e = byColumn.get(hit.ref.column) ?? { col: hit.ref, values: [], texts: [] };
    if (hit.partial !== undefined && hit.values.length > 1) e.texts.push(hit.partial);
    else for (const x of hit.values) if (!e.values.includes(x)) e.values.push(x);
    byColumn.set(hit.ref.column, e);
  }
  for (const e of byColumn.values()) {
    const neg = p.neg === true;
    // A column of lists ("DEU, FRA, POL"): the value is one item of the list.
    if (e.values.length > 0 && e.col.column.listLike === true) out.filters.push({ kind: 'contains', col: e.col, texts: e.values, negate: neg });
    else if (e.values.length > 0) out.filters.push({ kind: 'in', col: e.col, values: e.values, negate: neg });
    if (e.texts.length > 0) out.filters.push({ kind: 'contains', col: e.col, texts: e.texts, negate: neg });
    // "revenue for Germany and France", "online vs retail": the values side by side, not added together.
    const several = e.values.length + e.texts.length > 1;
    if (several && !neg && (p.joiner !== 'or' || compare)) out.dims.push({ col: e.col });
  }
  return out;
}
