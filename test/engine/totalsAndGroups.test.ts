/**
 * Data shape decided once and used by every answer (issue 22, point 4):
 * - rows that hold the sum of the others ("Total", "All ages") are left out of sums, counts and
 *   rankings, and the answer says so; the overview says it before anyone asks;
 * - a top N shows part of the groups: the answer gives the real number of groups, not the rows shown;
 * - a column counted in thousands is compared with "20 million" in its own unit;
 * - rows with no value (empty, NA) never win a ranking of that column's values.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

// Cases per year and sex, with the totals the statistics office publishes beside them.
const CASES = ['year,sex,age_group,cases'];
for (const year of [2020, 2021]) {
  const rows: Array<[string, string, number]> = [['Female', '0-39', 30 + year - 2020], ['Female', '40+', 50], ['Male', '0-39', 20], ['Male', '40+', 45 + (year - 2020) * 10]];
  for (const [sex, age, n] of rows) CASES.push(`${year},${sex},${age},${n}`);
  for (const sex of ['Female', 'Male']) CASES.push(`${year},${sex},All ages,${rows.filter((r) => r[0] === sex).reduce((s, r) => s + r[2], 0)}`);
  CASES.push(`${year},Total,All ages,${rows.reduce((s, r) => s + r[2], 0)}`);
}

// Seven countries, one order each per day.
const ORDERS = ['order_id,country,revenue'];
['Chile', 'Peru', 'Spain', 'Italy', 'Japan', 'Kenya', 'Ghana'].forEach((c, i) => {
  for (let k = 0; k < 3; k++) ORDERS.push(`${i * 10 + k},${c},${(i + 1) * 100 + k}`);
});

// Five titles have no country: as a group they would outnumber the US.
const TITLES = JSON.stringify([['US', 1], ['', 2], ['UK', 3], ['', 4], ['US', 5], ['', 6], ['FR', 7]].map(([country, n]) => ({ name: `t${n}`, country })));
const CITIES = ['city,pop_thousands', 'Tokyo,37400', 'Delhi,28514', 'Lima,10391', 'Oslo,1000'];

describe('total rows and the real number of groups', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'cases.csv': CASES.join('\n'), 'orders.csv': ORDERS.join('\n'), 'cities.csv': CITIES.join('\n'), 'titles.json': TITLES });
  });
  after(async () => rig?.close());

  it('never ranks a "Total" row first: which sex has the most cases', async () => {
    const a = await rig.ask('which sex has the most cases', ['cases.csv']);
    // Female: 31 + 50 + 30 + 50 = 161; Male: 20 + 45 + 20 + 55 = 140 (over the age groups only).
    assert.match(a.message, /\*\*Female\*\*/, a.message);
    assert.match(a.message, /161/, a.message);
    assert.doesNotMatch(a.message, /\*\*Total\*\*/, a.message);
    assert.match(a.message, /left out/, a.message);
  });

  it('adds up the cases once, not with their totals again', async () => {
    const a = await rig.ask('total cases in 2021', ['cases.csv']);
    // 31 + 50 + 20 + 55 = 156 (the file's rows add up to four times that).
    assert.match(a.message, /\*\*156\*\*/, a.message);
    assert.ok(a.code.join('\n').includes('IS DISTINCT FROM'), a.code.join('\n'));
  });

  it('keeps the total rows when the question asks for them', async () => {
    // The "All ages" rows are asked for; the "Total" rows beside them are still left out (80 + 65).
    const a = await rig.ask('cases where age group is All ages in 2020', ['cases.csv']);
    assert.match(a.message, /\*\*145\*\*/, a.message);
  });

  it('reads "total" as a sum, never as the "Total" rows', async () => {
    const a = await rig.ask('total cases by sex', ['cases.csv']);
    assert.match(a.message, /Female: 161/, a.message);
    assert.match(a.message, /Male: 140/, a.message);
  });

  it('says in the overview which rows are totals', async () => {
    const a = await rig.ask('describe this data', ['cases.csv']);
    assert.match(a.message, /"Total" rows hold the sum of the others/, a.message);
    assert.match(a.message, /"All ages" rows hold the sum of the others/, a.message);
  });

  it('gives the real number of groups under a top 3', async () => {
    const a = await rig.ask('top 3 countries by revenue', ['orders.csv']);
    assert.match(a.message, /\*\*Ghana\*\*/, a.message);
    assert.match(a.message, /7 groups in all/, a.message);
  });

  it('compares "20 million" with a column counted in thousands', async () => {
    const a = await rig.ask('cities with pop over 20 million', ['cities.csv']);
    assert.match(a.message, /`pop_thousands` > 20000/, a.message);
    assert.match(a.message, /\*\*2\*\* rows match/, a.message);
  });

  it('never lets the rows with no value win a ranking: "which country has the most titles"', async () => {
    const a = await rig.ask('which country has the most titles', ['titles.json']);
    assert.match(a.message, /\*\*US\*\*/, a.message);
    assert.match(a.message, /Rows with no `country` are left out of the ranking/, a.message);
  });
});
