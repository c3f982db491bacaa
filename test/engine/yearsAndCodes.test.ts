/**
 * Failure classes of first-sight probe D:
 * - "world population 2019" where a `year` column sits beside a `date` holding 1 January of the
 *   next year: the date was filtered, so every answer was a year off;
 * - "life expectancy japan 2000" over `LIFEEX`: the question's own words say it is a level, yet it
 *   was totalled (the column's name says nothing);
 * - "city with the most zip codes" added up `zip` (whole numbers, one per row, packed in their range:
 *   codes, not amounts);
 * - "avg cpi status 0 vs status 2" filtered `Status` = 0 AND `Status` = 2 (no rows);
 * - "biggest city in 1950" over one row per city and year ranked the cities by their one row each,
 *   and named five of them the biggest;
 * - "which country had the most manufacturing workers" over a long table whose `Variable` holds VA
 *   (money) and EMP (persons) added both kinds of rows together.
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

const VOTES = ['country,Status,CPI'];
for (let i = 0; i < 30; i++) VOTES.push(`C${i},${i % 3},${i % 3 === 0 ? 4 : i % 3 === 2 ? 6 : 5}`);

const CITIES = ['city_code,year,pop'];
for (let i = 0; i < 12; i++) for (const y of [1950, 1960]) CITIES.push(`${20000 + i * 7},${y},${100 + i * (y - 1940)}`);

const SECTORS = ['Country,Variable,Year,MAN'];
for (const c of ['BWA', 'CHN', 'IND']) for (const v of ['VA', 'EMP']) for (let y = 1999; y <= 2001; y++) SECTORS.push(`${c},${v},${y},${v === 'VA' ? (c === 'BWA' ? 900000 : 1000) : c === 'CHN' ? 500 : 100}`);

describe('years beside dates, level words and numeric codes', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'dev.csv': DEV.join('\n'), 'us_zip_codes.csv': ZIPS.join('\n'), 'votes.csv': VOTES.join('\n'), 'cities.csv': CITIES.join('\n'), 'sectors.csv': SECTORS.join('\n') });
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

  it('sets two numbers of one column side by side ("status 0 vs status 2")', async () => {
    const a = await rig.ask('avg CPI status 0 vs status 2', ['votes.csv']);
    assert.doesNotMatch(a.message, /No rows match/, a.message);
    assert.match(a.message, /- 2: 6\b/, a.message);
    assert.match(a.message, /- 0: 4\b/, a.message);
  });

  it('never names a winner among groups that each have the same number of rows', async () => {
    const a = await rig.ask('biggest city_code in 1950', ['cities.csv']);
    assert.doesNotMatch(a.message, /tie for the highest/, a.message);
    if (!/can't answer/.test(a.message)) assert.match(a.message, /counting rows ranks nothing/, a.message);
  });

  it('never adds up rows whose `Variable` says they hold different things', async () => {
    const a = await rig.ask('which Country has the most MAN in 2000', ['sectors.csv']);
    assert.doesNotMatch(a.message, /\*\*BWA\*\*/, a.message);
    const b = await rig.ask('which Country has the most MAN for EMP in 2000', ['sectors.csv']);
    assert.match(b.message, /\*\*CHN\*\*/, b.message);
  });
});
