/**
 * Failure classes of probes B and C where the engine stated a number resting on a guess:
 * - a measure named without an aggregate, whose name and values say neither "adds up" nor "is a
 *   level" (`skinfold` 10 to 100), was totalled: "skinfold men vs women" compared group sizes;
 * - "how many employees does Acme have" counted Acme's rows (one: `name` is unique);
 * - "remote workers only" after "average salary by country" was read alone, as a count by `remote`;
 * - "which players did it" with no answer before it was read alone;
 * - "newest emojis" in a table without dates listed the first rows, "newest names" the commonest name;
 *   and "emojis" was not the plural of "emoji" (read as a singular like "analysis");
 * - "top 5 communes by median income" added up `medianincome` (a median is a level, never a sum).
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const ATHLETES = ['sex,sport,skinfold'];
for (let i = 0; i < 30; i++) ATHLETES.push(`${i % 3 === 0 ? 'female' : 'male'},${['Row', 'Swim'][i % 2] as string},${i % 3 === 0 ? 40 + (i % 5) * 15 : 10 + (i % 5) * 5}`);

const COMPANIES = ['name,country,sales'];
for (let i = 0; i < 20; i++) COMPANIES.push(`${i === 3 ? 'Acme' : `Firm ${i}`},${i % 2 === 0 ? 'Japan' : 'Chile'},${100 + i}`);

const EMOJI = ['name,group,version'];
for (let i = 0; i < 12; i++) EMOJI.push(`face ${i},${i % 2 === 0 ? 'Animals' : 'People'},${1 + (i % 4)}`);

const TOWNS = ['town,province,medianincome'];
for (let i = 0; i < 12; i++) TOWNS.push(`Town ${i},${i % 2 === 0 ? 'Liege' : 'Namur'},${20000 + i * 100}`);

const SURVEY = ['country,remote,salary'];
for (let i = 0; i < 40; i++) SURVEY.push(`${['Chile', 'Peru'][i % 2] as string},${i % 4 === 0 ? 'Remote' : 'Not remote'},${50000 + i * 1000}`);

describe('numbers that would rest on a guess', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'athletes.csv': ATHLETES.join('\n'), 'companies.csv': COMPANIES.join('\n'), 'survey.csv': SURVEY.join('\n'), 'emoji.csv': EMOJI.join('\n'), 'towns.csv': TOWNS.join('\n') });
  });
  after(async () => rig?.close());

  it('shows the average beside the total of a measure that may be either ("skinfold men vs women")', async () => {
    const a = await rig.ask('skinfold men vs women', ['athletes.csv']);
    // Women: 10 rows of 40 to 100, average 70 (total 700); men: 20 rows of 10 to 30, average 20 (total 400).
    assert.match(a.message, /average `skinfold`/, a.message);
    assert.match(a.message, /\b70\b/, a.message);
    assert.match(a.message, /\b20\b/, a.message);
  });

  it('keeps one aggregate where the name says it ("total skinfold by sex", a share of counts)', async () => {
    const a = await rig.ask('total skinfold by sex', ['athletes.csv']);
    assert.doesNotMatch(a.message, /average `skinfold`/, a.message);
  });

  it('refuses to count the rows of one named row ("how many employees does Acme have")', async () => {
    const a = await rig.ask('how many employees does Acme have', ['companies.csv']);
    assert.match(a.message, /can't answer/, a.message);
    const b = await rig.ask('how many companies in Japan', ['companies.csv']);
    assert.match(b.message, /\*\*10\*\*/, b.message);
  });

  it('reads "remote workers only" as a change to the answer before it, or not at all', async () => {
    const history = ['average salary by country'];
    const a = await rig.ask('remote workers only', ['survey.csv'], { history });
    assert.doesNotMatch(a.message, /Number of rows by `remote`/i, a.message);
    if (!/can't answer/.test(a.message)) assert.match(a.message, /salary/i, a.message);
  });

  it('refuses "which players did it" when no answer came before', async () => {
    const a = await rig.ask('which players did it', ['survey.csv']);
    assert.match(a.message, /can't answer/, a.message);
    // ("profile it" names the file, not an earlier answer.)
    const b = await rig.ask('profile it', ['survey.csv']);
    assert.doesNotMatch(b.message, /refers to an earlier answer/, b.message);
  });

  it('refuses "newest" in a table without dates, and counts "emojis" as the rows of emoji.csv', async () => {
    for (const q of ['newest emojis', 'newest names']) {
      const a = await rig.ask(q, ['emoji.csv']);
      assert.match(a.message, /can't answer/, `${q}: ${a.message}`);
    }
    const b = await rig.ask('how many emojis', ['emoji.csv']);
    assert.match(b.message, /\*\*12\*\*/, b.message);
  });

  it('averages a median named as such ("medianincome by province")', async () => {
    const a = await rig.ask('medianincome by province', ['towns.csv']);
    assert.match(a.message, /average `medianincome`/, a.message);
    assert.doesNotMatch(a.message, /total `medianincome`/, a.message);
  });
});
