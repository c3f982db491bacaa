/**
 * The document-question suite: real documents (PDF, Markdown, plain text, Word, PowerPoint; see
 * sources.ts) fetched from Debian's and npm's packages, questions typed the way people ask them,
 * answered by the real local engine (real ingestion, real retrieval). A question is right when
 * a passage the answer quotes (at most three) contains the document's answer; the share whose
 * first passage holds it is printed too. Targets: 90% and 85%.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRig, type EngineRig } from '../engineHarness';
import { DOC_CASES } from './casesDocs';
import { fetchRealDocuments } from './fetch';
import { REAL_DOCUMENTS } from './sources';

/** Share of questions whose quoted passages (what the user reads) hold the answer. */
const TARGET = 0.9;
/** Share whose first quoted passage holds it: the one the answer calls most relevant. */
const FIRST_TARGET = 0.85;

/** Text as a reader sees it: Markdown escapes, bold, code ticks and spacing gone, lower case. */
export function plain(text: string): string {
  return text.replace(/\\(.)/g, '$1').replace(/\*\*|`/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The quoted passages of an answer's message, in order. */
export function quotedPassages(message: string): string[] {
  const out: string[] = [];
  let cur: string[] | undefined;
  for (const line of message.split('\n')) {
    if (line.startsWith('>')) (cur ??= []).push(line.replace(/^>\s?/, ''));
    else if (cur) {
      out.push(cur.join('\n'));
      cur = undefined;
    }
  }
  if (cur) out.push(cur.join('\n'));
  return out;
}

describe('document questions on real documents (quoted passage holds the answer)', function () {
  this.timeout(300_000);
  let rig: EngineRig | undefined;

  before(async function () {
    let dir: string;
    try {
      dir = await fetchRealDocuments();
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      // CI must have the documents; elsewhere (no package access) say why and skip.
      if (process.env['CI'] === 'true') throw err;
      process.stdout.write(`      SKIPPED: the real documents could not be fetched (${why})\n`);
      this.skip();
    }
    const contents: Record<string, Buffer> = {};
    for (const d of REAL_DOCUMENTS) contents[d.file] = readFileSync(join(dir, d.file));
    rig = await startRig(contents);
  });
  after(async () => rig?.close());

  it(`quotes a passage holding the answer for at least ${TARGET * 100}% of the questions`, async () => {
    const r = rig as EngineRig;
    const texts = new Map<string, string>();
    for (const [file, s] of r.sources) texts.set(file, plain((await r.store.readText(s.source.id)) ?? ''));
    const missing = DOC_CASES.filter((c) => !(texts.get(c.file) ?? '').includes(plain(c.answer)));
    assert.deepEqual(missing.map((c) => `${c.file}: ${c.answer}`), [], 'every expected answer is text of its document');

    let first = 0;
    let anyQuoted = 0;
    const misses: string[] = [];
    for (const c of DOC_CASES) {
      const a = await r.ask(c.q, [c.file]);
      const quotes = quotedPassages(a.message).map(plain);
      const want = plain(c.answer);
      if (quotes[0]?.includes(want)) first++;
      else misses.push(`MISS ${c.file}: ${c.q} -> ${(quotes[0] ?? a.message).slice(0, 140)}`);
      if (quotes.some((q) => q.includes(want))) anyQuoted++;
    }
    const n = DOC_CASES.length;
    const pct = (k: number): string => ((k / n) * 100).toFixed(1);
    const files = new Set(DOC_CASES.map((c) => c.file));
    const out = (s: string): boolean => process.stdout.write(`      ${s}\n`);
    out(`document suite: ${anyQuoted}/${n} quoted passage contains the answer (${pct(anyQuoted)}%; the first quoted passage: ${first}/${n}, ${pct(first)}%) over ${files.size} documents; targets >= ${TARGET * 100}% and >= ${FIRST_TARGET * 100}%`);
    for (const m of misses) out(m);

    assert.ok(n >= 40, `the suite needs at least 40 questions, has ${n}`);
    const kinds = new Set([...files].map((f) => f.replace(/^.*\./, '')));
    for (const k of ['md', 'pdf', 'docx', 'pptx']) assert.ok(kinds.has(k), `the suite needs a .${k} document`);
    assert.ok(anyQuoted / n >= TARGET, `${pct(anyQuoted)}% is below ${TARGET * 100}%`);
    assert.ok(first / n >= FIRST_TARGET, `first passage: ${pct(first)}% is below ${FIRST_TARGET * 100}%`);
  });
});
