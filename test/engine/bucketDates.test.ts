/**
 * "monthly trend of cases by onset date" (issue 22, probe I): the date named after "by" is the
 * date the months are of, not a second grouping by day (which gave 127 day rows and no monthly
 * counts); "weekly cases by test date" buckets the other date.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const CASES = ['id,county,onset_date,test_date'];
for (let i = 0; i < 90; i++) {
  const onset = new Date(Date.UTC(2004, 4 + (i % 4), 1 + ((i * 7) % 27)));
  const test = new Date(onset.getTime() + (3 + (i % 10)) * 86_400_000);
  CASES.push(`${i},${['Kern', 'Fresno', 'Orange'][i % 3]},${onset.toISOString().slice(0, 10)},${test.toISOString().slice(0, 10)}`);
}

describe('a date named after "by" is the date of the time buckets', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'cases.csv': CASES.join('\n') });
  });
  after(async () => rig?.close());

  it('counts by month of the onset date only', async () => {
    const a = await rig.ask('monthly trend of cases by onset date', ['cases.csv']);
    const t = a.tables[0] ?? [];
    assert.equal(t.length - 1, 4, JSON.stringify(t));
    assert.equal(Number(t.find((r) => (r[0] ?? '').startsWith('2004-05'))?.[1]), 23, JSON.stringify(t));
  });

  it('buckets the other date when it is the one named', async () => {
    const a = await rig.ask('weekly cases by test date', ['cases.csv']);
    assert.match(a.steps[0]?.name ?? '', /week of `test_date`$/, a.steps[0]?.name);
  });
});
