/**
 * Groups of countries among countries (issue 22: "Aggregates" rows counted as countries): a
 * column of country names that also holds "World", "High income" and "Euro area" rows. Counts,
 * sums and rankings of countries leave those rows out and say so; a question that names one of
 * them still gets it.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const COUNTRIES = ['France', 'Germany', 'Japan', 'Brazil', 'India', 'Chad', 'Peru', 'Chile', 'Kenya', 'Egypt', 'Spain', 'Italy', 'Mexico', 'Canada', 'Norway',
  'Sweden', 'Poland', 'Greece', 'Turkey', 'Iran', 'Iraq', 'Nepal', 'Mali', 'Niger', 'Ghana', 'Cuba'];
const GROUPS = ['World', 'High income', 'Euro area', 'Sub-Saharan Africa'];
const gdp = (i: number, y: number): number => 10 + ((i * 37 + y * 11) % 90);
const ROWS = ['country,year,gdp'];
for (const y of [2010, 2011]) {
  COUNTRIES.forEach((c, i) => ROWS.push(`${c},${y},${gdp(i, y)}`));
  GROUPS.forEach((g, i) => ROWS.push(`"${g}",${y},${5000 + i * 100 + y}`));
}

describe('groups of countries among countries', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'economies.csv': ROWS.join('\n') });
  });
  after(async () => rig?.close());

  it('counts countries without the groups, and says so', async () => {
    const a = await rig.ask('how many countries', ['economies.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${COUNTRIES.length}\\*\\*`), a.message);
    assert.match(a.message, /groups of nations, not single nations: they are left out/, a.message);
    const o = await rig.ask('overview', ['economies.csv']);
    assert.match(o.message, /In `country`, "Euro area", "High income", "Sub-Saharan Africa", "World" are groups of nations/, o.message);
  });

  it('never ranks a group first, and adds up countries only', async () => {
    const a = await rig.ask('which country had the highest gdp in 2011', ['economies.csv']);
    const best = COUNTRIES.map((c, i) => ({ c, v: gdp(i, 2011) })).sort((x, y) => y.v - x.v)[0];
    assert.match(a.message, new RegExp(`\\*\\*${best?.c}\\*\\*`), a.message);
    const b = await rig.ask('total gdp in 2010', ['economies.csv']);
    const sum = COUNTRIES.reduce((s, _c, i) => s + gdp(i, 2010), 0);
    assert.match(b.message, new RegExp(`\\*\\*${sum.toLocaleString('en-US')}\\*\\*`), b.message);
  });

  it('answers a question that names a group', async () => {
    const a = await rig.ask('gdp of the World in 2010', ['economies.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${(5000 + 2010).toLocaleString('en-US')}\\*\\*`), a.message);
  });
});
