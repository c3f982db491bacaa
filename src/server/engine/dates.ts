/**
 * Dates in questions: years ("in 2024"), months ("March 2024", "in May"), quarters ("Q1 2024",
 * "first quarter"), ISO and slashed dates, ranges ("between March and June 2024", "since 2023",
 * "before 2024-07-01") and windows relative to the latest date in the data ("last 30 days",
 * "this year"). Each becomes a half-open range [from, to) or a calendar part in any year.
 */
import { MONTHS, type Token } from './text';

export interface DateExpr {
  at: number;
  end: number;
  from?: string;
  to?: string;
  /** Month or quarter in any year (no year given). */
  part?: { part: 'month' | 'quarter'; value: number };
  label: string;
  /** "the 1900s": the decade or the century? Both readings, so the question must say. */
  alsoCentury?: { from: string; to: string; label: string };
}

interface Atom {
  at: number;
  end: number;
  from: string;
  to: string;
  label: string;
  part?: { part: 'month' | 'quarter'; value: number };
  alsoCentury?: { from: string; to: string; label: string };
}

const pad = (n: number): string => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number): string => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
};
const addDays = (d: string, n: number): string => {
  const [y, m, day] = d.split('-').map(Number) as [number, number, number];
  return iso(y, m, day + n);
};
const MONTH_LABEL = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ORDINAL: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4 };
const DATE_PREPOSITIONS = new Set(['in', 'during', 'of', 'for', 'since', 'until', 'till', 'before', 'after', 'from', 'between', 'through', 'to', 'and', 'on']);

function yearAt(tokens: readonly Token[], i: number): number | undefined {
  const t = tokens[i];
  return t?.kind === 'number' && t.yearLike ? t.value : undefined;
}

function monthAtom(at: number, end: number, month: number, year: number | undefined): Atom {
  if (year === undefined) {
    return { at, end, from: '', to: '', label: MONTH_LABEL[month - 1] ?? String(month), part: { part: 'month', value: month } };
  }
  return { at, end, from: iso(year, month, 1), to: iso(year, month + 1, 1), label: `${MONTH_LABEL[month - 1]} ${year}` };
}

function quarterAtom(at: number, end: number, q: number, year: number | undefined): Atom {
  if (year === undefined) return { at, end, from: '', to: '', label: `Q${q}`, part: { part: 'quarter', value: q } };
  return { at, end, from: iso(year, q * 3 - 2, 1), to: iso(year, q * 3 + 1, 1), label: `Q${q} ${year}` };
}

/** A date written as a token: ISO, year-month, m/d/Y (d/m/Y when the first part exceeds 12) or d.m.Y. */
function dateToken(t: Token, at: number): Atom | undefined {
  const raw = t.raw;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(raw);
  if (m) {
    const d = iso(Number(m[1]), Number(m[2]), Number(m[3]));
    return { at, end: at + 1, from: d, to: addDays(d, 1), label: d };
  }
  m = /^(\d{4})-(\d{1,2})$/.exec(raw);
  if (m) return monthAtom(at, at + 1, Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})([/.])(\d{1,2})\2(\d{4})$/.exec(raw);
  if (m) {
    let a = Number(m[1]);
    let b = Number(m[3]);
    // Dots are day-first (European); slashes month-first unless that cannot be a date.
    if (m[2] === '.' || a > 12) [a, b] = [b, a];
    if (a < 1 || a > 12 || b < 1 || b > 31) return undefined;
    const d = iso(Number(m[4]), a, b);
    return { at, end: at + 1, from: d, to: addDays(d, 1), label: d };
  }
  return undefined;
}

