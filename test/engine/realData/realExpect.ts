/**
 * What a real-data case expects and how an answer is judged: right, wrong or refused. Checks look
 * at the published TABLE the way a user reads it (the number is in the one row, the groups are
 * the first column, the ranking is the row order) and never at the engine's column names, so a
 * different but correct layout is still right. A TABLE that does not hold the expected answer is
 * wrong; an answer with no TABLE is a refusal (right only when the case expects one).
 */
import type { Collected } from '../engineHarness';

export type RealExpect =
  /** One number: the TABLE has one row and one of its cells is this value. */
  | { kind: 'number'; value: number }
  /** Groups: key (first `dims` cells joined by " | ") -> value, in any order; exactly these keys. */
  | { kind: 'groups'; values: Record<string, number>; dims?: number }
  /** A ranking: the first column of the first rows, in this order (extra rows allowed when `prefix`). */
  | { kind: 'top'; keys: string[]; prefix?: boolean }
  /** "which X has the highest Y": the first row holds `key` (and `value`, if given) in some cell. */
  | { kind: 'pick'; key: string; value?: number }
  /** A listing: `count` rows, and (if given) some column holds exactly these values (any order). */
  | { kind: 'rows'; count: number; values?: string[] }
  /** The engine must not answer with a number: it refuses or asks how to read the question. */
  | { kind: 'refuse' }
  /** There is no number to give: a refusal, or an answer whose table holds no value. */
  | { kind: 'none' };

export interface RealCase {
  q: string;
  files: string[];
  /** Earlier questions of the same session, oldest first. */
  history?: string[];
  expect: RealExpect;
  /** The class of question (for the printed breakdown): 'count', 'filter', 'join', 'followup', ... */
  tag: string;
}

export type Outcome = { kind: 'right' } | { kind: 'wrong'; why: string } | { kind: 'refused'; why: string };

const TOL = 1e-6;
export const close = (got: number, want: number): boolean => Math.abs(got - want) <= Math.max(TOL * Math.abs(want), TOL);

