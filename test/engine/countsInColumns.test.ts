/**
 * Rows that are cells of a table of counts are never counted as the things (issue 22: "rows were
 * counted where a count or weight column holds the amounts"):
 * - a cross-tabulation (every combination of age, sex and year is one row) adds up its one
 *   whole-number column, whatever its name;
 * - a file named for what it counts ("mine_deaths.csv") whose column glues that word on
 *   (`respdeath`) adds up that column, not its rows;
 * - a "Total" row among numbers written as text (`agegr` 1..3, Total) is left out like any total.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

// People by single year of age (10 meaning "10 and over"), sex and year: one row per combination.
const AGES = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10+'];
const SEXES = ['Male', 'Female'];
const YEARS = [2000, 2001, 2002, 2003];
const people = (a: number, s: number, y: number): number => 1000 + 37 * a + (s === 1 ? 11 : 0) * (a + 1) + 53 * y + ((a * 7 + y * 3 + s) % 5) * 13;
const POPULATION = ['age,sex,year,population'];
AGES.forEach((age, a) => SEXES.forEach((sex, s) => YEARS.forEach((year, y) => POPULATION.push(`${age},${sex},${year},${people(a, s, y)}`))));
const sumWhere = (keep: (a: number, s: number, y: number) => boolean): number => {
  let n = 0;
  AGES.forEach((_, a) => SEXES.forEach((_s, s) => YEARS.forEach((_y, y) => { if (keep(a, s, y)) n += people(a, s, y); })));
  return n;
};

// Deaths per age group, period and exposure, with the report's total line at the end.
const DEATHS = ['agegr,period,exposure,respdeath,personyrs'];
let allDeaths = 0;
const byPeriod = [0, 0, 0];
for (let g = 1; g <= 3; g++) for (let p = 1; p <= 3; p++) for (let e = 1; e <= 2; e++) {
  if ((g + p + e) % 4 === 0) continue; // not every combination was observed
  const d = (g * 3 + p * 5 + e) % 7;
  allDeaths += d;
  byPeriod[p - 1] = (byPeriod[p - 1] ?? 0) + d;
  DEATHS.push(`${g},${p},${e},${d},${(100 + g * 31.7 + p * 12.4 + e * 3.3).toFixed(1)}`);
}
DEATHS.push(`Total,,,${allDeaths},${9999.9}`);

const fmt = (n: number): string => n.toLocaleString('en-US');

describe('counts held in a column, not in the rows', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'town_population.csv': POPULATION.join('\n'), 'mine_deaths.csv': DEATHS.join('\n') });
  });
  after(async () => rig?.close());

  it('adds up the people of a cross-tabulation: how many kids under 5 in 2001', async () => {
    const a = await rig.ask('how many kids under 5 in 2001', ['town_population.csv']);
    const truth = sumWhere((age, _s, y) => age < 5 && YEARS[y] === 2001);
    assert.match(a.message, new RegExp(`\\*\\*${fmt(truth)}\\*\\*`), a.message);
    assert.match(a.code.join('\n'), /sum\("population"\)/, a.code.join('\n'));
  });

  it('compares the people of each sex, not the number of cells: men vs women 2003', async () => {
    const a = await rig.ask('men vs women 2003', ['town_population.csv']);
    for (const s of [0, 1]) {
      const truth = sumWhere((_a, sex, y) => sex === s && YEARS[y] === 2003);
      assert.match(a.message, new RegExp(fmt(truth)), a.message);
    }
  });

  it('sums the deaths the file is named for, by period, without its total line', async () => {
    const a = await rig.ask('deaths by period', ['mine_deaths.csv']);
    const sql = a.code.join('\n');
    assert.match(sql, /sum\("respdeath"\)/, sql);
    byPeriod.forEach((n) => assert.match(a.message, new RegExp(`\\b${n}\\b`), a.message));
    assert.match(a.message, /Total/, a.message);
  });

  it('leaves the "Total" line out of a total written among numbers', async () => {
    const a = await rig.ask('total deaths', ['mine_deaths.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${allDeaths}\\*\\*`), a.message);
    assert.doesNotMatch(a.message, new RegExp(`\\*\\*${allDeaths * 2}\\*\\*`), a.message);
  });
});

// Languages spoken per territory, with each territory's population repeated on its language rows.
const TERRITORIES: Array<[string, number, number]> = [['JP', 123_000_000, 3], ['IN', 1_400_000_000, 9], ['FR', 68_000_000, 4], ['NZ', 5_000_000, 2], ['PE', 34_000_000, 3], ['CH', 9_000_000, 4]];
const SPOKEN = ['territory,territory_population,language,population_pct'];
for (const [t, pop, n] of TERRITORIES) for (let i = 0; i < n; i++) SPOKEN.push(`${t},${pop},lang${i},${Math.max(1, 90 - i * 20)}`);

describe('numbers that describe a repeated thing', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'territory_languages.csv': SPOKEN.join('\n') });
  });
  after(async () => rig?.close());

  it('adds up each territory once: total population', async () => {
    const a = await rig.ask('total population', ['territory_languages.csv']);
    const truth = TERRITORIES.reduce((s, [, pop]) => s + pop, 0);
    assert.match(a.message, new RegExp(`\\*\\*${fmt(truth)}\\*\\*`), a.message);
    assert.match(a.message, /one value per `territory`/, a.message);
  });

  it('gives one territory its own population, not times its languages: population of japan', async () => {
    const a = await rig.ask('population of japan', ['territory_languages.csv']);
    assert.match(a.message, /\*\*123,000,000\*\*/, a.message);
  });
});

// A tasting panel's 1..7 scores per product.
const TASTING = ['Consumer,Product,Bitter'];
for (let i = 0; i < 40; i++) TASTING.push(`c${i % 10},${i % 2 === 0 ? 'Yukon_L' : 'Bolero_L'},${1 + ((i * 3) % 7)}`);
const meanOf = (p: string): number => {
  const xs = TASTING.slice(1).filter((l) => l.includes(`,${p},`)).map((l) => Number(l.split(',')[2]));
  return xs.reduce((a, b) => a + b, 0) / xs.length;
};

describe('rating scales', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'carrots.csv': TASTING.join('\n') });
  });
  after(async () => rig?.close());

  it('compares a 1..7 score by its mean, never its sum: bitterness yukon_l vs bolero_l', async () => {
    const a = await rig.ask('bitterness yukon_l vs bolero_l', ['carrots.csv']);
    assert.match(a.steps[0]?.name ?? '', /^Read the question as: Average `Bitter`/, a.steps[0]?.name);
    assert.doesNotMatch(a.steps[0]?.name ?? '', /total/i, a.steps[0]?.name);
    for (const p of ['Yukon_L', 'Bolero_L']) assert.match(a.message, new RegExp(`- ${p.replace('_', '\\\\_')}: ${meanOf(p).toFixed(2)}`), a.message);
  });
});