/** Relative windows, anchored at the latest date in the data. */
function relativeAtom(tokens: readonly Token[], i: number, latest: string | undefined): Atom | undefined {
  if (latest === undefined) return undefined;
  const w = tokens[i]?.norm ?? '';
  const [ly, lm] = latest.slice(0, 10).split('-').map(Number) as [number, number];
  const lastDay = latest.slice(0, 10);
  const unitOf = (s: string | undefined): string | undefined => (s === undefined ? undefined : /^(day|week|month|quarter|year)s?$/.exec(s)?.[1]);
  if (w === 'last' || w === 'past' || w === 'previous' || w === 'recent') {
    const n = tokens[i + 1];
    const countGiven = n?.kind === 'number' && Number.isInteger(n.value) && !n.yearLike;
    const unit = unitOf(tokens[i + (countGiven ? 2 : 1)]?.norm);
    if (unit === undefined) return undefined;
    const end = i + (countGiven ? 3 : 2);
    const count = countGiven ? n.value ?? 1 : 1;
    const to = addDays(lastDay, 1);
    if (unit === 'day') return { at: i, end, from: addDays(lastDay, 1 - count), to, label: `the last ${count} days of data (to ${lastDay})` };
    if (unit === 'week') return { at: i, end, from: addDays(lastDay, 1 - 7 * count), to, label: `the last ${count} weeks of data (to ${lastDay})` };
    if (!countGiven && (w === 'last' || w === 'previous')) {
      // "last year" = the calendar year before the latest one in the data.
      if (unit === 'year') return { at: i, end, from: iso(ly - 1, 1, 1), to: iso(ly, 1, 1), label: `${ly - 1} (the year before the latest in the data)` };
      if (unit === 'month') return { at: i, end, from: iso(ly, lm - 1, 1), to: iso(ly, lm, 1), label: `${MONTH_LABEL[(lm + 10) % 12]} (the month before the latest in the data)` };
      if (unit === 'quarter') {
        const q = Math.floor((lm - 1) / 3);
        return { at: i, end, from: iso(ly, q * 3 - 2, 1), to: iso(ly, q * 3 + 1, 1), label: 'the quarter before the latest in the data' };
      }
    }
    // "last 3 months" = the 3 most recent calendar months, the latest month included.
    if (unit === 'month') return { at: i, end, from: iso(ly, lm - count + 1, 1), to, label: `the last ${count} months of data (to ${lastDay})` };
    if (unit === 'quarter') {
      const q = Math.floor((lm - 1) / 3) + 1;
      return { at: i, end, from: iso(ly, (q - count) * 3 + 1, 1), to, label: `the last ${count} quarters of data (to ${lastDay})` };
    }
    return { at: i, end, from: iso(ly - count + 1, 1, 1), to, label: `the last ${count} years of data (to ${lastDay})` };
  }
  if (w === 'this' || w === 'current' || w === 'latest' || (w === 'most' && tokens[i + 1]?.norm === 'recent')) {
    const off = w === 'most' ? 2 : 1;
    const unit = unitOf(tokens[i + off]?.norm);
    if (unit === 'year') return { at: i, end: i + off + 1, from: iso(ly, 1, 1), to: iso(ly + 1, 1, 1), label: `${ly} (the latest year in the data)` };
    if (unit === 'month') return { at: i, end: i + off + 1, from: iso(ly, lm, 1), to: iso(ly, lm + 1, 1), label: `${MONTH_LABEL[lm - 1]} ${ly} (the latest month in the data)` };
  }
  return undefined;
}

