/**
 * A plural noun in lower case names the rows asked about; it is never a search of one value's words
 * (failure class of first-sight probe B: "how many companies are in the Banking category" filtered
 * on a company named "... Public Company"), while a singular word inside a value is still found
 * ("ford" in "ford torino").
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const FIRMS = ['name,category,sales'];
const CATEGORIES = ['Banking', 'Oil & gas operations', 'Insurance', 'Retailing'];
for (let i = 0; i < 40; i++) FIRMS.push(`${i === 7 ? 'PTT Public Company' : `Firm ${i}`},${CATEGORIES[i % 4] as string},${(i + 1) * 10}`);
const CARS = ['model,mpg', 'ford torino,17', 'ford pinto,25', 'chevrolet impala,14', 'toyota corolla,31', 'honda civic,33', 'audi fox,29', 'bmw 2002,26', 'fiat 128,29', 'saab 99e,25', 'volvo 145e,18'].join('\n');

describe('plural nouns name rows, not words inside values', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'firms.csv': FIRMS.join('\n'), 'cars.csv': CARS });
  });
  after(async () => rig?.close());

  it('never reads "companies" as a search of the names for "company", and still finds a make inside model names', async () => {
    const a = await rig.ask('how many companies are in the Banking category', ['firms.csv']);
    // ("companies" in firms.csv may be refused; a number, if any, is the category's count.)
    assert.doesNotMatch(a.message, /PTT|contains/, a.message);
    if (!/can't answer/.test(a.message)) assert.match(a.message, /\*\*10\*\*/, a.message);
    const b = await rig.ask('average mpg of ford cars', ['cars.csv']);
    assert.match(b.message, /\*\*21\*\*/, b.message);
  });
});
