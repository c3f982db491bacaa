/**
 * Calendar dates written in a question ("18 Oct 1812", "March 2024", "03/15/2024", "june",
 * "mondays"), found by chrono-node and tied to the tokens they cover. Years alone, quarters,
 * decades and ranges are the grammar's: chrono reads a bare "2024" as a time of day.
 */
import * as chrono from 'chrono-node';
import type { Tok } from '../language/tokens';

export interface DateLit {
  year?: number;
  month?: number;
  day?: number;
  /** ISO day of the week (1 = Monday). */
  weekday?: number;
  weekend?: boolean;
}

const REFERENCE = new Date(Date.UTC(2000, 0, 1, 12));

function literal(r: chrono.ParsedComponents): DateLit | undefined {
  const known = (c: chrono.Component): number | undefined => (r.isCertain(c) ? r.get(c) ?? undefined : undefined);
  const out: DateLit = {};
  const y = known('year');
  const m = known('month');
  const d = known('day');
  const w = known('weekday');
  if (y !== undefined) out.year = y;
  if (m !== undefined) out.month = m;
  if (d !== undefined) out.day = d;
  if (w !== undefined && m === undefined && d === undefined) out.weekday = w === 0 ? 7 : w;
  // A time of day alone ("at 5") or a bare year ("2024") is not a date literal.
  if (out.month === undefined && out.weekday === undefined) return undefined;
  return out;
}

/** Tokens from the first covering `from` to the last ending by `to` (chrono's text may start with "on "). */
function tokenSpan(tokens: readonly Tok[], from: number, to: number): [number, number] | undefined {
  const inside = tokens.filter((t) => t.start >= from && t.end <= to && !/^(on|in|at|of|the|during|for)$/.test(t.norm));
  if (inside.length === 0) return undefined;
  return [(inside[0] as Tok).i, (inside[inside.length - 1] as Tok).i + 1];
}

/** Date literals of a question by the token span they cover (`from:to`). */
export function dateLiterals(question: string, tokens: readonly Tok[]): Map<string, DateLit> {
  const out = new Map<string, DateLit>();
  const put = (from: number, to: number, lit: DateLit | undefined): void => {
    const s = tokenSpan(tokens, from, to);
    if (s !== undefined && lit !== undefined) out.set(`${s[0]}:${s[1]}`, lit);
  };
  for (const r of chrono.en.parse(question, REFERENCE)) {
    // "weekday" and "weekdays" are a grouping or a condition, not a day.
    if (/^(on\s+)?week(day|days|end|ends)$/i.test(r.text.trim())) continue;
    // "in one day", "now": relative words name no calendar date of the data.
    if (!/\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun/i.test(r.text)) continue;
    // "the last 30 days", "3 weeks ago": counted from chrono's reference, not from the data; the grammar reads them.
    if (/\b(ago|last|past|next|previous|days?|weeks?|months?|years?|today|yesterday|tomorrow)\b/i.test(r.text)) continue;
    if (r.end === undefined || r.end === null) {
      put(r.index, r.index + r.text.length, literal(r.start));
      continue;
    }
    // "jan 2020 to mar 2020": each end is a literal of its own; the grammar reads the range.
    const m = /\s+(to|through|until|till|-|–)\s+/i.exec(r.text);
    if (m === null) continue;
    put(r.index, r.index + m.index, literal(r.start));
    put(r.index + m.index + m[0].length, r.index + r.text.length, literal(r.end));
  }
  // "on weekends": chrono has no weekend.
  tokens.forEach((t) => {
    if (/^(weekend|weekends)$/.test(t.norm)) out.set(`${t.i}:${t.i + 1}`, { weekend: true });
  });
  return out;
}
