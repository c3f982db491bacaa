/**
 * The model's plan set against the engine's reading. Both found one: the same plan answers (both
 * readings agree), a plan with the same result answers, and different results are never chosen
 * between: both readings are offered. The engine could not place some words and the model could:
 * the model's plan answers, stated as the model's, with its word bindings offered for the
 * dataset's glossary so the engine learns them. Anything else (no reply, a refusal, a plan that
 * does not check) leaves the question to the engine, and the answer says why.
 */
import { md } from '../engine/describe';
import type { AnswerWriter } from '../engine/answerWriter';
import { differingRivals, optionsFor } from '../engine/ambiguity';
import type { Executor } from '../engine/executor';
import { planKey, type Decision, type Reading } from '../engine/reader';
import { readingSentence } from '../engine/readingLine';
import type { TableMeta } from '../engine/types';
import { writePlan } from '../engine/writer';
import type { ModelBinding } from './planSchema';
import type { Consultation } from './consult';

export type Verdict =
  /** Answer this reading; `by` says whose it is, `note` closes the message, `offers` lead the chips. */
  | { kind: 'answer'; reading: Reading; by: 'both' | 'model' | 'engine'; note?: string; offers: string[] }
  /** Answer with SQL the model wrote (no plan fits). */
  | { kind: 'sql'; sql: string }
  /** The readings differ: ask, with these options. */
  | { kind: 'ask'; message: string; options: string[] }
  /** Leave the question to the engine; `note` says why the model's reply was not used. */
  | { kind: 'engine'; note?: string };

/** A reading the engine wrote itself (a chip, an option) is answered as written, without the model. */
export function engineWrote(d: Decision, asked: string, tables: readonly TableMeta[]): boolean {
  return d.kind === 'answer' && writePlan(d.reading.plan, tables) === asked.trim();
}

/** Plan kinds the model's schema has a form for; the engine's other kinds are its own. */
export function modelCanPlan(d: Decision): boolean {
  return d.kind !== 'answer' || d.reading.plan.kind === 'aggregate' || d.reading.plan.kind === 'rows';
}

const quote = (s: string): string => `"${s.replace(/"/g, "'")}"`;
const tick = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

/** The model's word bindings as definitions to click: only words of the question, and only those the engine could not place. */
export function glossaryOffers(bindings: readonly ModelBinding[], question: string, unknown: readonly string[], tables: readonly TableMeta[]): string[] {
  const folded = question.toLowerCase();
  const open = unknown.map((u) => u.toLowerCase());
  const out: string[] = [];
  for (const b of bindings) {
    const word = b.word.trim().replace(/\s+/g, ' ');
    if (word === '' || !folded.includes(word.toLowerCase())) continue;
    if (open.length > 0 && !open.some((u) => u.includes(word.toLowerCase()) || word.toLowerCase().includes(u))) continue;
    const column = tables.flatMap((t) => t.columns).find((c) => c.name === b.column);
    if (column === undefined) continue;
    const value = b.value !== undefined ? column.values?.find((v) => v.toLowerCase() === b.value?.toLowerCase()) : undefined;
    if (b.value !== undefined && value === undefined) continue;
    const q = `${quote(word)} means ${value !== undefined ? quote(value) : tick(column.name)}`;
    if (!out.includes(q)) out.push(q);
  }
  return out.slice(0, 4);
}

export async function crossCheck(c: Consultation, d: Decision, label: string, asked: string, tables: TableMeta[], ex: Executor, writer: AnswerWriter): Promise<Verdict> {
  const who = md(label);
  switch (c.kind) {
    case 'failed':
      return { kind: 'engine', note: `_The model (${who}) did not answer (${md(c.why)}); this answer is the built-in engine's._` };
    case 'declined':
      return { kind: 'engine', note: `_The model (${who}) declined: ${md(c.why)}._` };
    case 'rejected':
      return { kind: 'engine', note: `_The model's plan was not used: ${md(c.why)}. This answer is the built-in engine's._` };
    case 'sql':
      if (d.kind === 'answer') return { kind: 'engine', note: `_The model (${who}) answered with its own SQL, which cannot be checked like a plan; this answer is the built-in engine's reading._` };
      return { kind: 'sql', sql: c.sql };
    case 'plan':
      break;
  }
  if (d.kind !== 'answer') {
    const unknown = d.kind === 'refuse' ? d.unknown : [];
    const offers = glossaryOffers(c.bindings, asked, unknown, tables);
    const unplaced = unknown.length > 0 ? `the built-in engine could not place ${unknown.map((u) => `"${md(u)}"`).join(', ')}` : 'the built-in engine could not read the question';
    const keep = offers.length > 0 ? ' Choose a meaning below to keep it in the dataset\'s glossary: the engine then understands it without the model.' : '';
    return { kind: 'answer', reading: c.reading, by: 'model', offers, note: `_Read by the model (${who}): ${unplaced}.${keep}_` };
  }
  const key = planKey(c.reading.plan);
  const all = [d.reading, ...d.rivals];
  const same = all.find((r) => planKey(r.plan) === key);
  if (same === d.reading) {
    writer.step(`Check the reading with ${label}: it reads the question the same way`).done();
    return { kind: 'answer', reading: d.reading, by: 'both', offers: [], note: `_The built-in engine and the model (${who}) read the question the same way._` };
  }
  if (same !== undefined) {
    writer.step(`Check the reading with ${label}: of the engine's ${all.length} readings, it chose this one`).done();
    return { kind: 'answer', reading: same, by: 'both', offers: [], note: `_The engine read the question ${all.length} ways; the model (${who}) chose this one._` };
  }
  const differ = await differingRivals(d.reading, [...d.rivals, c.reading], ex);
  if (differ.length === 0) {
    writer.step(`Check the reading with ${label}: it reads the question as "${readingSentence(c.reading.plan, tables)}", which gives the same result`).done();
    return { kind: 'answer', reading: d.reading, by: 'both', offers: [], note: `_The model (${who}) read the question another way, with the same result._` };
  }
  const options = optionsFor(asked, [d.reading, ...differ], tables);
  const modelSentence = writePlan(c.reading.plan, tables);
  if (options.length < 2) return { kind: 'answer', reading: d.reading, by: 'engine', offers: [] };
  writer.step(`Check the reading with ${label}: it reads the question differently, and the answers differ`).done();
  const lines = [`The built-in engine and the model (${who}) read this question differently, and the answers differ. I won't pick one for you:`, ''];
  options.forEach((o, i) => lines.push(`${i + 1}. ${o.label}${o.question === modelSentence ? ` (the model's reading)` : i === 0 ? ' (the engine\'s reading)' : ''}`));
  lines.push('', 'Choose the one you mean below, or rephrase the question.');
  return { kind: 'ask', message: lines.join('\n'), options: options.map((o) => o.question).slice(0, 4) };
}
