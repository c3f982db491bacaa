/**
 * Filters from what a question names besides compared values: dates and years ("in 2014", "since
 * 1950"), missing values ("no rating listed"), yes/no columns ("remote", "not indoor"), and keys
 * absent from another table ("customers without orders"). Split from roles.ts, which holds the
 * shared role helpers these use.
 */
import type { ColRef, ColumnMeta, Dim, Filter, TableMeta } from './types';
import { dateColumn, isGroupable, isIdLike, isNumeric, mark, nextSpan, pickColumn, spanPastUnits, type Parse } from './roles';

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
    // No date column: "in may" on a column of month numbers (1-12), "in Q3" on one of quarters.
    if (d.part !== undefined) {
      const partCol = partColumn(p, prefer, d.part.part);
      if (partCol !== undefined) {
        mark(p, d.at, d.end);
        out.push({ kind: 'cmp', col: partCol, op: '=', value: d.part.value });
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

/** A whole-number column of months (1-12) or quarters (1-4) named for them ("Month", "mo", "qtr"). */
function partColumn(p: Parse, prefer: TableMeta | undefined, part: 'month' | 'quarter'): ColRef | undefined {
  const name = part === 'month' ? /^(month|mo|mon|month_?num(ber)?)$/i : /^(quarter|qtr|q)$/i;
  const top = part === 'month' ? 12 : 4;
  return (prefer ? [prefer, ...p.tables] : p.tables).flatMap((t) => t.columns.map((c) => ({ table: t, column: c })))
    .find((r) => name.test(r.column.name.trim()) && r.column.kind === 'numeric' && typeof r.column.min === 'number' && typeof r.column.max === 'number'
      && Number.isInteger(r.column.min) && Number.isInteger(r.column.max) && r.column.min >= 1 && r.column.max <= top);
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
    const scale = t.unit === '%' && typeof col.column.max === 'number' && col.column.max <= 1 ? 0.01 : 1;
    // "life expectancy at 90" where life expectancy never reaches 90 but `Age` runs 0-119: the
    // number is a point of the one whole-number column it fits, and the named column is measured.
    const fits = (c: ColumnMeta, v: number): boolean => typeof c.min === 'number' && typeof c.max === 'number' && v >= c.min && v <= c.max;
    if (glue === 'at' && t.unit === undefined && Number.isInteger(value) && !fits(col.column, value)) {
      const others = col.table.columns.filter((c) => c !== col.column && isNumeric(c) && !c.converted && /INT/i.test(c.type) && fits(c, value));
      const other = others.length === 1 ? others[0] : undefined;
      if (other !== undefined) {
        mark(p, i - 1, i + 1);
        out.push({ kind: 'cmp', col: { table: col.table, column: other }, op: '=', value });
        return;
      }
    }
    p.taken.add(s);
    mark(p, s.start, i + 1);
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
