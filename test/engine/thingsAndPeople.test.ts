/**
 * Failure classes of first-sight probe B, each on synthetic tables:
 * - "how many women" where `sex` holds codes was answered with every row (the word was taken for
 *   the rows); it is refused with the sex column's codes as chips, and a chip answers;
 * - "largest school" over `School` codes ranked the rows by the code; codes of things are decided
 *   when the table is read, so it is the school with the most rows, and "by school" groups;
 * - "smallest school" was read as the abbreviation `SES`;
 * - "average score by grade" with no grade column dropped "by grade";
 * - "warmest year" over monthly readings gave the warmest month;
 * - "how many died" summed an `exit` age column that WordNet relates to dying.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const PATIENTS = ['age,sex,ecog'];
for (let i = 0; i < 40; i++) PATIENTS.push(`${40 + (i % 30)},${i % 4 === 0 ? 2 : 1},${i % 3}`);

// 12 schools of 3..14 students: school 1300 + 100 * k has 3 + k students.
const STUDENTS = ['School,Sex,SES,MathAch'];
for (let k = 0; k < 12; k++) for (let s = 0; s < 3 + k; s++) STUDENTS.push(`${1300 + 100 * k},${s % 2 === 0 ? 'Female' : 'Male'},${((s % 5) - 2) / 10},${10 + k + (s % 3)}`);

// Monthly temperatures 2000-2003: 2002 is the warmest year on average; the warmest month is in 2001.
const TEMPS = ['month,avg_temp'];
for (let y = 2000; y <= 2003; y++) {
  for (let m = 1; m <= 12; m++) {
    const base = 40 + 10 * Math.sin(((m - 4) / 12) * 2 * Math.PI) + (y === 2002 ? 3 : 0);
    TEMPS.push(`${y}-${String(m).padStart(2, '0')}-01,${(y === 2001 && m === 7 ? 70 : base).toFixed(1)}`);
  }
}

const RESIDENTS = ['sex,entry,exit,time,cens'];
for (let i = 0; i < 30; i++) RESIDENTS.push(`${i % 2 === 0 ? 'Female' : 'Male'},${800 + i * 7},${900 + i * 9},${100 + i * 2},${i % 3 === 0 ? 1 : 0}`);

describe('people, codes of things and periods read as asked', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'patients.csv': PATIENTS.join('\n'), 'hsb.csv': STUDENTS.join('\n'), 'temps.csv': TEMPS.join('\n'), 'residents.csv': RESIDENTS.join('\n') });
  });
  after(async () => rig?.close());

  it('never counts every row for "how many women"; offers the codes of the sex column, and a chip answers', async () => {
    const a = await rig.ask('how many women', ['patients.csv']);
    assert.match(a.message, /can't answer/, a.message);
    assert.doesNotMatch(a.message, /\*\*40\*\*/, a.message);
    const chip = a.questions.find((q) => /"women" means `sex` = 2/.test(q));
    assert.ok(chip, a.questions.join(' | '));
    const b = await rig.ask(chip, ['patients.csv'], { history: ['how many women'] });
    assert.match(b.message, /\*\*10\*\*/, b.message);
  });

  it('reads codes of things as codes: "largest school" has the most students, "by school" groups, "smallest" is no abbreviation', async () => {
    const a = await rig.ask('largest school', ['hsb.csv']);
    assert.match(a.message, /\*\*2,?400\*\*/, a.message);
    const b = await rig.ask('smallest school', ['hsb.csv']);
    assert.match(b.message, /\*\*1,?300\*\*/, b.message);
    assert.doesNotMatch(b.message, /SES/, b.message);
    const c = await rig.ask('average math score by school', ['hsb.csv']);
    assert.equal(c.tables[0]?.length, 13, JSON.stringify(c.tables[0]));
    // ("school with the highest average": the schools ranked; the students are the rows, not the schools.)
    const e = await rig.ask('school with the highest average math score', ['hsb.csv']);
    assert.match(e.message, /\*\*2,?400\*\*/, e.message);
    const f = await rig.ask('how many students', ['hsb.csv']);
    assert.match(f.message, /\*\*102\*\*/, f.message);
    const d = await rig.ask('total School', ['hsb.csv']);
    assert.doesNotMatch(d.message, /\*\*[\d,]{6,}\*\*/, d.message);
  });

  it('refuses a grouping by a word nothing holds instead of dropping it', async () => {
    const a = await rig.ask('average math score by grade', ['hsb.csv']);
    assert.match(a.message, /can't answer/, a.message);
    assert.match(a.message, /grade/, a.message);
  });

  it('ranks years, not months, for "warmest year" over monthly readings', async () => {
    const a = await rig.ask('warmest year', ['temps.csv']);
    assert.match(a.message, /\*\*2002\*\*/, a.message);
    const b = await rig.ask('hottest month', ['temps.csv']);
    assert.match(JSON.stringify(b.tables[0]), /2001-07/, JSON.stringify(b.tables[0]));
    assert.doesNotMatch(a.message, /ran from/, a.message);
  });

  it('does not add up an age column for "how many died"; offers the yes/no column first', async () => {
    const a = await rig.ask('how many died', ['residents.csv']);
    assert.match(a.message, /can't answer/, a.message);
    assert.match(a.questions[0] ?? '', /"died" means `cens`/, a.questions.join(' | '));
  });
});
