/**
 * Failure classes from a probe on real public tables (R and scikit-learn exports, daily and weekly
 * series): each gave a confident figure for a question it had not read whole.
 * - a number column written with many `NA` (a quarter of its rows) was read as text, so "top days
 *   by level" counted rows per value and called `NA` the most common one;
 * - "the most common value" of a number column is the value seen most often, not the largest, and
 *   never "missing";
 * - "average weight per breed" with no breed column answered one overall average ("breed" was taken
 *   for the rows), as did "per dog type" in dogs.csv ("type" was filler); "on weekends" and "on
 *   christmas day" were dropped, answering for every day;
 * - "at the start of 2019", "early 2019" answered for the whole year, and "on weekdays" broke the
 *   answer down by day of the week instead of keeping Monday to Friday;
 * - "average weekly change" averaged the values, not their changes;
 * - "max price and when" dropped the "when";
 * - "average level in may" with no date column (a `month` column of numbers) answered for all months.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

/** Daily readings; `level` is missing (NA) on every fourth day. */
function readings(): string {
  const lines = ['"level","wind","month","day"'];
  for (let i = 0; i < 120; i++) {
    const level = i % 4 === 0 ? 'NA' : String(10 + ((i * 7) % 23) + (i === 50 ? 100 : 0));
    lines.push(`${level},${(5 + (i % 9) * 1.5).toFixed(1)},${5 + Math.floor(i / 30)},${1 + (i % 30)}`);
  }
  return lines.join('\n');
}

/** Weekly prices over two years. */
function prices(): string {
  const lines = ['date,price,volume'];
  const start = Date.UTC(2018, 0, 1);
  for (let w = 0; w < 104; w++) {
    const d = new Date(start + w * 7 * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${d},${(100 + w + (w === 70 ? 60 : 0)).toFixed(2)},${1000 + (w % 5) * 10}`);
  }
  return lines.join('\n');
}

const DOGS = ['name,sex,weight,height', 'Rex,male,30,60', 'Bella,female,22,52', 'Max,male,34,63', 'Luna,female,20,50', 'Bo,male,28,58'].join('\n');

describe('words a reading must not drop (failure classes from a probe on real public tables)', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'readings.csv': readings(), 'prices.csv': prices(), 'dogs.csv': DOGS });
  });
  after(async () => rig?.close());

  it('reads a number column with many NA as numbers with gaps', async () => {
    const top = await rig.ask('top 3 days by level', ['readings.csv']);
    const rows = top.tables[0] ?? [];
    assert.equal(rows[1]?.[0], '115', top.message);
    assert.equal(rows[2]?.[0], '32', 'then the next highest reading, not a count of rows per value');
    const max = await rig.ask('max level', ['readings.csv']);
    assert.match(max.message, /\*\*115\*\*/);
    const mean = await rig.ask('average level by month', ['readings.csv']);
    assert.doesNotMatch(mean.message, /can't answer/, mean.message);
  });

  it('answers "the most common value" of a number column with the value seen most often, never "missing"', async () => {
    const a = await rig.ask('most common level value', ['readings.csv']);
    const rows = a.tables[0] ?? [];
    assert.notEqual(rows[1]?.[0], '', a.message);
    assert.doesNotMatch(a.message, /missing\)\*\* has/);
    // Each level value from 10 to 32 recurs; the answer is one of those, not the largest (115).
    assert.ok(Number(rows[1]?.[0]) <= 32, a.message);
    assert.ok(Number(rows[1]?.[1]) >= 3, a.message);
  });

  it('refuses a grouping or a condition it cannot place instead of answering for every row', async () => {
    for (const q of ['average weight per breed', 'mean height per coat colour', 'mean height per dog type', 'average weight per kind']) {
      const a = await rig.ask(q, ['dogs.csv']);
      assert.match(a.message, /can't answer/, `${q}: ${a.message}`);
    }
    const bySex = await rig.ask('average weight per gender', ['dogs.csv']);
    assert.match(bySex.message, /30\.67/, bySex.message);
    for (const q of ['average price on weekends', 'average price on weekdays', 'total volume on christmas day 2018', 'price at the start of 2019', 'average price in early 2019']) {
      const a = await rig.ask(q, ['prices.csv']);
      assert.match(a.message, /can't answer/, `${q}: ${a.message}`);
    }
    const year = await rig.ask('average price in 2019', ['prices.csv']);
    assert.doesNotMatch(year.message, /can't answer/);
  });

  it('refuses a figure of changes it does not compute, and answers "max and when" with the date', async () => {
    for (const q of ['average weekly change in price', 'biggest weekly drop in price', 'which year had the biggest increase in price']) {
      const a = await rig.ask(q, ['prices.csv']);
      assert.match(a.message, /can't answer/, `${q}: ${a.message}`);
    }
    const when = await rig.ask('max price and when', ['prices.csv']);
    const rows = when.tables[0] ?? [];
    assert.equal(rows[1]?.[0], '2019-05-06', when.message);
    assert.equal(Number(rows[1]?.[1]), 230);
  });

  it('puts a month name on a column of month numbers, and refuses a date nothing can filter on', async () => {
    const june: number[] = [];
    for (let i = 30; i < 60; i++) if (i % 4 !== 0) june.push(10 + ((i * 7) % 23) + (i === 50 ? 100 : 0));
    const mean = june.reduce((a, b) => a + b, 0) / june.length;
    const a = await rig.ask('average level in june', ['readings.csv']);
    assert.match(a.message, new RegExp(mean.toFixed(2).replace('.', '\\.')), a.message);
    const b = await rig.ask('average weight in may', ['dogs.csv']);
    assert.match(b.message, /can't answer/, b.message);
    // "in month 6" is a condition, not an amount that days' totals are compared with.
    const c = await rig.ask('how many days in month 6', ['readings.csv']);
    assert.match(c.message, /\*\*30\*\*/, c.message);
  });
});
