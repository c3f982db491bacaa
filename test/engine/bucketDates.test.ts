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
    const days = ['day,name'];
    for (const y of [2020, 2021, 2022]) for (const [m, d] of [[1, 1], [5, 1], [10, 1], [10, 2], [10, 3], [12, 25]]) days.push(`${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')},h${m}`);
    days.push('2022-05-02,extra', '2022-05-03,extra', '2022-05-04,extra', '2022-05-05,extra');
    rig = await startRig({ 'cases.csv': CASES.join('\n'), 'holidays.csv': days.join('\n') });
  });
  after(async () => rig?.close());

  it('counts by month of the onset date only', async () => {
    const a = await rig.ask('monthly trend of cases by onset date', ['cases.csv']);
    const t = a.tables[0] ?? [];
    assert.equal(t.length - 1, 4, JSON.stringify(t));
    assert.equal(Number(t.find((r) => (r[0] ?? '').startsWith('2004-05'))?.[1]), 23, JSON.stringify(t));
  });

  it('asks whether "which month" over several years means a month of one year or of any year', async () => {
    // May 2022 has the most days of any one month (5); October has the most of any year (9).
    const a = await rig.ask('which month has the most holidays', ['holidays.csv']);
    assert.match(a.message, /more than one way/, a.message);
    assert.match(a.message, /month of year of `day`/, a.message);
    const b = await rig.ask('which month of the year has the most holidays', ['holidays.csv']);
    assert.match(b.message, /\*\*October\*\*|\*\*10\*\*/, b.message);
  });

  it('buckets the other date when it is the one named', async () => {
    const a = await rig.ask('weekly cases by test date', ['cases.csv']);
    assert.match(a.steps[0]?.name ?? '', /week of `test_date`$/, a.steps[0]?.name);
  });
});
