/**
 * When a question reads several ways: run the close readings and keep only those whose result
 * differs from the best one's (two readings with the same numbers are the same answer), and when
 * any differ, ask instead of answering, offering each reading as a question that is answered
 * exactly that way.
 */
import { md } from './describe';
import type { Executor } from './executor';
import type { Reading, ReadingOption } from './readings';
import { readingSentence } from './readingLine';
import { canonicalQuestion, rephrase } from './rephrase';
import { buildQuery } from './sqlBuilder';
import type { Plan } from './types';

/** At most this many readings are run to compare. */
const MAX_PROBES = 4;
const PROBE_ROWS = 2000;

/**
 * The numbers of a result, in order: two readings that group by equivalent labels (a name and its
 * code, a `year` column and the year of a date) give the same numbers and so the same answer.
 */
function comparable(rows: readonly unknown[][]): string {
  return JSON.stringify(rows.map((r) => r.filter((v) => typeof v === 'number').map((v) => Number((v as number).toPrecision(10)))).sort());
}

async function resultOf(plan: Plan, ex: Executor): Promise<string | undefined> {
  if (plan.kind !== 'aggregate' && plan.kind !== 'rows') return undefined;
  const q = buildQuery(plan);
  const r = await ex.run(q.tables, q.main, PROBE_ROWS);
  // Groups are compared by their numbers only: the labels may be spelled two ways (1 and Monday).
  const skip = plan.kind === 'aggregate' ? plan.dims.length : 0;
  return comparable(r.rows.map((row) => row.slice(skip)));
}

/** The rivals whose result differs from the best reading's (a reading that fails to run is dropped). */
export async function differingRivals(best: Reading, rivals: readonly Reading[], ex: Executor): Promise<Reading[]> {
  const mine = await resultOf(best.plan, ex).catch(() => undefined);
  const out: Reading[] = [];
  for (const r of rivals.slice(0, MAX_PROBES - 1)) {
    const theirs = await resultOf(r.plan, ex).catch(() => 'failed');
    if (theirs === 'failed') continue;
    if (mine === undefined || theirs === undefined || theirs !== mine) out.push(r);
  }
  ex.reset();
  return out;
}

/** Each reading as an option the user can click; readings that cannot be spelled out are left out. */
export function optionsFor(question: string, readings: readonly Reading[]): ReadingOption[] {
  const out: ReadingOption[] = [];
  for (const r of readings) {
    const q = rephrase(question, r) ?? canonicalQuestion(r.plan);
    if (q === undefined || q.trim() === question.trim() || out.some((o) => o.question === q)) continue;
    out.push({ question: q, label: readingSentence(r.plan) });
  }
  return out;
}

/** The answer that asks: the readings, in words, and what to click. */
export function askMessage(reason: string, options: readonly ReadingOption[]): string {
  const lines = [`I can read this question in more than one way, and the answers differ: ${md(reason)}. I won't pick one for you.`, ''];
  options.forEach((o, i) => lines.push(`${i + 1}. ${o.label}`));
  lines.push('', options.length > 0 ? 'Choose the one you mean below, or rephrase the question.' : 'Rephrase the question to say which one you mean.');
  return lines.join('\n');
}
