/**
 * Failure classes of first-sight probe C, on synthetic tables:
 * - "men vs women" where `Sex` holds M and F, and "north vs south" where `Region` holds N, S, E, W
 *   and C, were refused: the letter that stands for the word is its value;
 * - "poverty north vs south" added up a column of poverty rates (WordNet files poverty and wealth
 *   under states: levels, averaged);
 * - "men over 60" did not say which number 60 is (people named just before: their age).
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const PEOPLE = ['Age,Sex,Weight'];
for (let i = 0; i < 40; i++) PEOPLE.push(`${30 + i},${i % 2 === 0 ? 'M' : 'F'},${i % 2 === 0 ? 80 : 60}`);

const DEPTS = ['dept,Region,Poverty'];
['N', 'S', 'E', 'W', 'C'].forEach((r, k) => {
  for (let i = 0; i < 4; i++) DEPTS.push(`${k * 4 + i},${r},${r === 'N' ? 60 : r === 'S' ? 20 : 40}`);
});

describe('letters standing for words, and levels averaged', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'people.csv': PEOPLE.join('\n'), 'departments.csv': DEPTS.join('\n') });
  });
  after(async () => rig?.close());

  it('reads "men" and "women" as M and F of the sex column, and "men over 60" by their age', async () => {
    const a = await rig.ask('avg weight men vs women', ['people.csv']);
    assert.match(JSON.stringify(a.tables[0]), /80/, a.message);
    assert.match(JSON.stringify(a.tables[0]), /60/, a.message);
    const b = await rig.ask('how many men over 60', ['people.csv']);
    // Men are ages 30, 32, ..., 68: 61 to 68 are 62, 64, 66, 68.
    assert.match(b.message, /\*\*4\*\*/, b.message);
  });

  it('reads compass words as their letters and averages a rate', async () => {
    const a = await rig.ask('poverty north vs south', ['departments.csv']);
    assert.match(a.steps[0]?.name ?? '', /average `Poverty`/i, JSON.stringify(a.steps));
    assert.match(JSON.stringify(a.tables[0]), /"60"/, JSON.stringify(a.tables[0]));
  });
});
