/**
 * Long and panel tables (issue 22, point 4):
 * - a key column whose values name measures (`indicator` GDP, Population, …) over one `value`
 *   column: "GDP of France in 2003" is `value` where `indicator` is "GDP", never every indicator
 *   added together;
 * - a panel of levels (a rate for each country and year): "which country has the highest rate"
 *   names no year, so the engine asks between the latest year and all years;
 * - codes and names of the same things (`Country Code`, `Country Name`): answers name them;
 * - a wide file's empty cells are rows with no value, and a year column empty in every row is no year.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const NATIONS = [['France', 'FRA'], ['Spain', 'ESP'], ['Italy', 'ITA'], ['Chile', 'CHL']] as const;
const INDICATORS = ['GDP', 'Population', 'Unemployment rate'];
const YEARS = [2000, 2001, 2002, 2003, 2004, 2005];
const figure = (c: number, k: number, y: number): number => Math.round((1 + ((c * 31 + k * 17 + y * 7) % 97)) * 100) / 100;

const LONG = ['country,indicator,year,value'];
NATIONS.forEach(([name], c) => INDICATORS.forEach((ind, k) => YEARS.forEach((y) => LONG.push(`${name},${ind},${y},${figure(c, k, y)}`))));

/** A rate for each nation and year, one column per year, with 2006 empty everywhere and Chile missing 2000. */
const rate = (c: number, y: number): number | undefined => (c === 3 && y === 2000 ? undefined : Math.round((1.2 + ((c * 13 + y * 5) % 40) / 10) * 100) / 100);
const WIDE = [['Country Name', 'Country Code', ...YEARS.map(String), '2006'].join(',')];
NATIONS.forEach(([name, code], c) => WIDE.push([name, code, ...YEARS.map((y) => String(rate(c, y) ?? '')), ''].join(',')));

const fmt = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

describe('long tables and panels', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'indicators.csv': LONG.join('\n'), 'birth_rate.csv': WIDE.join('\n') });
  });
  after(async () => rig?.close());

  it('reads a value of the key column as the measure it names', async () => {
    const a = await rig.ask('GDP of France in 2003', ['indicators.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${fmt(figure(0, 0, 2003))}\\*\\*`), a.message);
    const b = await rig.ask('average unemployment rate by country', ['indicators.csv']);
    const spain = YEARS.reduce((s, y) => s + figure(1, 2, y), 0) / YEARS.length;
    assert.equal(Number(b.tables[0]?.find((r) => r[0] === 'Spain')?.[1]).toFixed(2), spain.toFixed(2), JSON.stringify(b.tables[0]));
  });

  it('gives the trend of that measure, not a count of its rows', async () => {
    const a = await rig.ask('GDP trend for Spain', ['indicators.csv']);
    const t = a.tables[0] ?? [];
    assert.equal(Number(t.find((r) => r[0] === '2004')?.at(-1)), figure(1, 0, 2004), JSON.stringify(t));
  });

  it('says in the overview which values name measures', async () => {
    const a = await rig.ask('overview', ['indicators.csv']);
    assert.match(a.message, /`indicator` names what `value` measures: `GDP` is `value` where `indicator` is "GDP"/, a.message);
  });

  it('asks which year is meant when a panel of rates is ranked without one', async () => {
    const a = await rig.ask('which country has the highest birth rate', ['birth_rate.csv']);
    assert.match(a.message, /more than one way/, a.message);
    assert.match(a.message, /in 2005/, a.message);
    const b = await rig.ask('which country has the highest birth rate on average', ['birth_rate.csv']);
    assert.doesNotMatch(b.message, /more than one way/, b.message);
  });

  it('names the countries, not their codes', async () => {
    const a = await rig.ask('which country had the highest birth rate in 2002', ['birth_rate.csv']);
    const best = NATIONS.map(([name], c) => ({ name, v: rate(c, 2002) ?? 0 })).sort((x, y) => y.v - x.v)[0];
    assert.match(a.message, new RegExp(`\\*\\*${best?.name}\\*\\*`), a.message);
  });

  it('counts the empty cells of a year as rows with no value, and leaves out a year empty in every row', async () => {
    const a = await rig.ask('how many rows have no value for 2000?', ['birth_rate.csv']);
    assert.match(a.message, /\*\*1\*\*/, a.message);
    const o = await rig.ask('overview', ['birth_rate.csv']);
    assert.match(o.message, /one column per year \(2000 to 2005 \(`2006` is empty\)\)/, o.message);
  });
});
