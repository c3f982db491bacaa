/**
 * What an accuracy case expects, computed independently in plain TypeScript, and the checker that
 * compares an answer's TABLE against it. A check returns undefined when the answer is right, else
 * a short reason (printed in the suite's failure list).
 */
import type { Collected } from './engineHarness';

export type Expectation =
  /** One number: the named column (or the last one) of the single result row. */
  | { kind: 'scalar'; value: number; column?: string }
  /** Grouped numbers: key = the first `dims` cells joined by " | "; value = `column` (default: right after the keys). */
  | { kind: 'groups'; values: Record<string, number>; dims?: number; column?: string }
  /** The first column's keys in this order (ranked answers). */
  | { kind: 'ranked'; keys: string[] }
  /** Rows listing: `column` values (in order when `ordered`). */
  | { kind: 'rows'; column: string; values: string[]; ordered: boolean }
  | { kind: 'histogram'; total: number; min: number; max: number }
  | { kind: 'unanswerable' }
  | { kind: 'custom'; check: (a: Collected) => string | undefined };

export interface Case {
  q: string;
  files: string[];
  history?: string[];
  expect: Expectation;
}

const close = (a: number, e: number): boolean => Math.abs(a - e) <= Math.max(1e-6 * Math.abs(e), 1e-6);
const num = (s: string | undefined): number => (s === undefined || s === '' ? NaN : Number(s));

function mainTable(a: Collected): string[][] | undefined {
  return a.tables[a.tables.length - 1];
}

/** Checks an answer against an expectation. */
export function check(a: Collected, e: Expectation): string | undefined {
  const cannot = /can't answer|cannot answer|could not be completed/i.test(a.message);
  if (e.kind === 'unanswerable') {
    if (!cannot) return `expected a clear "cannot answer", got: ${a.message.slice(0, 120)}`;
    if (a.tables.length > 0) return 'an unanswerable question must not publish a table';
    return undefined;
  }
  if (e.kind === 'custom') return e.check(a);
  if (cannot) return `answered "cannot": ${a.message.slice(0, 160)}`;
  const t = mainTable(a);
  if (!t || t.length === 0) return 'no TABLE in the answer';
  const [header, ...rows] = t as [string[], ...string[][]];
  switch (e.kind) {
    case 'scalar': {
      if (rows.length !== 1) return `expected one row, got ${rows.length} (${header.join(',')})`;
      const i = e.column !== undefined ? header.indexOf(e.column) : header.length - 1;
      if (i < 0) return `no column ${e.column} in ${header.join(',')}`;
      const got = num(rows[0]?.[i]);
      return close(got, e.value) ? undefined : `expected ${e.value}, got ${got} (${header[i]})`;
    }
    case 'groups': {
      const dims = e.dims ?? 1;
      const vi = e.column !== undefined ? header.indexOf(e.column) : dims;
      if (vi < 0) return `no column ${e.column} in ${header.join(',')}`;
      const got = new Map(rows.map((r) => [r.slice(0, dims).join(' | '), num(r[vi])]));
      const want = Object.entries(e.values);
      if (got.size !== want.length) return `expected ${want.length} groups, got ${got.size} (${[...got.keys()].slice(0, 6).join('; ')})`;
      for (const [k, v] of want) {
        const g = got.get(k);
        if (g === undefined) return `missing group "${k}" (have ${[...got.keys()].slice(0, 6).join('; ')})`;
        if (!(Number.isNaN(v) && Number.isNaN(g)) && !close(g, v)) return `group "${k}": expected ${v}, got ${g}`;
      }
      return undefined;
    }
    case 'ranked': {
      const keys = rows.map((r) => r[0] ?? '');
      return JSON.stringify(keys) === JSON.stringify(e.keys) ? undefined : `expected ${JSON.stringify(e.keys)}, got ${JSON.stringify(keys.slice(0, 10))}`;
    }
    case 'rows': {
      const i = header.indexOf(e.column);
      if (i < 0) return `no column ${e.column}`;
      const vals = rows.map((r) => r[i] ?? '');
      const a1 = e.ordered ? vals : [...vals].sort();
      const b1 = e.ordered ? e.values : [...e.values].sort();
      return JSON.stringify(a1) === JSON.stringify(b1) ? undefined : `expected ${JSON.stringify(b1.slice(0, 8))}, got ${JSON.stringify(a1.slice(0, 8))}`;
    }
    case 'histogram': {
      const si = header.indexOf('bin_start');
      const ei = header.indexOf('bin_end');
      const ci = header.indexOf('row_count');
      if (si < 0 || ei < 0 || ci < 0) return `not a histogram: ${header.join(',')}`;
      const total = rows.reduce((s, r) => s + num(r[ci]), 0);
      if (total !== e.total) return `histogram counts ${total} values, expected ${e.total}`;
      if (num(rows[0]?.[si]) > e.min) return `first bin starts at ${rows[0]?.[si]}, above the minimum ${e.min}`;
      if (num(rows[rows.length - 1]?.[ei]) <= e.max && !(num(rows[rows.length - 1]?.[si]) <= e.max)) return `last bin ends before the maximum ${e.max}`;
      return undefined;
    }
  }
}

