/**
 * Failure classes of first-sight probe C, on synthetic tables:
 * - "when was woody released" showed the `created` date, not `release` (the verb names the column);
 * - "how many patients got thorotrast" in thorotrast.csv counted every row (the file's name, said
 *   after a verb, is what the verb says of the rows);
 * - "element with the most isotopes" in isotopes.csv ranked by `isotope_mass` (a word of a column
 *   name) instead of counting the rows;
 * - "naturally occurring isotopes" dropped the participle and counted every row;
 * - "only smokers" (where `Smoke` holds Current, Past, Nonsmoker) was read as the table's people and
 *   changed nothing; it is refused with the column's values as chips, and a chip answers.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const RELEASES = ['version,codename,created,release', '2.2,Potato,1999-08-15,2000-08-15', '3.0,Woody,2000-08-15,2002-07-19', '3.1,Sarge,2002-07-19,2005-06-06', '4.0,Etch,2005-06-06,2007-04-08'];

const PATIENTS = ['id,sex,contrast,volume'];
for (let i = 1; i <= 30; i++) PATIENTS.push(`${i},${1 + (i % 2)},${i % 3 === 0 ? 1 : 2},${i % 3 === 0 ? 20 + i : 0}`);

const ISOTOPES = ['atomic_number,element,mass_number,isotope_mass,abundance'];
[['Hydrogen', 3], ['Helium', 2], ['Tin', 10], ['Gold', 1]].forEach(([el, n], k) => {
  for (let m = 0; m < (n as number); m++) ISOTOPES.push(`${k + 1},${el as string},${(k + 1) * 2 + m},${((k + 1) * 2 + m + 0.01).toFixed(2)},${m === 0 ? '0.9' : ''}`);
});

const NHANES = ['Age,Sex,Smoke,Weight'];
for (let i = 0; i < 30; i++) NHANES.push(`${30 + i},${i % 2 === 0 ? 'M' : 'F'},${['Current', 'Past', 'Nonsmoker'][i % 3] as string},${60 + i}`);

describe('verbs naming columns, and the rows named twice', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'nhanes.csv': NHANES.join('\n'), 'debian_releases.csv': RELEASES.join('\n'), 'thorotrast.csv': PATIENTS.join('\n'), 'isotopes.csv': ISOTOPES.join('\n') });
  });
  after(async () => rig?.close());

  it('shows the date column a verb names ("released": `release`)', async () => {
    const a = await rig.ask('when was woody released', ['debian_releases.csv']);
    assert.match(a.steps[0]?.name ?? '', /`release` of rows/, JSON.stringify(a.steps));
    assert.match(JSON.stringify(a.tables[0]), /2002-07-19/);
  });

  it('refuses the file\'s name said after a verb instead of counting every row', async () => {
    const a = await rig.ask('how many patients got thorotrast', ['thorotrast.csv']);
    assert.match(a.message, /can't answer/, a.message);
    assert.ok(a.questions.some((q) => /`contrast`/.test(q)), a.questions.join(' | '));
  });

  it('counts the rows for "the most isotopes" and never drops "naturally occurring"', async () => {
    const a = await rig.ask('element with the most isotopes', ['isotopes.csv']);
    assert.match(a.message, /\*\*Tin\*\*/, a.message);
    const b = await rig.ask('total number of naturally occurring isotopes', ['isotopes.csv']);
    assert.doesNotMatch(b.message, /\*\*16\*\*/, b.message);
  });

  it('never takes "smokers" for every person when a column tells smokers apart; its values are the chips', async () => {
    const a = await rig.ask('only smokers', ['nhanes.csv'], { history: ['average weight by sex'] });
    assert.match(a.message, /can't answer/, a.message);
    const chip = a.questions.find((q) => /"smokers" means "Current"/.test(q));
    assert.ok(chip, a.questions.join(' | '));
    const b = await rig.ask(chip, ['nhanes.csv'], { history: ['how many smokers'] });
    assert.match(b.message, /\*\*10\*\*/, b.message);
  });
});
