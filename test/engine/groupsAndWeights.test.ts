/**
 * Failure classes of first-sight probe C, on synthetic tables:
 * - "which sport has the heaviest athletes" ranked sports by their heaviest athlete (plural: on average);
 * - "great britain vs germany" with nothing measured counted one row each;
 * - "China's share of all golds" over a whole-number `gold` column was taken as a column of percentages;
 * - "how many said always" dropped "always" (an adverb that is a survey answer) and counted rows of
 *   a table of counts whose group key (`subject` 1..n) kept its `freq` column from being the weight;
 * - "which day had the most new cases" ranked days by the average `AGE` ("new" meets age in WordNet);
 * - "sort by golds instead" after "top 3 countries by total medals" gave the grand total of golds.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

// Rowing: many athletes of 80 kg; Field: one of 120 kg and many of 60 kg.
const ATHLETES = ['sex,sport,Wt'];
for (let i = 0; i < 10; i++) ATHLETES.push(`${i % 2 === 0 ? 'female' : 'male'},Row,80`);
ATHLETES.push('male,Field,120');
for (let i = 0; i < 9; i++) ATHLETES.push(`${i % 2 === 0 ? 'female' : 'male'},Field,60`);

const MEDALS = ['ranking,country,gold,silver'];
['China,51,21', 'UnitedStates,36,38', 'Russia,23,21', 'GreatBritain,19,13', 'Germany,16,10', 'Australia,14,15'].forEach((r, i) => MEDALS.push(`${i + 1},${r}`));

const SURVEY = ['survey,freq,subject,response,start_date'];
for (let s = 1; s <= 12; s++) {
  for (const [k, answer] of ['Always', 'Sometimes', 'Never'].entries()) {
    SURVEY.push(`ms${s <= 6 ? 2015 : 2016},${s * 10 + k},${s},${answer},${s <= 6 ? '2015-09-01' : '2016-09-01'}`);
  }
}

const CASES = ['PRO,AGE,SEX'];
for (let i = 0; i < 30; i++) CASES.push(`1861-11-${String(1 + (i % 5)).padStart(2, '0')},${i % 5 === 4 ? 14 : 3},${i % 2 === 0 ? 'female' : 'male'}`);

describe('groups, pairs of rows and tables of counts read as asked', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'cases.csv': CASES.join('\n'), 'athletes.csv': ATHLETES.join('\n'), 'medals.csv': MEDALS.join('\n'), 'survey.csv': SURVEY.join('\n') });
  });
  after(async () => rig?.close());

  it('ranks groups by their average for an adjective said of plural rows, by their extreme for one row', async () => {
    const a = await rig.ask('which sport has the heaviest athletes', ['athletes.csv']);
    assert.match(a.message, /\*\*Row\*\*/, a.message);
    const b = await rig.ask('which sport has the heaviest athlete', ['athletes.csv']);
    assert.match(b.message, /\*\*Field\*\*/, b.message);
  });

  it('shows the two rows of "great britain vs germany" instead of counting one each', async () => {
    const a = await rig.ask('great britain vs germany', ['medals.csv']);
    assert.equal(a.tables[0]?.length, 3, JSON.stringify(a.tables[0]));
    assert.match(JSON.stringify(a.tables[0]), /19/);
  });

  it('takes a share of a whole-number column of counts ("share of all golds")', async () => {
    const a = await rig.ask("china's share of all golds", ['medals.csv']);
    assert.match(a.message, /32\.\d%/, a.message);
  });

  it('reads an adverb answer ("always") and adds up the counts of a table of counts', async () => {
    const a = await rig.ask('how many said always in 2016', ['survey.csv']);
    // Subjects 7..12 answered "Always" 70 + 80 + ... + 120 times in 2016.
    assert.match(a.message, /\*\*570\*\*/, a.message);
  });

  it('never reads an adjective before its noun ("new cases") as a column WordNet relates it to', async () => {
    const a = await rig.ask('which day had the most new cases', ['cases.csv']);
    assert.doesNotMatch(a.message + JSON.stringify(a.steps), /average `AGE`/i, a.message);
  });

  it('re-ranks a ranking for "sort by golds instead"', async () => {
    const a = await rig.ask('sort by golds instead', ['medals.csv'], { history: ['top 3 countries by silver'] });
    assert.match(a.message, /\*\*China\*\*/, a.message);
    assert.equal(a.tables[0]?.length, 4, JSON.stringify(a.tables[0]));
  });
});
