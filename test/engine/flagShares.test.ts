/**
 * A 0/1 column named by a quality noun (issue 22, probe I: "overall accuracy" over `acc` was
 * answered as the total of `acc`, "accuracy by condition" as a count of correct trials): the
 * quality is the share of ones, averaged. "Accurate trials" still picks the rows that have it, and
 * "overall" says nothing about how to combine ("overall revenue" is still a total).
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const TRIALS = ['pno,condition,acc,rt'];
const accs: Array<{ condition: string; acc: number }> = [];
for (let i = 0; i < 120; i++) {
  const condition = i % 2 === 0 ? 'deplete' : 'control';
  const acc = (i * 7) % 10 < (condition === 'deplete' ? 8 : 9) ? 1 : 0;
  accs.push({ condition, acc });
  TRIALS.push(`s${i % 12},${condition},${acc},${(0.4 + (i % 9) / 20).toFixed(3)}`);
}
const share = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('a 0/1 column named by a quality noun is a share', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'trials.csv': TRIALS.join('\n') });
  });
  after(async () => rig?.close());

  it('averages the column for "overall accuracy" and "accuracy by condition"', async () => {
    const a = await rig.ask('overall accuracy', ['trials.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${Number(share(accs.map((x) => x.acc)).toFixed(2))}\\*\\*`), a.message);
    const b = await rig.ask('accuracy by condition', ['trials.csv']);
    const deplete = share(accs.filter((x) => x.condition === 'deplete').map((x) => x.acc));
    assert.equal(Number(b.tables[0]?.find((r) => r[0] === 'deplete')?.[1]).toFixed(4), deplete.toFixed(4), JSON.stringify(b.tables[0]));
  });

  it('still counts the rows an adjective picks', async () => {
    const a = await rig.ask('how many accurate trials', ['trials.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${accs.filter((x) => x.acc === 1).length}\\*\\*`), a.message);
  });
});
