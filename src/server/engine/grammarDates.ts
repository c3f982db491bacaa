/**
 * The grammar of times: a year, a quarter ("Q1 2024", "the first quarter of 2023", "2008q4"), a
 * month or a day (chrono's literals, ISO dates), a decade ("the 1990s"), the last N days or
 * months, and ranges between them ("from 1990 to 1995" counts 1995 whole; "since", "after",
 * "before", "until"). A month or quarter without a year is that month of any year.
 */
import { spanKey } from './lattice';
import { kw, tok, type Feed, type RuleDef } from './parser';
import type { NumM, When } from './parts';
import type { Grain } from './types';

const rules: RuleDef[] = [];
const r = (name: string, symbols: RuleDef['symbols'], build?: RuleDef['build'], cost?: number): void => {
  const def: RuleDef = { name, symbols };
  if (build !== undefined) def.build = build;
  if (cost !== undefined) def.cost = cost;
  rules.push(def);
};
const at = <T>(d: unknown[], i: number): T => d[i] as T;
const pad = (n: number): string => String(n).padStart(2, '0');
const iso = (y: number, m = 1, d = 1): string => `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
const MONTH_NAMES = Array.from({ length: 12 }, (_, k) => new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, k, 1))));

function dayAfter(isoDay: string): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** A period: its half-open day range, or the calendar part it stands for in any year. */
type Point = Omit<When, 'from' | 'to' | 'cost'> & { from?: string; to?: string };

const year = (y: number): Point => ({ from: iso(y), to: iso(y + 1), label: String(y) });
const month = (y: number, m: number): Point => ({ from: iso(y, m), to: m === 12 ? iso(y + 1) : iso(y, m + 1), label: `${MONTH_NAMES[m - 1]} ${y}` });
const quarter = (y: number, q: number): Point => ({ from: iso(y, q * 3 - 2), to: q === 4 ? iso(y + 1) : iso(y, q * 3 + 1), label: `Q${q} ${y}` });

const isYear = (n: NumM | undefined): boolean => n !== undefined && n.yearLike === true;
r('Year', ['Num'], (d) => (isYear(at<NumM>(d, 0)) ? { y: at<NumM>(d, 0).value } : undefined));
// "in 2014" is a year; "the 2000s" and "90s" are decades.
r('Decade', ['Num'], (d) => {
  const n = at<NumM>(d, 0);
  if (n.unit !== 's' || n.value % 10 !== 0) return undefined;
  const y = n.value >= 1000 ? n.value : n.value >= 30 ? 1900 + n.value : 2000 + n.value;
  const p: Point = { from: iso(y), to: iso(y + 10), label: `the ${y}s` };
  if (y % 100 === 0) p.alsoCentury = { from: iso(y), to: iso(y + 100) };
  return { p };
});
r('Quarter', [kw('q1', 'q2', 'q3', 'q4')], (d) => ({ q: Number(at<Feed>(d, 0).t.norm.slice(1)) }));
r('Quarter', ['Num', kw('quarter')], (d) => {
  const n = at<NumM>(d, 0);
  return n.ordinal === true && n.value >= 1 && n.value <= 4 ? { q: n.value } : undefined;
});
r('Quarter', [kw('quarter'), 'Num'], (d) => {
  const n = at<NumM>(d, 1);
  return Number.isInteger(n.value) && n.value >= 1 && n.value <= 4 && n.yearLike !== true ? { q: n.value } : undefined;
});
const q = (d: unknown[], i: number): number => at<{ q: number }>(d, i).q;
const y = (d: unknown[], i: number): number => at<{ y: number }>(d, i).y;

r('Point', ['Year'], (d) => ({ p: year(y(d, 0)) }));
r('Point', ['Decade'], (d) => at<object>(d, 0));
r('Point', ['Quarter', 'Year'], (d) => ({ p: quarter(y(d, 1), q(d, 0)) }));
r('Point', ['Quarter', kw('of', 'in'), 'Year'], (d) => ({ p: quarter(y(d, 2), q(d, 0)) }));
r('Point', ['Year', 'Quarter'], (d) => ({ p: quarter(y(d, 0), q(d, 1)) }));
r('Point', ['Quarter'], (d) => ({ p: { part: { part: 'quarter', values: [q(d, 0)] }, label: `Q${q(d, 0)}` } }), 0.2);
r('Point', [tok((f) => f.t.kind === 'date')], (d) => {
  const raw = at<Feed>(d, 0).t.raw;
  let m = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?$/.exec(raw);
  if (m !== null) {
    const [yy, mm, dd] = [Number(m[1]), Number(m[2]), m[3] !== undefined ? Number(m[3]) : undefined];
    if (mm < 1 || mm > 12) return undefined;
    return dd === undefined ? { p: month(yy, mm) } : { p: { from: iso(yy, mm, dd), to: dayAfter(iso(yy, mm, dd)), label: iso(yy, mm, dd) } };
  }
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(raw);
  if (m === null) return undefined;
  // "15.03.2024" is day first; with slashes, month first unless that cannot be ("25/12/2024").
  const a = Number(m[1]);
  const b = Number(m[2]);
  const [mm, dd] = raw.includes('.') || a > 12 ? [b, a] : [a, b];
  if (mm > 12 || dd > 31) return undefined;
  const day = iso(Number(m[3]), mm, dd);
  return { p: { from: day, to: dayAfter(day), label: day } };
});
// chrono's literals: "March 2024", "18 Oct 1812", "june", "mondays", "weekends".
for (let n = 1; n <= 4; n++) {
  r('Point', Array.from({ length: n }, () => tok((f) => f.in.has('date'))), (d) => {
    const fs = d as Feed[];
    const first = fs[0] as Feed;
    const lit = first.lat.date.get(spanKey(first.t.i, first.t.i + n));
    if (lit === undefined) return undefined;
    if (lit.weekend === true) return { p: { part: { part: 'isodow', values: [6, 7] }, label: 'weekends' } };
    if (lit.weekday !== undefined) return { p: { part: { part: 'isodow', values: [lit.weekday] }, label: `${new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, lit.weekday)))}s` } };
    if (lit.month === undefined) return undefined;
    if (lit.year === undefined) return lit.day === undefined ? { p: { part: { part: 'month', values: [lit.month] }, label: MONTH_NAMES[lit.month - 1] ?? '' } } : undefined;
    if (lit.day === undefined) return { p: month(lit.year, lit.month) };
    const day = iso(lit.year, lit.month, lit.day);
    return { p: { from: day, to: dayAfter(day), label: day } };
  });
}
const pt = (d: unknown[], i: number): Point => at<{ p: Point }>(d, i).p;

// Ranges and open ends. A range needs two day ranges ("from March to June" without a year is not one).
/** "March" in "between March and June 2024" takes the year written once at the end. */
function withYearOf(a: Point, b: Point): Point {
  if (a.from !== undefined || a.part === undefined || b.from === undefined || a.part.values.length !== 1) return a;
  const yy = Number(b.from.slice(0, 4));
  const v = a.part.values[0] as number;
  return a.part.part === 'month' ? month(yy, v) : a.part.part === 'quarter' ? quarter(yy, v) : a;
}
const range = (a0: Point, b: Point, label: string): Point | undefined => {
  const a = withYearOf(a0, b);
  // "from March to June" without a year: those months of every year.
  if (a.part !== undefined && b.part !== undefined && a.part.part === b.part.part && a.part.part !== 'isodow' && a.part.values.length === 1 && b.part.values.length === 1) {
    const [lo, hi] = [a.part.values[0] as number, b.part.values[0] as number];
    if (hi <= lo) return undefined;
    return { part: { part: a.part.part, values: Array.from({ length: hi - lo + 1 }, (_, k) => lo + k) }, label };
  }
  return a.from !== undefined && b.to !== undefined && a.from < b.to ? { from: a.from, to: b.to, label: a === a0 ? label : `${a.label} to ${b.label}` } : undefined;
};
r('Range', [kw('from', 'between'), 'Point', kw('to', 'and', 'through', 'until', 'till', 'thru'), 'Point'], (d) => {
  const p = range(pt(d, 1), pt(d, 3), `${pt(d, 1).label} to ${pt(d, 3).label}`);
  return p === undefined ? undefined : { p };
});
r('Range', ['Point', kw('to', 'through', 'thru', 'until', 'till'), 'Point'], (d) => {
  const p = range(pt(d, 0), pt(d, 2), `${pt(d, 0).label} to ${pt(d, 2).label}`);
  return p === undefined ? undefined : { p };
}, 0.1);
// "1990-1995" reads as two years side by side.
r('Range', ['Year', 'Year'], (d) => (y(d, 1) > y(d, 0) ? { p: { from: iso(y(d, 0)), to: iso(y(d, 1) + 1), label: `${y(d, 0)} to ${y(d, 1)}` } } : undefined), 0.2);
const open = (p: Point, side: 'from' | 'to', at: string | undefined, label: string): object | undefined =>
  at === undefined ? undefined : { p: { [side]: at, label: `${label} ${p.label}` } };
r('Range', [kw('since', 'from', 'starting'), 'Point'], (d) => open(pt(d, 1), 'from', pt(d, 1).from, 'since'));
r('Range', [kw('after'), 'Point'], (d) => open(pt(d, 1), 'from', pt(d, 1).to, 'after'));
r('Range', [kw('before', 'prior'), 'Point'], (d) => open(pt(d, 1), 'to', pt(d, 1).from, 'before'));
r('Range', [kw('prior'), kw('to'), 'Point'], (d) => open(pt(d, 2), 'to', pt(d, 2).from, 'before'));
r('Range', [kw('until', 'till', 'through', 'thru'), 'Point'], (d) => open(pt(d, 1), 'to', pt(d, 1).to, 'up to'));
r('Range', [kw('up'), kw('to'), 'Point'], (d) => open(pt(d, 2), 'to', pt(d, 2).to, 'up to'));
r('Range', ['Point', kw('onwards', 'onward', 'on', 'forward')], (d) => open(pt(d, 0), 'from', pt(d, 0).from, 'since'));
// The last N days, months, years: counted back from the data's latest date (resolved by the composer).
const GRAIN_WORDS: Record<string, Grain> = { day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year', decade: 'decade' };
const singularUnit = (u: string | undefined): string => (u ?? '').replace(/s$/, '');
const grainWord = tok((f) => f.t.kind === 'word' && GRAIN_WORDS[f.t.sing] !== undefined);
r('Range', [kw('last', 'past', 'previous', 'recent'), 'Num', grainWord], (d) => {
  const n = at<NumM>(d, 1);
  const g = GRAIN_WORDS[at<Feed>(d, 2).t.sing] as Grain;
  return Number.isInteger(n.value) && n.value >= 1 && n.value <= 1000 ? { p: { rel: { n: n.value, grain: g }, label: `the last ${n.value} ${g}s` } } : undefined;
});
r('Range', [kw('last', 'past', 'previous', 'recent'), tok((f) => f.t.kind === 'number' && GRAIN_WORDS[singularUnit(f.t.unit)] !== undefined)], (d) => {
  const t = at<Feed>(d, 1).t;
  const g = GRAIN_WORDS[singularUnit(t.unit)] as Grain;
  const n = t.value ?? 0;
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? { p: { rel: { n, grain: g }, label: `the last ${n} ${g}s` } } : undefined;
});
r('Range', [kw('last', 'past', 'previous'), grainWord], (d) => {
  const g = GRAIN_WORDS[at<Feed>(d, 1).t.sing] as Grain;
  return { p: { rel: { n: 1, grain: g, whole: true }, label: `last ${g}` } };
});
r('Range', [kw('this', 'current'), grainWord], (d) => {
  const g = GRAIN_WORDS[at<Feed>(d, 1).t.sing] as Grain;
  return { p: { rel: { n: 0, grain: g, whole: true }, label: `this ${g}` } };
});
// "the first week of 1980", "the last month of 1999", "the first 10 days of 2020": part of a period.
const edge = tok((f) => /^(first|last)$/i.test(f.t.raw));
function partOf(side: string, n: number, g: Grain, p: Point): Point | undefined {
  if (p.from === undefined || p.to === undefined || !Number.isInteger(n) || n < 1 || n > 1000 || g === 'decade') return undefined;
  const step = (iso0: string, k: number): string => {
    const d = new Date(`${iso0}T00:00:00Z`);
    if (g === 'day') d.setUTCDate(d.getUTCDate() + k);
    else if (g === 'week') d.setUTCDate(d.getUTCDate() + 7 * k);
    else if (g === 'month') d.setUTCMonth(d.getUTCMonth() + k);
    else if (g === 'quarter') d.setUTCMonth(d.getUTCMonth() + 3 * k);
    else d.setUTCFullYear(d.getUTCFullYear() + k);
    return d.toISOString().slice(0, 10);
  };
  const [from, to] = side === 'first' ? [p.from, step(p.from, n)] : [step(p.to, -n), p.to];
  if (from < p.from || to > p.to) return undefined;
  return { from, to, label: `${from} to ${dayBefore(to)}` };
}
function dayBefore(isoDay: string): string {
  const d = new Date(`${isoDay}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
