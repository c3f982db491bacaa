/**
 * Issue 24: the answer's prose says numbers as the table shows them: amounts with thousands
 * separators and the column's decimals ("10,060.30", not "10,060.3"), years and ids as written
 * ("2023", not "2,023").
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const ORDERS = ['order_id,year,region,revenue'];
for (let i = 0; i < 40; i++) ORDERS.push(`${1000 + i},${2023 + (i % 2)},${['Europe', 'Asia', 'Africa'][i % 3]},${i === 0 ? '250128000.68' : i === 3 ? '206.3' : '10.00'}`);

describe('numbers in prose follow the table (issue 24)', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'orders.csv': ORDERS.join('\n') });
  });
  after(async () => rig?.close());

  it('keeps the column\'s decimals and groups thousands', async () => {
    const a = await rig.ask('total revenue by region', ['orders.csv']);
    const europe = a.tables[0]?.find((r) => r[0] === 'Europe');
    assert.equal(europe?.[1], '250128326.98', 'the table holds the exact total');
    assert.match(a.message, /\*\*Europe\*\* has the highest total `revenue` \(250,128,326\.98\)/, a.message);
    assert.match(a.message, /- Africa: 130\.00\n/, a.message);
  });

  it('says years and ids as written, never as amounts', async () => {
    const first = await rig.ask('earliest year', ['orders.csv']);
    assert.match(first.message, /\*\*2023\*\*/, first.message);
    assert.doesNotMatch(first.message, /2,023/);
    const id = await rig.ask('max order_id', ['orders.csv']);
    assert.match(id.message, /\*\*1039\*\*/, id.message);
  });
});
