/**
 * Failure classes of first-sight probe C, on synthetic tables:
 * - a follow-up to a question that was refused was answered on its own ("only for north" gave
 *   the north's rows, not a change of anything asked);
 * - a Y / N text column was split by its letters ("how many airlines are still active");
 * - "season" was read as the team code SEA (an everyday word taken for a code's prefix);
 * - "population" was offered as `pl_c` (scattered letters) beside `pop` (a prefix);
 * - "how many subdivisions have a parent" was split by the parent instead of counting those with one;
 * - "emojis with cat in the name" matched the one emoji named "cat" (and "name contains cat" searched
 *   for "a"); "how many of them died" dropped "died"; "which players did it" after a refusal answered.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const ORDERS = ['region,year,revenue'];
for (let i = 0; i < 24; i++) ORDERS.push(`${['North', 'South', 'East'][i % 3] as string},${2020 + (i % 4)},${100 + i}`);

const AIRLINES = ['name,country,active'];
for (let i = 0; i < 40; i++) AIRLINES.push(`Air ${i},${i % 2 === 0 ? 'Chile' : 'Peru'},${i === 7 ? 'n' : i % 4 === 0 ? 'Y' : 'N'}`);

const BATTING = ['player,year,team,hr'];
for (let i = 0; i < 40; i++) BATTING.push(`p${i % 10},${1990 + (i % 4)},${['SEA', 'BOS', 'NYA', 'CHA'][i % 4] as string},${i === 21 ? 61 : i % 30}`);

const PWT = ['country,year,pop,pl_c,pl_g'];
for (let i = 0; i < 20; i++) PWT.push(`${i % 2 === 0 ? 'India' : 'Chile'},${2000 + Math.floor(i / 2)},${i % 2 === 0 ? 1000 + i : 15},${(0.3 + i / 100).toFixed(2)},${(0.5 + i / 100).toFixed(2)}`);

const SUBDIVISIONS = ['code,name,type,parent'];
for (let i = 0; i < 30; i++) SUBDIVISIONS.push(`XX-${i},Place ${i},${i % 2 === 0 ? 'Region' : 'Province'},${i % 3 === 0 ? `XX-P${i % 4}` : ''}`);

const EMOJI = ['name,group'];
for (let i = 0; i < 30; i++) EMOJI.push(`${i === 0 ? 'cat' : i % 5 === 0 ? `cat face ${i}` : `dog ${i}`},${i % 2 === 0 ? 'Animals' : 'Faces'}`);

describe('follow-ups after a refusal, yes/no letters, codes and abbreviations', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'emoji.csv': EMOJI.join('\n'), 'subdivisions.csv': SUBDIVISIONS.join('\n'), 'orders.csv': ORDERS.join('\n'), 'airlines.csv': AIRLINES.join('\n'), 'batting.csv': BATTING.join('\n'), 'pwt.csv': PWT.join('\n') });
  });
  after(async () => rig?.close());

  it('refuses a follow-up whose question was refused, and still answers a new question after it', async () => {
    // (The answered question before the refused one is not what the follow-up changes.)
    const history = ['total revenue by year', 'average gizmo count'];
    const first = await rig.ask(history[1] as string, ['orders.csv'], { history: history.slice(0, 1) });
    assert.match(first.message, /can't answer/, first.message);
    const a = await rig.ask('north only', ['orders.csv'], { history });
    assert.match(a.message, /can't answer/, a.message);
    const b = await rig.ask('total revenue by region', ['orders.csv'], { history });
    assert.doesNotMatch(b.message, /can't answer/, b.message);
  });

  it('reads a Y / N column as yes or no', async () => {
    const a = await rig.ask('how many airlines are still active', ['airlines.csv']);
    assert.match(a.message, /\*\*10\*\*/, a.message);
  });

  it('never reads an everyday word as a code it starts with ("season" is no SEA)', async () => {
    const a = await rig.ask('most home runs in a season', ['batting.csv']);
    assert.doesNotMatch(a.message, /where `team` is "SEA"/, a.message);
  });

  it('prefers a prefix (`pop`) to scattered letters (`pl_c`) for "population", without asking', async () => {
    const a = await rig.ask('population of india in 2004', ['pwt.csv']);
    assert.doesNotMatch(a.message, /more than one way/, a.message);
    assert.match(a.message, /\*\*1,?008\*\*/, a.message);
  });

  it('counts the rows that have a value ("have a parent") instead of splitting them by it', async () => {
    const a = await rig.ask('how many subdivisions have a parent', ['subdivisions.csv']);
    assert.match(a.message, /\*\*10\*\*/, a.message);
    const b = await rig.ask('what share of subdivisions have a parent', ['subdivisions.csv']);
    assert.match(b.message, /33\.3%/, b.message);
  });

  it('searches a text column for a bare word ("rows with cat in the name", "name contains cat")', async () => {
    const a = await rig.ask('rows with cat in the name', ['emoji.csv']);
    assert.match(a.message, /\*\*6\*\* rows? match/, a.message);
    const b = await rig.ask('name contains cat', ['emoji.csv']);
    assert.match(b.message, /\*\*6\*\* rows? match/, b.message);
  });

  it('refuses a follow-up ending in a verb the data holds nothing about, and "did it" after a refusal', async () => {
    const a = await rig.ask('how many of them died', ['orders.csv'], { history: ['how many orders in the north'] });
    assert.match(a.message, /can't answer/, a.message);
    const b = await rig.ask('which regions did it', ['orders.csv'], { history: ['total revenue by year', 'average gizmo count'] });
    assert.match(b.message, /can't answer/, b.message);
  });
});