function atomAt(tokens: readonly Token[], i: number, latest: string | undefined, blocked: ReadonlySet<number>): Atom | undefined {
  const t = tokens[i];
  if (t === undefined || blocked.has(i)) return undefined;
  if (t.kind === 'date') return dateToken(t, i);
  const rel = relativeAtom(tokens, i, latest);
  if (rel !== undefined) return rel;
  if (t.kind === 'number' && t.yearLike) {
    const y = t.value ?? 0;
    const next = tokens[i + 1];
    // "the 1970s": a decade ("the 1900s" may also be the century).
    if (next?.kind === 'word' && next.norm === 's' && next.start === t.end && y % 10 === 0) {
      const atom: Atom = { at: i, end: i + 2, from: iso(y, 1, 1), to: iso(y + 10, 1, 1), label: `the ${y}s` };
      if (y % 100 === 0) atom.alsoCentury = { from: iso(y, 1, 1), to: iso(y + 100, 1, 1), label: `${y} to ${y + 99}` };
      return atom;
    }
    // "2008 Q4", "2008q4".
    const q = next?.kind === 'word' ? /^q([1-4])$/.exec(next.norm) : null;
    if (q) return quarterAtom(i, i + 2, Number(q[1]), y);
    return { at: i, end: i + 1, from: iso(y, 1, 1), to: iso(y + 1, 1, 1), label: String(t.value) };
  }
  // "14 Nov 1812": a day, a month name and a year.
  const dayNumber = (x: Token | undefined): number | undefined => (x?.kind === 'number' && !x.yearLike && x.unit === undefined && Number.isInteger(x.value) && (x.value ?? 0) >= 1 && (x.value ?? 0) <= 31 ? x.value : undefined);
  const dayFirst = dayNumber(t);
  const monthAfter = MONTHS[tokens[i + 1]?.norm ?? ''];
  if (dayFirst !== undefined && monthAfter !== undefined) {
    const y = yearAt(tokens, i + 2);
    if (y !== undefined) {
      const d = iso(y, monthAfter, dayFirst);
      return { at: i, end: i + 3, from: d, to: addDays(d, 1), label: d };
    }
  }
  // "1st quarter", "3rd quarter of 2024".
  if (t.kind === 'number' && t.ordinal === true && (t.value ?? 0) >= 1 && (t.value ?? 0) <= 4 && tokens[i + 1]?.stem === 'quarter') {
    const y = tokens[i + 2]?.norm === 'of' ? yearAt(tokens, i + 3) : yearAt(tokens, i + 2);
    return quarterAtom(i, i + 2 + (y === undefined ? 0 : tokens[i + 2]?.norm === 'of' ? 2 : 1), t.value ?? 1, y);
  }
  if (t.kind !== 'word') return undefined;
  const q = /^q([1-4])$/.exec(t.norm);
  if (q) {
    const y = yearAt(tokens, i + 1) ?? (tokens[i + 1]?.norm === 'of' ? yearAt(tokens, i + 2) : undefined);
    return quarterAtom(i, i + (y === undefined ? 1 : tokens[i + 1]?.norm === 'of' ? 3 : 2), Number(q[1]), y);
  }
  const h = /^h([12])$/.exec(t.norm);
  if (h) {
    const y = yearAt(tokens, i + 1);
    if (y === undefined) return undefined;
    const half = Number(h[1]);
    return { at: i, end: i + 2, from: iso(y, half * 6 - 5, 1), to: iso(y, half * 6 + 1, 1), label: `H${half} ${y}` };
  }
  const ord = ORDINAL[t.norm];
  if (ord !== undefined && tokens[i + 1]?.stem === 'quarter') {
    const y = tokens[i + 2]?.norm === 'of' ? yearAt(tokens, i + 3) : yearAt(tokens, i + 2);
    const end = i + 2 + (y === undefined ? 0 : tokens[i + 2]?.norm === 'of' ? 2 : 1);
    return quarterAtom(i, end, ord, y);
  }
  const month = MONTHS[t.norm];
  // "Jun 12 1998", "June 12, 1998": a month name, a day and a year.
  const dayAfter = month !== undefined ? dayNumber(tokens[i + 1]) : undefined;
  if (month !== undefined && dayAfter !== undefined) {
    const y = yearAt(tokens, i + 2);
    if (y !== undefined) {
      const d = iso(y, month, dayAfter);
      return { at: i, end: i + 3, from: d, to: addDays(d, 1), label: d };
    }
  }
  if (month !== undefined) {
    const y = yearAt(tokens, i + 1) ?? (tokens[i + 1]?.norm === 'of' ? yearAt(tokens, i + 2) : undefined);
    const before = yearAt(tokens, i - 1);
    const prep = DATE_PREPOSITIONS.has(tokens[i - 1]?.norm ?? '');
    // "may" and "mar" are also ordinary words: only read as months next to a year or a preposition.
    if ((t.norm === 'may' || t.norm === 'mar') && y === undefined && !prep) return undefined;
    if (y !== undefined) return monthAtom(i, i + (tokens[i + 1]?.norm === 'of' ? 3 : 2), month, y);
    if (before !== undefined && !blocked.has(i - 1)) return undefined; // "2024 March" is read from the year
    return monthAtom(i, i + 1, month, undefined);
  }
  return undefined;
}

