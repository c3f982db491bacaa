/**
 * Failure classes of first-sight probe D:
 * - "and the quietest day?", "what about protein": follow-ups whose words changed nothing repeated
 *   the answer before them, as if they had been read;
 * - "busiest day" ranked by `hum` (humidity), met through WordNet's "humming";
 * - "when was hale-bopp discovered" over a table with no dates gave the comet's row;
 * - "which state has the highest unemployment rate" added up the yearly rates of each state;
 * - "by how much % did the population grow between 1960 and 2019" gave a share of the total;
 * - "median employment across states in 1975" gave each state's median, not the one asked.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const FOODS = ['food,group,protein'];
for (let i = 0; i < 30; i++) FOODS.push(`Food ${i},${i % 2 === 0 ? 'Pulses' : 'Fruits'},${5 + i}`);

const BIKES = ['date,temp,hum,cnt'];
for (let d = 1; d <= 28; d++) BIKES.push(`2011-02-${String(d).padStart(2, '0')},${(0.2 + d / 100).toFixed(2)},${(0.9 - d / 100).toFixed(2)},${1000 + d * 10}`);

const COMETS = ['full_name,q,e'];
for (let i = 0; i < 20; i++) COMETS.push(`C/${1990 + i} O${i} (${i === 5 ? 'Hale-Bopp' : `Finder${i}-Other${i}`}),${(0.5 + i / 10).toFixed(2)},${(0.9 + i / 1000).toFixed(3)}`);

const STATES = ['state,year,fails'];
for (const [s, base] of [['ALABAMA', 8], ['OHIO', 0.5], ['TEXAS', 5]] as const) for (let y = 1970; y < 1980; y++) STATES.push(`${s},${y},${(base + (y % 3) * 0.5).toFixed(1)}`);
// A state with more years of lower rates: its total is the highest, its rate is not.
for (let y = 1950; y < 1990; y++) STATES.push(`IOWA,${y},3.0`);

describe('follow-ups that change nothing, weak adjectives, "when" and level words', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'foods.csv': FOODS.join('\n'), 'bikes.csv': BIKES.join('\n'), 'comets.csv': COMETS.join('\n'), 'states.csv': STATES.join('\n') });
  });
  after(async () => rig?.close());

  it('refuses a follow-up that leaves the answer before it as it was', async () => {
    const history = ['which food has the most protein'];
    const a = await rig.ask('what about protein', ['foods.csv'], { history });
    assert.match(a.message, /changes nothing/, a.message);
  });

  it('never ranks "busiest" by a column whose short name only sounds like it', async () => {
    const a = await rig.ask('busiest day', ['bikes.csv']);
    assert.doesNotMatch(a.message, /highest `hum`/, a.message);
  });

  it('refuses "when" over a table without dates or years', async () => {
    const a = await rig.ask('when was hale-bopp discovered', ['comets.csv']);
    assert.match(a.message, /can't answer/, a.message);
  });

  it('ranks by the average where the question calls the measure a rate', async () => {
    const a = await rig.ask('which state has the highest failure rate', ['states.csv']);
    assert.match(a.message, /ALABAMA/, a.message);
    assert.doesNotMatch(a.message, /\*\*IOWA\*\*/, a.message);
  });

  it('never answers a growth in percent with a share of the total', async () => {
    const a = await rig.ask('by how much % did ALABAMA fails grow between 1970 and 1979', ['states.csv']);
    assert.doesNotMatch(a.message, /Share of total/, a.message);
  });

  it('asks whether "across states" means over all of them or for each', async () => {
    const a = await rig.ask('median fails across states in 1975', ['states.csv']);
    assert.match(a.message, /more than one way/, a.message);
  });
});