r('Point', [edge, grainWord, kw('of', 'in'), 'Point'], (d) => {
  const p = partOf(at<Feed>(d, 0).t.raw.toLowerCase(), 1, GRAIN_WORDS[at<Feed>(d, 1).t.sing] as Grain, pt(d, 3));
  return p === undefined ? undefined : { p };
});
r('Point', [edge, 'Num', grainWord, kw('of', 'in'), 'Point'], (d) => {
  const p = partOf(at<Feed>(d, 0).t.raw.toLowerCase(), at<NumM>(d, 1).value, GRAIN_WORDS[at<Feed>(d, 2).t.sing] as Grain, pt(d, 4));
  return p === undefined ? undefined : { p };
});
r('Point', [edge, tok((f) => f.t.kind === 'number' && GRAIN_WORDS[singularUnit(f.t.unit)] !== undefined), kw('of', 'in'), 'Point'], (d) => {
  const t = at<Feed>(d, 1).t;
  const p = partOf(at<Feed>(d, 0).t.raw.toLowerCase(), t.value ?? 0, GRAIN_WORDS[singularUnit(t.unit)] as Grain, pt(d, 3));
  return p === undefined ? undefined : { p };
});
r('Span', ['Point']);
r('Span', ['Range']);
r('Span', [kw('in', 'during', 'for', 'of', 'on', 'at', 'throughout', 'within', 'from', 'by'), 'Point'], (d) => at<object>(d, 1));
r('Span', [kw('in', 'during', 'for', 'over', 'within'), 'Range'], (d) => at<object>(d, 1));
// Several periods side by side: "2023 vs 2024", "Q1 and Q2 2024", "march and april".
// "March and June 2024": a year written once at the end stands for both.
const shortSpan = (p: Point): boolean => p.from !== undefined && p.to !== undefined && Date.parse(p.to) - Date.parse(p.from) < 200 * 86_400_000;
r('Periods', ['Span', kw('and', 'vs', 'versus', 'or', '&', 'compared'), 'Span'], (d) => ({ ps: [shortSpan(pt(d, 2)) ? withYearOf(pt(d, 0), pt(d, 2)) : pt(d, 0), pt(d, 2)] }));
r('Periods', ['Periods', kw('and', 'vs', 'versus', 'or', '&'), 'Span'], (d) => ({ ps: [...at<{ ps: Point[] }>(d, 0).ps, pt(d, 2)] }));
// "Q1 and Q2 2024": the year written once stands for both.
r('Periods', ['Quarter', kw('and', 'vs', 'or', '&'), 'Quarter', 'Year'], (d) => ({ ps: [quarter(y(d, 3), q(d, 0)), quarter(y(d, 3), q(d, 2))] }));
r('Periods', ['Quarter', kw('and', 'vs', 'or', '&'), 'Quarter', kw('of', 'in'), 'Year'], (d) => ({ ps: [quarter(y(d, 4), q(d, 0)), quarter(y(d, 4), q(d, 2))] }));
r('WhenF', ['Span'], (d) => ({ when: pt(d, 0) }));
r('WhenF', ['Periods'], (d) => {
  const ps = at<{ ps: Point[] }>(d, 0).ps;
  return { when: { label: ps.map((p) => p.label).join(' and '), periods: ps } };
});

export const DATE_RULES: readonly RuleDef[] = rules;
