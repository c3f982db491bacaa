/**
 * The grammar reads what the engine writes (issue 22, point 1): for every question of the accuracy
 * and real-data suites, over their own tables, every sentence the engine writes (the reading line
 * of the answer, of each rival reading it could offer, and every follow-up chip) is read back by
 * the same grammar into exactly the plan it was written from. Labels are presentation and are left
 * out of the comparison; everything else (tables, columns, aggregates, filters and their bounds,
 * groupings, order, limits) must be equal. Prints `round trip: N/N sentences`.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { planKey, readQuestion } from '../../src/server/engine/reader';
import { SchemaIndex } from '../../src/server/engine/schemaIndex';
import { suggestPlans } from '../../src/server/engine/suggestions';
import type { Plan, TableMeta } from '../../src/server/engine/types';
import { writePlan } from '../../src/server/engine/writer';
import { customersCsv, iotCsv, makeIot, makePeople, makeSales, makeShop, makeVentes, ordersCsv, peopleCsv, salesCsv, ventesCsv } from './datasets';
import { startRig } from './engineHarness';
import { iotCases } from './casesIot';
import { peopleCases } from './casesPeople';
import { salesCases } from './casesSales';
import { shopCases } from './casesShop';
import { ventesCases } from './casesVentes';
import { fetchRealData } from './realData/fetch';
import { RealFiles } from './realData/realFiles';
import { autosCases } from './realData/casesAutos';
import { peopleCases as realPeopleCases } from './realData/casesPeople';
import { seriesCases } from './realData/casesSeries';
import { stateCases } from './realData/casesStates';
import { validationACases } from './realData/casesValidationA';
import { validationBCases } from './realData/casesValidationB';

interface Asked { q: string; files: string[]; history?: string[] }

/** The tables of each file set, read as the engine reads them. */
async function tablesOf(files: Record<string, Buffer | string>): Promise<{ tables: Map<string, TableMeta>; close: () => Promise<void> }> {
  const rig = await startRig(files);
  const schema = new SchemaIndex(async (sql) => (await rig.store.query(sql, [], { timeoutMs: 60_000, maxRows: 100_000 })).rows);
  const metas = await schema.tables([...rig.sources.values()].map((s) => ({ source: s.source, ingest: s.ingest })));
  return { tables: new Map(metas.map((t) => [t.label, t])), close: () => rig.close() };
}

/** Every sentence written for the answers to `asked`, with the plan it stands for. */
function written(asked: readonly Asked[], tables: Map<string, TableMeta>): Array<{ sentence: string; plan: Plan; on: TableMeta[]; from: string }> {
  const out: Array<{ sentence: string; plan: Plan; on: TableMeta[]; from: string }> = [];
  const add = (plan: Plan, on: TableMeta[], from: string): void => {
    const sentence = writePlan(plan, on);
    if (sentence !== undefined) out.push({ sentence, plan, on, from });
  };
  const fresh = new Set<string>();
  for (const a of asked) {
    const on = a.files.map((f) => tables.get(f)).filter((t): t is TableMeta => t !== undefined);
    if (on.length !== a.files.length) continue;
    const key = a.files.join('+');
    if (!fresh.has(key)) {
      fresh.add(key);
      for (const s of suggestPlans(on)) add(s.plan, on, `chip for ${key}`);
    }
    const d = readQuestion(a.q, a.history ?? [], on);
    if (d.kind !== 'answer') continue;
    add(d.reading.plan, on, a.q);
    for (const r of d.rivals) add(r.plan, on, `rival of ${a.q}`);
    for (const s of suggestPlans(on, d.reading.plan)) add(s.plan, on, `chip after ${a.q}`);
  }
  return out;
}

function check(items: ReturnType<typeof written>): { ok: number; bad: string[] } {
  let ok = 0;
  const bad: string[] = [];
  const seen = new Set<string>();
  for (const it of items) {
    const id = `${it.on.map((t) => t.label).join('+')}|${it.sentence}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const d = readQuestion(it.sentence, [], it.on);
    if (d.kind === 'answer' && planKey(d.reading.plan) === planKey(it.plan)) ok++;
    else bad.push(`"${it.sentence}" (${it.from}) read back as ${d.kind === 'answer' ? `"${writePlan(d.reading.plan, it.on) ?? '?'}"` : `a ${d.kind}`}`);
  }
  return { ok, bad };
}

describe('the grammar reads every sentence the engine writes (round trip)', function () {
  this.timeout(600_000);

  it('reads back every reading line, rival and chip over the accuracy suite and the real-data suite, 100%', async () => {
    const sales = makeSales();
    const people = makePeople();
    const iot = makeIot();
    const shop = makeShop();
    const ventes = makeVentes();
    const gen = await tablesOf({
      'sales.csv': salesCsv(sales), 'people.csv': peopleCsv(people), 'iot.csv': iotCsv(iot), 'orders.csv': ordersCsv(shop.orders),
      'customers.csv': customersCsv(shop.customers), 'ventes.csv': ventesCsv(ventes),
    });
    const genCases: Asked[] = [...salesCases(sales), ...peopleCases(people), ...iotCases(iot), ...shopCases(shop.orders, shop.customers), ...ventesCases(ventes)];
    const a = check(written(genCases, gen.tables));
    await gen.close();

    const dir = await fetchRealData();
    const files = new RealFiles(dir);
    const realCases: Asked[] = [autosCases, realPeopleCases, seriesCases, stateCases, validationACases, validationBCases].flatMap((m) => m(files));
    const names = [...new Set(realCases.flatMap((c) => c.files))];
    const real = await tablesOf(Object.fromEntries(names.map((n) => [n, readFileSync(join(dir, n))])));
    const b = check(written(realCases, real.tables));
    await real.close();

    const ok = a.ok + b.ok;
    const bad = [...a.bad, ...b.bad];
    console.log(`      round trip: ${ok}/${ok + bad.length} sentences read back as the plan they were written from`);
    for (const x of bad.slice(0, 40)) console.log(`      NOT READ BACK ${x}`);
    assert.ok(ok > 300, `the round trip needs sentences to check, has ${ok}`);
    assert.deepEqual(bad, []);
  });
});
