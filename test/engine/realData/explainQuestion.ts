/**
 * Debugging aid: how the engine reads a question over real files (every reading, its plan, what it
 * explains and leaves out, and the decision). `npx tsx test/engine/realData/explainQuestion.ts
 * autos.csv "how many cars have four doors" [--history "earlier question"]`; the generated files of the
 * accuracy suite (sales.csv, people.csv, iot.csv, orders.csv, customers.csv, ventes.csv) work too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describePlan } from '../../../src/server/engine/describe';
import { readWithHistory } from '../../../src/server/engine/followUp';
import { buildMentionIndex } from '../../../src/server/engine/mentions';
import { readingsOf } from '../../../src/server/engine/readings';
import { parseQuestion } from '../../../src/server/engine/understand';
import { SchemaIndex } from '../../../src/server/engine/schemaIndex';
import { wordsAt } from '../../../src/server/engine/explain';
import { customersCsv, iotCsv, makeIot, makePeople, makeSales, makeShop, makeVentes, ordersCsv, peopleCsv, salesCsv, ventesCsv } from '../datasets';
import { startRig } from '../engineHarness';
import { fetchRealData } from './fetch';

/** The generated files of the accuracy suite, by name. */
function generatedFiles(): Record<string, string> {
  const shop = makeShop();
  return {
    'sales.csv': salesCsv(makeSales()), 'people.csv': peopleCsv(makePeople()), 'iot.csv': iotCsv(makeIot()), 'orders.csv': ordersCsv(shop.orders),
    'customers.csv': customersCsv(shop.customers), 'ventes.csv': ventesCsv(makeVentes()),
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const hi = args.indexOf('--history');
  const history = hi >= 0 ? args.splice(hi, 2).slice(1) : [];
  const question = args.pop() ?? '';
  const dir = await fetchRealData();
  const files: Record<string, Buffer | string> = {};
  const generated = generatedFiles();
  for (const f of args) files[f] = generated[f] ?? readFileSync(join(dir, f));
  const rig = await startRig(files);
  try {
    const schema = new SchemaIndex(async (sql) => (await rig.store.query(sql, [], { timeoutMs: 60_000, maxRows: 100_000 })).rows);
    const tables = await schema.tables([...rig.sources.values()].map((s) => ({ source: s.source, ingest: s.ingest })));
    const index = buildMentionIndex(tables);
    const base = parseQuestion(question, tables, index);
    console.log(`parse: ${base.spans.map((s) => `${s.kind}@${s.start}-${s.end}${s.kind === 'column' ? `=${s.cols.map((c) => c.column.name).join('|')}` : ''}`).join(' ')}  cues: ${base.cues.map((c) => `${c.kind}@${c.at}`).join(' ')}  dates: ${base.dates.map((d) => d.label).join(', ')}`);
    for (const r of readingsOf(question, tables, index)) {
      const p = r.parse;
      console.log(`${r.complete ? 'COMPLETE' : 'partial '} ${r.score.toFixed(2)}  ${describePlan(r.plan)}`);
      console.log(`   spans: ${p.spans.map((s) => `${s.kind}[${wordsAt(p, [...Array(s.end - s.start).keys()].map((k) => k + s.start)).join(' ')}]${s.kind === 'column' ? `=${s.cols.map((c) => c.column.name).join('|')}` : s.kind === 'value' ? `=${s.matches.slice(0, 3).map((m) => `${m.ref.column.name}:${m.value}`).join('|')}` : ''}`).join(' ')}`);
      console.log(`   cues: ${p.cues.map((c) => c.kind).join(' ')}  unused names: ${wordsAt(p, r.cover.unusedNames).join(' ')}  cues: ${wordsAt(p, r.cover.unusedCues).join(' ')}  unknown: ${wordsAt(p, r.cover.unknown).join(' ')}`);
    }
    const d = readWithHistory(question, history, tables, index);
    console.log(`DECISION ${d.kind}: ${d.kind === 'answer' ? describePlan(d.reading.plan) + (d.rivals.length ? ` (rivals: ${d.rivals.map((x) => describePlan(x.plan)).join(' / ')})` : '') : d.reason}`);
  } finally {
    await rig.close();
  }
}

void main();
