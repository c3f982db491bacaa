/**
 * Debugging aid: how the engine reads a question over real files (the decision, its canonical
 * sentence, rivals, or the words it could not place and the bindings it offers).
 * `npx tsx test/engine/realData/explainQuestion.ts autos.csv "how many cars have four doors"
 * [--history "earlier question"]`; the generated files of the accuracy suite (sales.csv,
 * people.csv, iot.csv, orders.csv, customers.csv, ventes.csv) work too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readQuestion } from '../../../src/server/engine/reader';
import { SchemaIndex } from '../../../src/server/engine/schemaIndex';
import { writePlan } from '../../../src/server/engine/writer';
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
    const d = readQuestion(question, history, tables);
    if (d.kind === 'answer') {
      console.log(`ANSWER (cost ${d.reading.cost.toFixed(2)}${d.reading.refined ? ', refined' : ''}): ${writePlan(d.reading.plan) ?? '(no sentence)'}`);
      for (const r of d.rivals) console.log(`   rival ${r.cost.toFixed(2)}: ${writePlan(r.plan) ?? '(no sentence)'}`);
    } else if (d.kind === 'refuse') {
      console.log(`REFUSE: ${d.reason}\n   unplaced: ${d.unknown.join(', ')}\n   bindings: ${d.bindings.map((b) => b.question).join(' ; ')}`);
    } else console.log(`DEFINE: ${JSON.stringify(d.entry)}`);
  } finally {
    await rig.close();
  }
}

void main();