// ---- independent computations ----

export type Agg = 'sum' | 'avg' | 'count' | 'min' | 'max' | 'median' | 'countDistinct';

/** SQL-like aggregate over non-null values (count counts rows; empty sum is NaN like SQL NULL). */
export function aggregate(values: ReadonlyArray<number | string | null>, agg: Agg): number {
  if (agg === 'count') return values.length;
  const present = values.filter((v): v is number | string => v !== null);
  if (agg === 'countDistinct') return new Set(present).size;
  const nums = present.map(Number).sort((a, b) => a - b);
  if (nums.length === 0) return NaN;
  switch (agg) {
    case 'sum':
      return nums.reduce((a, b) => a + b, 0);
    case 'avg':
      return nums.reduce((a, b) => a + b, 0) / nums.length;
    case 'min':
      return nums[0] as number;
    case 'max':
      return nums[nums.length - 1] as number;
    case 'median': {
      const m = Math.floor(nums.length / 2);
      return nums.length % 2 ? (nums[m] as number) : ((nums[m - 1] as number) + (nums[m] as number)) / 2;
    }
  }
}

/** Groups rows by a key (null -> '') and aggregates a value per group. */
export function groupBy<T>(rows: readonly T[], key: (r: T) => string | number | boolean | null, value: (r: T) => number | string | null, agg: Agg): Record<string, number> {
  const groups = new Map<string, Array<number | string | null>>();
  for (const r of rows) {
    const k = key(r);
    const ks = k === null ? '' : String(k);
    const list = groups.get(ks) ?? [];
    list.push(value(r));
    groups.set(ks, list);
  }
  return Object.fromEntries([...groups].map(([k, v]) => [k, aggregate(v, agg)]));
}

/** Keys of the top `n` groups by value (desc, or asc), ties broken by key like the engine. */
export function topKeys(groups: Record<string, number>, n: number, dir: 'desc' | 'asc' = 'desc'): string[] {
  return Object.entries(groups)
    .filter(([, v]) => Number.isFinite(v))
    .sort((a, b) => (dir === 'desc' ? b[1] - a[1] : a[1] - b[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, n)
    .map(([k]) => k);
}

/** Pearson correlation. */
export function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    const dy = (ys[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Linear-interpolated quantile (DuckDB's quantile_cont). */
export function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

/** Number of values outside Tukey's fences. */
export function tukeyOutliers(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const q1 = quantile(s, 0.25);
  const q3 = quantile(s, 0.75);
  const iqr = q3 - q1;
  return s.filter((v) => v < q1 - 1.5 * iqr || v > q3 + 1.5 * iqr).length;
}

/** Month start (YYYY-MM-01) of an ISO date. */
export const monthOf = (iso: string): string => `${iso.slice(0, 7)}-01`;
/** Quarter start of an ISO date. */
export const quarterOf = (iso: string): string => `${iso.slice(0, 4)}-${String(Math.floor((Number(iso.slice(5, 7)) - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
