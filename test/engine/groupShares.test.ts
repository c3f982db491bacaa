/**
 * Shares inside each group (probes B and C): "% with skin tone support per group", "bad rate by
 * loan term", "agreement rate by education" were answered as each group's share of the whole (or
 * refused: "a rate per group is not computed"). A share within each group is now a reading of its
 * own, written "share of rows where ... within each ...", and the engine asks when the words fit both.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

// Group A: 10 rows, 8 flagged; group B: 30 rows, 3 flagged. Term 36: 20 rows, 2 bad; term 60: 20 rows, 8 bad.
const LOANS = ['grp,flagged,term,class,survived'];
for (let i = 0; i < 40; i++) {
  const a = i < 10;
  LOANS.push(`${a ? 'A' : 'B'},${a ? i < 8 : i < 13 ? 'true' : 'false'},${i % 2 === 0 ? 36 : 60} months,${(i % 2 === 0 && i < 4) || (i % 2 === 1 && i < 16) ? 'bad' : 'good'},${i % 4 === 0 ? 'yes' : 'no'}`);
}

describe('shares within each group', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'loans.csv': LOANS.join('\n') });
  });
  after(async () => rig?.close());

  it('reads "within each" as the share of each group\'s rows', async () => {
    const a = await rig.ask('share of rows where flagged within each grp', ['loans.csv']);
    assert.match(a.message, /A: 80%/, a.message);
    assert.match(a.message, /B: 10%/, a.message);
  });

  it('reads "bad rate by term" as the share of bad loans within each term', async () => {
    const a = await rig.ask('bad rate by term', ['loans.csv']);
    assert.match(a.message, /36 months: 10%/, a.message);
    assert.match(a.message, /60 months: 40%/, a.message);
  });

  it('asks when a share by group with a condition may be either share ("% flagged per grp")', async () => {
    const a = await rig.ask('% flagged per grp', ['loans.csv']);
    assert.match(a.message, /more than one way/, a.message);
    assert.match(a.message, /within each `grp`/, a.message);
  });
});
