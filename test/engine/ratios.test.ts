/**
 * "price per hp" (issue 22, "derived values"; probe E: "a ratio read as a grouping"): one number
 * column over another that groups nothing is each row's ratio. It was read as "the lowest price"
 * with "per hp" silently dropped. The reading is written "`Price` per `HP`" and read back the same.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

// Price per HP: a 100, b 133.3, c 75, d 250, e 133.3.
const CARS = ['Model,Price,HP,Country', 'a,10000,100,Japan', 'b,20000,150,USA', 'c,15000,200,Japan', 'd,30000,120,Germany', 'e,12000,90,Japan'];

describe('a number per another number', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'cars.csv': CARS.join('\n') });
  });
  after(async () => rig?.close());

  it('ranks rows by the ratio: "which car has the lowest price per hp"', async () => {
    const a = await rig.ask('which car has the lowest price per hp', ['cars.csv']);
    assert.match(a.steps.map((s) => s.name).join('\n'), /lowest `Price` per `HP`/);
    assert.ok(a.tables[0]?.[1]?.includes('c'), JSON.stringify(a.tables[0]));
    // The reading, asked as written, is read the same way (the grammar reads what it writes).
    const line = a.steps.map((s) => s.name).find((s) => s.startsWith('Read the question as: '))?.slice('Read the question as: '.length) ?? '';
    const again = await rig.ask(line, ['cars.csv']);
    assert.equal(again.steps.map((s) => s.name).find((s) => s.startsWith('Read the question as: ')), `Read the question as: ${line}`);
  });

  it('ranks by the ratio when an adjective names its first column: "cheapest price per horsepower"', async () => {
    const a = await rig.ask('cheapest price per horsepower', ['cars.csv']);
    assert.match(a.steps.map((s) => s.name).join('\n'), /lowest `Price` per `HP`/);
  });

  it('averages the ratio by a group: "average price per hp by country"', async () => {
    const a = await rig.ask('average price per hp by country', ['cars.csv']);
    // Japan: (100 + 75 + 133.33) / 3 = 102.78.
    assert.match(a.message, /Japan: 102\.78/, a.message);
  });

  it('never ranks by one number and drops the other: "which car is cheapest per hp"', async () => {
    const a = await rig.ask('which car is cheapest per hp', ['cars.csv']);
    assert.doesNotMatch(a.message, /lowest `Price`[^ ]/, a.message);
  });
});
