/**
 * Numbers that stand for "not known" (issue 22, point 4: placeholders count as missing): an age of
 * 99 written for every respondent who gave none is no age, and an average that takes it in is
 * wrong. A top value of nines far above the rest, or minus nines below numbers that are never
 * negative, is read as missing, said in the overview and in every answer that reads the column.
 * A 99 that is just the largest of close values is a value.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const SURVEY = ['respondent,sex,age,hours_worked,score'];
const ages: Array<{ sex: string; age: number }> = [];
for (let i = 0; i < 60; i++) {
  const sex = i % 2 === 0 ? 'F' : 'M';
  // Every seventh respondent gave no age (99); hours are -9 when not asked.
  const age = i % 7 === 3 ? 99 : 18 + ((i * 13) % 47);
  const hours = i % 11 === 5 ? -9 : 10 + ((i * 5) % 35);
  ages.push({ sex, age });
  // `score` runs up to 99 with no gap: 99 is a score.
  SURVEY.push(`r${i},${sex},${age},${hours},${60 + ((i * 17) % 40)}`);
}
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const known = ages.filter((a) => a.age !== 99);
const round2 = (x: number): string => (Math.round(x * 100) / 100).toString();

describe('numbers that mean "not known"', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'survey.csv': SURVEY.join('\n') });
  });
  after(async () => rig?.close());

  it('leaves the age code 99 out of an average, and says so', async () => {
    const a = await rig.ask('average age', ['survey.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${round2(mean(known.map((x) => x.age)))}\\*\\*`), a.message);
    assert.match(a.message, /99 means not known \(9 rows\)/, a.message);
    assert.match(a.code.join('\n'), /NULLIF\("age", 99\)/, a.code.join('\n'));
  });

  it('leaves it out by group too: mean age by sex', async () => {
    const a = await rig.ask('mean age by sex', ['survey.csv']);
    for (const sex of ['F', 'M']) assert.match(a.message, new RegExp(round2(mean(known.filter((x) => x.sex === sex).map((x) => x.age)))), a.message);
  });

  it('reads minus nines below counts that are never negative as missing', async () => {
    const a = await rig.ask('average hours worked', ['survey.csv']);
    assert.match(a.message, /-9 means not known/, a.message);
  });

  it('keeps a 99 that is one of close values', async () => {
    const a = await rig.ask('highest score', ['survey.csv']);
    assert.match(a.message, /\*\*99\*\*/, a.message);
    assert.doesNotMatch(a.message, /not known/, a.message);
  });
});
