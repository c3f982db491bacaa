/**
 * A measure named with the wave it was taken at (`chol0`, `sbp0`, `behpat0` in a cohort study):
 * "average cholesterol" and "by behaviour pattern" name them as they name `chol` and `behpat`
 * (issue 22: everyday words for abbreviated columns; the trailing wave number made every name
 * word required, so an abbreviation could not match).
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const COHORT = ['id,age0,chol0,behpat0,chol1'];
const chol: number[] = [];
for (let i = 0; i < 40; i++) {
  const c = 170 + ((i * 37) % 90);
  chol.push(c);
  COHORT.push(`${i},${40 + (i % 20)},${c},${['A1', 'A2', 'B3', 'B4'][i % 4]},${c + 5}`);
}

describe('measures named with their wave number', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'cohort.csv': COHORT.join('\n') });
  });
  after(async () => rig?.close());

  it('reads "cholesterol" as the abbreviated column of either wave, and asks which', async () => {
    const a = await rig.ask('average cholesterol', ['cohort.csv']);
    assert.doesNotMatch(a.message, /nothing in the data matches "cholesterol"/, a.message);
    assert.match(a.message, /`chol0`/, a.message);
  });

  it('groups by an abbreviated pattern column', async () => {
    const a = await rig.ask('average age by behavior pattern', ['cohort.csv']);
    assert.match(a.steps[0]?.name ?? '', /by `behpat0`/, a.steps[0]?.name);
  });
});
