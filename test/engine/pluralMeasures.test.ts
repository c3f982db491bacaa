/**
 * A plural column name is no count of rows by itself (issue 22, probe I: "how many applicants have
 * bad credit status" answered the total of `Expenses`, taken for a column of counts because its
 * name is a plural noun of acts, although `Income`, `Debt` and `Price` beside it are measures of
 * many values, not keys of counted groups). A table of counts (`deaths` beside an age band and a
 * sex) still adds them up.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const CREDIT = ['Status,Marital,Age,Expenses,Income,Debt,Price'];
let bad = 0;
for (let i = 0; i < 300; i++) {
  const status = i % 3 === 0 ? 'bad' : 'good';
  if (status === 'bad') bad++;
  CREDIT.push(`${status},${['married', 'single', 'widow'][i % 3]},${20 + (i % 45)},${35 + ((i * 13) % 140)},${60 + ((i * 31) % 120)},${(i * 17) % 100},${500 + ((i * 53) % 140) * 10}`);
}
const DEATHS = ['age_band,sex,deaths'];
let women = 0;
for (const band of ['0-14', '15-44', '45-64', '65+']) for (const sex of ['F', 'M']) {
  const n = band.length * 37 + (sex === 'F' ? 11 : 5);
  if (sex === 'F') women += n;
  DEATHS.push(`${band},${sex},${n}`);
}

describe('a plural column name alone is no count of rows', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'credit.csv': CREDIT.join('\n'), 'mortality.csv': DEATHS.join('\n') });
  });
  after(async () => rig?.close());

  it('counts applicants as rows beside measures of many values', async () => {
    const a = await rig.ask('how many applicants have bad credit status', ['credit.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${bad}\\*\\*`), a.message);
    const o = await rig.ask('overview', ['credit.csv']);
    assert.doesNotMatch(o.message, /says how many each row stands for/, o.message);
  });

  it('still adds up a column of counts in a table of counts', async () => {
    const a = await rig.ask('how many deaths among women', ['mortality.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${women}\\*\\*`), a.message);
  });
  it('finds the commonest value by its counts, not by its rows', async () => {
    // (Probe I: "most common method among women" counted rows of a table of counts.)
    const a = await rig.ask('most common age band among women', ['mortality.csv']);
    assert.match(a.steps[0]?.name ?? '', /total `deaths`/, a.steps[0]?.name);
    assert.match(a.message, /\*\*15-44\*\*|\*\*45-64\*\*/, a.message);
  });
});
