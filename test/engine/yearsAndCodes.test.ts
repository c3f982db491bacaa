/**
 * Failure classes of first-sight probe D:
 * - "world population 2019" where a `year` column sits beside a `date` holding 1 January of the
 *   next year: the date was filtered, so every answer was a year off;
 * - "life expectancy japan 2000" over `LIFEEX`: the question's own words say it is a level, yet it
 *   was totalled (the column's name says nothing);
 * - "city with the most zip codes" added up `zip` (whole numbers, one per row, packed in their range:
 *   codes, not amounts).
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const DEV = ['country,date,year,LIFEEX,POP'];
for (let y = 2000; y <= 2004; y++) {
  DEV.push(`Japan,${y + 1}-01-01,${y},${80 + (y - 2000)},${1000 + y - 2000}`);
  DEV.push(`Chile,${y + 1}-01-01,${y},${70 + (y - 2000)},${500 + y - 2000}`);
}

const ZIPS = ['zip,city,state'];
for (let i = 0; i < 1200; i++) ZIPS.push(`${10000 + i * 3},${i % 10 === 0 ? 'Springfield' : i % 3 === 0 ? 'Dover' : `Town ${i}`},${i % 2 === 0 ? 'NY' : 'TX'}`);

describe('years beside dates, level words and numeric codes', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'dev.csv': DEV.join('\n'), 'us_zip_codes.csv': ZIPS.join('\n') });
  });
  after(async () => rig?.close());

  it('filters whole years on the `year` column when a stored date sits beside it', async () => {
    const a = await rig.ask('total POP 2002', ['dev.csv']);
    // 2002: Japan 1002 + Chile 502 (the date column says 2003-01-01 for these rows).
    assert.match(a.message, /1,504/, a.message);
  });

  it('averages a column the question calls "life expectancy"', async () => {
    const a = await rig.ask('life expectancy by country', ['dev.csv']);
    assert.match(a.message, /Average `LIFEEX`/, a.message);
    assert.doesNotMatch(a.message, /Total `LIFEEX`/, a.message);
  });

  it('counts zip codes, never adds them up', async () => {
    const a = await rig.ask('city with the most zip codes', ['us_zip_codes.csv']);
    assert.doesNotMatch(a.message, /total `zip`/i, a.message);
    // Dover: i % 3 === 0 and i % 10 !== 0 → 400 - 40 = 360 rows.
    assert.match(a.message, /Dover/, a.message);
    assert.match(a.message, /\b360\b/, a.message);
  });
});
