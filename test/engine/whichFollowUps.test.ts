/**
 * "which year was the lowest?" after "average score by year" (issue 22, probe I: it was read on its
 * own as "the row with the lowest year"): the year said again names the earlier answer's grouping,
 * so the follow-up ranks its figure. On its own, the question does not say what ranks the years.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const ROWS = ['state,year,score'];
const byYear = new Map<number, number[]>();
for (const y of [1960, 1964, 1968, 1972, 1976]) for (const s of ['Ohio', 'Iowa', 'Utah']) {
  const v = 30 + ((y * 7 + s.length * 13) % 25);
  byYear.set(y, [...(byYear.get(y) ?? []), v]);
  ROWS.push(`${s},${y},${v}`);
}
const lowest = [...byYear.entries()].map(([y, vs]) => ({ y, m: vs.reduce((a, b) => a + b, 0) / vs.length })).sort((a, b) => a.m - b.m)[0];

describe('"which year was the lowest" after a figure by year', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'results.csv': ROWS.join('\n') });
  });
  after(async () => rig?.close());

  it('ranks the earlier answer\'s figure', async () => {
    const a = await rig.ask('which year was the lowest?', ['results.csv'], { history: ['average score by year'] });
    assert.match(a.message, new RegExp(`\\*\\*${lowest?.y}\\*\\*`), a.message);
    assert.match(a.steps[0]?.name ?? '', /lowest average `score`/, a.steps[0]?.name);
  });

  it('does not rank the years by themselves when asked alone', async () => {
    const a = await rig.ask('which year was the lowest?', ['results.csv']);
    assert.doesNotMatch(a.message, /row with the lowest `year`/, a.message);
  });
});
