/**
 * Accuracy suite of the local engine: 5 generated datasets (sales; people with nulls and mixed
 * types; IoT time series; orders + customers joined by key; non-ASCII headers; dates in several
 * formats) and 100+ questions, each checked against an answer computed independently in TypeScript.
 * Prints the accuracy and every failure; asserts at least 90%. Every TABLE answer's shown SQL is
 * also run in a fresh DuckDB next to the original files and must reproduce the TABLE.
 */
import { strict as assert } from 'node:assert';
import { customersCsv, iotCsv, makeIot, makePeople, makeSales, makeShop, makeVentes, ordersCsv, peopleCsv, salesCsv, ventesCsv } from './datasets';
import { runShownSql, startRig, type Collected, type EngineRig } from './engineHarness';
import { check, type Case } from './expect';
import { iotCases } from './casesIot';
import { peopleCases } from './casesPeople';
import { salesCases } from './casesSales';
import { shopCases } from './casesShop';
import { ventesCases } from './casesVentes';

const TARGET = 0.9;

function norm(v: unknown): string {
  if (v === null || v === undefined || v === '') return '';
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) ? Number(n.toPrecision(10)).toString() : String(v);
}

/** Whether some statement of the shown SQL, run on the original files, gives exactly the TABLE. */
async function reproduces(a: Collected, filesDir: string): Promise<string | undefined> {
  const table = a.tables[a.tables.length - 1];
  const code = a.code[a.code.length - 1];
  if (!table || !code) return undefined;
  const [header, ...rows] = table as [string[], ...string[][]];
  const results = await runShownSql(code, filesDir);
  const match = results.find((r) => JSON.stringify(r.columns) === JSON.stringify(header));
  if (!match) return `no statement of the shown SQL returns the columns ${header.join(',')}`;
  const key = (rs: ReadonlyArray<readonly unknown[]>): string => rs.map((r) => r.map(norm).join('\u0001')).sort().join('\n');
  return key(match.rows) === key(rows) ? undefined : 'the shown SQL gives different rows than the TABLE';
}

describe('local engine accuracy suite', function () {
  this.timeout(180_000);
  let rig: EngineRig;
  let cases: Case[];

  before(async () => {
    const sales = makeSales();
    const people = makePeople();
    const iot = makeIot();
    const shop = makeShop();
    const ventes = makeVentes();
    rig = await startRig({
      'sales.csv': salesCsv(sales), 'people.csv': peopleCsv(people), 'iot.csv': iotCsv(iot), 'orders.csv': ordersCsv(shop.orders),
      'customers.csv': customersCsv(shop.customers), 'ventes.csv': ventesCsv(ventes),
    });
    cases = [...salesCases(sales), ...peopleCases(people), ...iotCases(iot), ...shopCases(shop.orders, shop.customers), ...ventesCases(ventes)];
  });
  after(async () => rig?.close());

  it(`answers at least ${TARGET * 100}% of the questions correctly, and the shown SQL reproduces every table`, async () => {
    assert.ok(cases.length >= 80, `the suite needs at least 80 questions, has ${cases.length}`);
    const failures: string[] = [];
    const irreproducible: string[] = [];
    let passed = 0;
    let reproducedChecks = 0;
    for (const c of cases) {
      let answer: Collected;
      try {
        answer = await rig.ask(c.q, c.files, c.history ? { history: c.history } : {});
      } catch (err) {
        failures.push(`${c.q}: threw ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      const problem = check(answer, c.expect);
      if (problem === undefined) passed++;
      else failures.push(`${c.history ? `[after "${c.history.join('" / "')}"] ` : ''}${c.q}: ${problem}`);
      if (answer.tables.length > 0 && answer.code.length > 0) {
        reproducedChecks++;
        const r = await reproduces(answer, rig.dir);
        if (r !== undefined) irreproducible.push(`${c.q}: ${r}`);
      }
    }
    const accuracy = passed / cases.length;
    process.stdout.write(`\n      accuracy: ${passed}/${cases.length} = ${(accuracy * 100).toFixed(1)}% (target ${TARGET * 100}%)\n`);
    process.stdout.write(`      shown SQL reproduced ${reproducedChecks - irreproducible.length}/${reproducedChecks} tables on the original files\n`);
    for (const f of failures) process.stdout.write(`      FAIL ${f}\n`);
    for (const f of irreproducible) process.stdout.write(`      NOT REPRODUCIBLE ${f}\n`);
    assert.ok(accuracy >= TARGET, `accuracy ${(accuracy * 100).toFixed(1)}% is below ${TARGET * 100}%`);
    assert.deepEqual(irreproducible, []);
  });
});
