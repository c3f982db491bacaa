/**
 * When a question reads several ways: the close readings are run, and only those whose result
 * differs from the best one's count (two readings with the same numbers are the same answer).
 * When any differ, the engine asks instead of answering, offering each reading as a question the
 * grammar's writer spelled, which is answered exactly that way.
 */
import type { Executor } from './executor';
import type { Reading } from './reader';
import { readingSentence } from './readingLine';
import { buildQuery } from './sqlBuilder';
import type { Plan, TableMeta } from './types';
import { writePlan } from './writer';

/** At most this many readings are run to compare. */
const MAX_PROBES = 4;
const PROBE_ROWS = 2000;

export interface ReadingOption {
  question: string;
  label: string;
}

/** The numbers of a result, in order: two readings that group by equivalent labels give the same numbers. */
function comparable(rows: readonly unknown[][]): string {
  return JSON.stringify(rows.map((r) => r.filter((v) => typeof v === 'number').map((v) => Number((v as number).toPrecision(10)))).sort());
}

async function resultOf(plan: Plan, ex: Executor): Promise<string | undefined> {
  if (plan.kind !== 'aggregate' && plan.kind !== 'rows') return undefined;
  const q = buildQuery(plan);
  const r = await ex.run(q.tables, q.main, PROBE_ROWS);
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

/** Each reading as an option to click; readings the writer has no words for, or that read alike, are left out. */
export function optionsFor(question: string, readings: readonly Reading[], among: readonly TableMeta[] = []): ReadingOption[] {
  const out: ReadingOption[] = [];
  for (const r of readings) {
    const q = writePlan(r.plan, among);
    if (q === undefined || q.trim() === question.trim() || out.some((o) => o.question === q)) continue;
    out.push({ question: q, label: readingSentence(r.plan, among) });
  }
  return out;
}

/** The answer that asks: the readings, in words, and what to click. */
export function askMessage(options: readonly ReadingOption[]): string {
  const lines = ['I can read this question in more than one way, and the answers differ. I won\'t pick one for you:', ''];
  options.forEach((o, i) => lines.push(`${i + 1}. ${o.label}`));
  lines.push('', 'Choose the one you mean below, or rephrase the question.');
  return lines.join('\n');
}