/**
 * Date expressions in token order. `blocked` are tokens already explained otherwise (a number after
 * "over" compared with a numeric column is not a year); `latest` anchors relative windows.
 */
export function findDateExprs(tokens: readonly Token[], latest: string | undefined, blocked: ReadonlySet<number> = new Set()): DateExpr[] {
  const atoms: Atom[] = [];
  for (let i = 0; i < tokens.length; i++) {
    // "2024 March": a year followed by a month name reads as that month.
    const t = tokens[i];
    const nextMonth = MONTHS[tokens[i + 1]?.norm ?? ''];
    if (t?.kind === 'number' && t.yearLike && !blocked.has(i) && nextMonth !== undefined && tokens[i + 1]?.norm !== 'may') {
      atoms.push(monthAtom(i, i + 2, nextMonth, t.value));
      i++;
      continue;
    }
    const a = atomAt(tokens, i, latest, blocked);
    if (a !== undefined) {
      atoms.push(a);
      i = a.end - 1;
    }
  }
  const out: DateExpr[] = [];
  for (let k = 0; k < atoms.length; k++) {
    const a = atoms[k] as Atom;
    const prev = tokens[a.at - 1]?.norm ?? '';
    const prev2 = tokens[a.at - 2]?.norm ?? '';
    const b = atoms[k + 1];
    const joiner = b !== undefined && b.at === a.end + 1 ? tokens[a.end]?.norm : undefined;
    // Ranges: "between A and B", "from A to B", "A to B", "A - B"; a range end without a year takes A's year.
    if (b !== undefined && (joiner === 'and' && prev === 'between' || joiner === 'to' || joiner === 'through' || joiner === 'until' || joiner === 'till')) {
      const [fa, fb] = completeParts(a, b);
      if (fa.from !== '' && fb.to !== '') {
        out.push({ at: a.at - (prev === 'between' || prev === 'from' ? 1 : 0), end: b.end, from: fa.from, to: fb.to, label: `${fa.label} to ${fb.label}` });
        k++;
        continue;
      }
    }
    const at = DATE_PREPOSITIONS.has(prev) ? a.at - 1 : a.at;
    if (a.part !== undefined) {
      out.push({ at, end: a.end, part: a.part, label: a.label });
      continue;
    }
    if (prev === 'since' || (prev === 'from' && joiner === undefined)) out.push({ at, end: a.end, from: a.from, label: `since ${a.label}` });
    else if (prev === 'after') out.push({ at, end: a.end, from: a.to, label: `after ${a.label}` });
    else if (prev === 'before') out.push({ at, end: a.end, to: a.from, label: `before ${a.label}` });
    else if (prev === 'until' || prev === 'till' || prev === 'through' || (prev === 'to' && prev2 === 'up')) out.push({ at, end: a.end, to: a.to, label: `up to ${a.label}` });
    else {
      const e: DateExpr = { at, end: a.end, from: a.from, to: a.to, label: a.label };
      if (a.alsoCentury !== undefined) e.alsoCentury = a.alsoCentury;
      out.push(e);
    }
  }
  return out;
}

/** "between March and June 2024": the year of one end completes the other. */
function completeParts(a: Atom, b: Atom): [Atom, Atom] {
  const yearOf = (x: Atom): number | undefined => (x.from !== '' ? Number(x.from.slice(0, 4)) : undefined);
  const fill = (x: Atom, y: number | undefined): Atom => {
    if (x.part === undefined || y === undefined) return x;
    return x.part.part === 'month' ? monthAtom(x.at, x.end, x.part.value, y) : quarterAtom(x.at, x.end, x.part.value, y);
  };
  return [fill(a, yearOf(b)), fill(b, yearOf(a))];
}
