/**
 * Places said as words the data does not hold (probes B and C):
 * - "us employment 1990 vs 2017": "us" was read as the pronoun and the country filter was dropped;
 * - "chinese holidays", "german airlines", "japanese cities": an adjective of a country (WordNet's
 *   pertainym: "japanese" is of Japan) was not matched to the country's name or code;
 * - "and japan?" after a question about the US kept the US in `country` beside Japan's `isocode`.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const PWT = ['country,isocode,year,emp'];
for (let y = 1990; y <= 1995; y++) {
  PWT.push(`United States of America,USA,${y},${100 + y - 1990}`);
  PWT.push(`Japan,JPN,${y},${60 + y - 1990}`);
  PWT.push(`Germany,DEU,${y},${40 + y - 1990}`);
  for (const [name, code] of [['France', 'FRA'], ['Chile', 'CHL'], ['Peru', 'PER'], ['Spain', 'ESP'], ['Italy', 'ITA'], ['Brazil', 'BRA'], ['India', 'IND'], ['China', 'CHN'], ['Mexico', 'MEX'], ['Canada', 'CAN'], ['Norway', 'NOR'], ['Kenya', 'KEN']]) PWT.push(`${name},${code},${y},${10 + y - 1990}`);
}

// Countries held only as their ISO codes.
const CITIES = ['city,iso2,population'];
for (let i = 0; i < 18; i++) CITIES.push(`City ${i},${['JP', 'CN', 'DE'][i % 3] as string},${1000 * (i + 1)}`);

describe('places said as pronoun-like words and adjectives', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'pwt.csv': PWT.join('\n'), 'cities.csv': CITIES.join('\n') });
  });
  after(async () => rig?.close());

  it('reads "us" before a noun as the United States', async () => {
    const a = await rig.ask('us emp 1990 vs 1995', ['pwt.csv']);
    assert.match(a.message, /United States of America|USA/, a.message);
    assert.doesNotMatch(a.message, /Japan|Germany/, a.message);
    assert.match(a.message, /\b105\b/, a.message);
  });

  it('reads "japanese" and "german" as the countries they are of, held as codes', async () => {
    // Japanese cities: i = 0, 3, ..., 15 → 1000 * (1 + 4 + 7 + 10 + 13 + 16) = 51,000.
    const a = await rig.ask('total population of japanese cities', ['cities.csv']);
    assert.match(a.message, /51,000/, a.message);
    const b = await rig.ask('how many german cities', ['cities.csv']);
    assert.match(b.message, /\*\*6\*\*/, b.message);
  });

  it('replaces the place of the answer before with the one a follow-up names, whichever column holds it', async () => {
    const a = await rig.ask('and japan?', ['pwt.csv'], { history: ['us emp 1990 vs 1995'] });
    assert.doesNotMatch(a.message, /more than one way/, a.message);
    assert.doesNotMatch(a.message, /United States/, a.message);
    assert.match(a.message, /\b65\b/, a.message);
  });
});
