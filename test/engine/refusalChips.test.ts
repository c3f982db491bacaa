/**
 * Every refusal offers a click (issue 22, point 5). A follow-up to a question that was refused
 * ("only dogs" after "average heft by species") was refused with no chip at all, so the user had to
 * start over; it now offers the words the question before could not place, and a chosen meaning
 * answers the follow-up, with the question before it read again.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const PETS = ['name,species,weight_kg', 'Rex,dog,30', 'Bo,dog,20', 'Tom,cat,4', 'Kit,cat,6', 'Ace,dog,10'];

describe('refusals that build on a refused question', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'pets.csv': PETS.join('\n') });
  });
  after(async () => rig?.close());

  it('offers the earlier question\'s chips, and a chip answers the follow-up', async () => {
    const first = await rig.ask('average heft by species', ['pets.csv']);
    assert.match(first.message, /can't answer/, first.message);
    const a = await rig.ask('only dogs', ['pets.csv'], { history: ['average heft by species'] });
    assert.match(a.message, /can't answer/, a.message);
    const chip = a.questions.find((q) => /"heft" means `weight_kg`/.test(q));
    assert.ok(chip, a.questions.join(' | '));
    const b = await rig.ask(chip, ['pets.csv'], { history: ['average heft by species', 'only dogs'] });
    // The dogs' average weight: (30 + 20 + 10) / 3.
    assert.match(b.message, /\*\*20\*\*|dog: 20/, b.message);
    assert.doesNotMatch(b.message, /cat/, b.message);
  });
});

describe('a ranking over a table with nothing to measure', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  const HOLIDAYS = ['date,country,holiday', '2020-01-01,JP,New Year', '2020-02-11,JP,Foundation Day', '2021-01-01,JP,New Year',
    '2021-05-03,JP,Constitution Day', '2021-05-04,JP,Greenery Day', '2022-01-01,JP,New Year'];
  before(async () => {
    rig = await startRig({ 'holidays.csv': HOLIDAYS.join('\n'), 'pets.csv': PETS.join('\n') });
  });
  after(async () => rig?.close());

  it('ranks the groups by their rows: "which year had the most" (by year, though every date is unique)', async () => {
    const a = await rig.ask('which year had the most', ['holidays.csv']);
    assert.match(a.message, /\*\*2021\*\*/, a.message);
    assert.match(a.message, /\b3\b/, a.message);
  });

  it('reads the rows\' own noun as the rows counted, not a grouping by their names', async () => {
    const a = await rig.ask('which year had the most holidays', ['holidays.csv'])
    assert.match(a.message, /\*\*2021\*\*/, a.message);
    assert.doesNotMatch(a.message, /New Year/, a.message);
    const b = await rig.ask('holidays by year', ['holidays.csv']);
    assert.match(b.message, /2020: 2/, b.message);
    assert.doesNotMatch(b.message, /Foundation Day/, b.message);
  });

  it('still asks what to rank by where a column could be meant', async () => {
    const a = await rig.ask('which species had the most', ['pets.csv']);
    assert.match(a.message, /can't answer/, a.message);
  });
});

describe('a refusal says why in words, without Markdown escapes', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'weather.csv': ['date,temp_max,city', '2024-01-01,3.5,Oslo', '2024-01-02,4.5,Oslo', '2024-01-03,10,Rome'].join('\n') });
  });
  after(async () => rig?.close());

  it('a column the reading could not place is quoted, not escaped twice (issue 24, point 7)', async () => {
    const a = await rig.ask('how many readings temp_max', ['weather.csv']);
    assert.match(a.message, /can't answer/, a.message);
    // The reason is escaped once as Markdown, so it reads "read as "temp_max"" once rendered.
    assert.match(a.message, /read as "temp\\_max", it does not fit/, a.message);
    assert.doesNotMatch(a.message, /\\`/, a.message);
  });
});