function toNumber(cell: string | undefined): number {
  if (cell === undefined) return NaN;
  const t = cell.trim();
  return t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? NaN : Number(t);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A date written with a month name ("06 Dec 1812", "Dec 6, 1812", "Dec-6-1812") as ISO, else unchanged. */
function isoDate(s: string): string {
  const pad = (x: string): string => x.padStart(2, '0');
  let m = /^(\d{1,2})[ -]([a-z]{3})[a-z]*[ -,]+(\d{4})$/.exec(s);
  if (m && MONTHS.includes(m[2] ?? '')) return `${m[3]}-${pad(String(MONTHS.indexOf(m[2] ?? '') + 1))}-${pad(m[1] ?? '')}`;
  m = /^([a-z]{3})[a-z]*[ -](\d{1,2})[ -,]+(\d{4})$/.exec(s);
  if (m && MONTHS.includes(m[1] ?? '')) return `${m[3]}-${pad(String(MONTHS.indexOf(m[1] ?? '') + 1))}-${pad(m[2] ?? '')}`;
  return s;
}

/** A cell as compared with an expected key: trimmed, lower case, dates as ISO without a midnight time. */
export function normKey(v: string): string {
  let s = isoDate(v.trim().toLowerCase());
  s = s.replace(/^(\d{4}-\d{2}-\d{2})[t ]00:00:00(\.0+)?z?$/, '$1');
  const n = toNumber(s);
  return Number.isFinite(n) ? String(Number(n.toPrecision(12))) : s;
}

/** `want` may be coarser than `got`: "2014-01" matches "2014-01-01", "2014" matches 2014. */
export function keyMatches(got: string, want: string): boolean {
  const g = normKey(got);
  const w = normKey(want);
  return g === w || (/^\d{4}-\d{2}$/.test(w) && g === `${w}-01`);
}

function mainTable(a: Collected): string[][] | undefined {
  return a.tables[a.tables.length - 1];
}

function judgeTable(t: string[][], e: Exclude<RealExpect, { kind: 'refuse' } | { kind: 'none' }>): string | undefined {
  const [header = [], ...rows] = t;
  switch (e.kind) {
    case 'number': {
      if (rows.length !== 1) return `expected one row with ${e.value}, got ${rows.length} rows (${header.join(', ')})`;
      const cells = rows[0] ?? [];
      return cells.some((c) => close(toNumber(c), e.value)) ? undefined : `expected ${e.value}, got ${cells.join(', ')}`;
    }
    case 'groups': {
      const dims = e.dims ?? 1;
      const want = Object.entries(e.values);
      if (rows.length !== want.length) return `expected ${want.length} groups, got ${rows.length} (${rows.slice(0, 4).map((r) => r.slice(0, dims).join(' | ')).join('; ')})`;
      const key = (r: string[]): string => r.slice(0, dims).join(' | ');
      // Some value column must match every group.
      for (let c = dims; c < header.length; c++) {
        const ok = want.every(([k, v]) => {
          const row = rows.find((r) => k.split(' | ').every((part, i) => keyMatches(r[i] ?? '', part)));
          if (row === undefined) return false;
          const got = toNumber(row[c]);
          return Number.isNaN(v) ? Number.isNaN(got) : close(got, v);
        });
        if (ok) return undefined;
      }
      const missing = want.find(([k]) => !rows.some((r) => k.split(' | ').every((part, i) => keyMatches(r[i] ?? '', part))));
      if (missing) return `missing group "${missing[0]}" (have ${rows.slice(0, 5).map(key).join('; ')})`;
      const [k0, v0] = want[0] ?? ['', 0];
      const r0 = rows.find((r) => k0.split(' | ').every((part, i) => keyMatches(r[i] ?? '', part)));
      return `values differ, e.g. "${k0}": expected ${v0}, got ${r0?.slice(dims).join(', ')}`;
    }
    case 'top': {
      const keys = rows.map((r) => r[0] ?? '');
      const n = e.keys.length;
      if (!e.prefix && keys.length !== n) return `expected ${n} ranked rows, got ${keys.length}`;
      const ok = e.keys.every((k, i) => keyMatches(keys[i] ?? '', k));
      return ok ? undefined : `expected ${JSON.stringify(e.keys)}, got ${JSON.stringify(keys.slice(0, n + 2))}`;
    }
    case 'pick': {
      const first = rows[0];
      if (first === undefined) return `expected ${e.key}, got no rows`;
      if (!first.some((c) => keyMatches(c, e.key))) return `expected ${e.key} in the first row, got ${first.slice(0, 6).join(', ')}`;
      if (e.value !== undefined && !first.some((c) => close(toNumber(c), e.value ?? NaN))) return `expected ${e.value} with ${e.key}, got ${first.slice(0, 6).join(', ')}`;
      return undefined;
    }
    case 'rows': {
      if (rows.length !== e.count) return `expected ${e.count} rows, got ${rows.length}`;
      if (e.values === undefined) return undefined;
      const want = [...e.values].map(normKey).sort();
      for (let c = 0; c < header.length; c++) {
        const got = rows.map((r) => normKey(r[c] ?? '')).sort();
        if (JSON.stringify(got) === JSON.stringify(want)) return undefined;
      }
      return `no column holds ${JSON.stringify(e.values.slice(0, 5))}`;
    }
  }
}

/** Right, wrong or refused. */
export function judge(a: Collected, e: RealExpect): Outcome {
  const t = mainTable(a);
  const firstLine = a.message.split('\n')[0] ?? '';
  if (e.kind === 'refuse') return t === undefined ? { kind: 'right' } : { kind: 'wrong', why: `answered with a table instead of refusing: ${firstLine.slice(0, 120)}` };
  if (e.kind === 'none') {
    const values = (t ?? []).slice(1).flat().filter((c) => c.trim() !== '');
    return values.length === 0 ? { kind: 'right' } : { kind: 'wrong', why: `gave ${values.slice(0, 3).join(', ')} where there is no number: ${firstLine.slice(0, 120)}` };
  }
  if (t === undefined) return { kind: 'refused', why: firstLine.slice(0, 160) };
  const problem = judgeTable(t, e);
  return problem === undefined ? { kind: 'right' } : { kind: 'wrong', why: `${problem} — ${firstLine.slice(0, 120)}` };
}
