/**
 * Wide tables (issue 22, point 4): one measure spread over one column per year. Questions about
 * them are about rows of (country, year, value), so the table is read through UNPIVOT: "in 2010",
 * "by year" and "which country … in 2000" work, the overview and answers say how it was read, the
 * shown SQL gives the same numbers on the user's own file, and a header of bare years is a header.
 */
import { strict as assert } from 'node:assert';
import { runShownSql, startRig, type EngineRig } from './engineHarness';

const YEARS = [1990, 1995, 2000, 2005, 2010];
const COUNTRIES = ['France', 'Germany', 'Japan', 'Brazil', 'India', 'Chad'];
/** Population of country i in year j; Chad has no figure for 1990. */
const pop = (i: number, j: number): number | undefined => (i === 5 && j === 0 ? undefined : 1000 + ((i * 7919 + j * 104_729) % 90_000));
const lines = (years: string[], quote: boolean): string => {
  const q = (s: string): string => (quote ? `"${s}"` : s);
  return [[q('country'), q('code'), ...years.map(q)].join(','),
    ...COUNTRIES.map((c, i) => [q(c), q(c.slice(0, 3).toUpperCase()), ...YEARS.map((_y, j) => String(pop(i, j) ?? (quote ? 'NA' : '')))].join(','))].join('\n');
};
const fmt = (n: number): string => n.toLocaleString('en-US');
const sumOf = (j: number): number => COUNTRIES.reduce((s, _c, i) => s + (pop(i, j) ?? 0), 0);

describe('year columns: one column per year read as rows', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({
      'population.csv': lines(YEARS.map(String), false),
      'exports.csv': lines(YEARS.map((y) => `X${y}`), true),
      'three_years.csv': ['site,2019,2020,2021', 'a,5,6,7', 'b,8,9,10'].join('\n'),
    });
  });
  after(async () => rig?.close());

  it('answers a country and a year from a header of bare years, with the shown SQL giving the same number', async () => {
    const a = await rig.ask('population of France in 2010', ['population.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${fmt(pop(0, 4) ?? 0)}\\*\\*`), a.message);
    assert.match(a.message, /one column per year \(1990 to 2010\): read as rows of `year` and `population`/, a.message);
    const shown = await runShownSql(a.code[0] ?? '', rig.dir);
    assert.equal(Number(shown.at(-1)?.rows[0]?.[0]), pop(0, 4));
  });

  it('totals by year, leaving out a year a country has no figure for', async () => {
    const a = await rig.ask('total population by year', ['population.csv']);
    const table = a.tables[0] ?? [];
    for (const [j, y] of YEARS.entries()) assert.equal(Number(table.find((r) => r[0] === String(y))?.[1]), sumOf(j), JSON.stringify(table));
  });

  it('ranks the countries within one year', async () => {
    const a = await rig.ask('which country had the highest population in 2000', ['population.csv']);
    const best = COUNTRIES.map((c, i) => ({ c, v: pop(i, 2) ?? 0 })).sort((x, y) => y.v - x.v)[0];
    assert.match(a.message, new RegExp(`\\*\\*${best?.c}\\*\\*`), a.message);
    assert.match(a.message, new RegExp(fmt(best?.v ?? 0)), a.message);
  });

  it('reads "from 1990 to 2000" as years, not as a range of the measure', async () => {
    const a = await rig.ask('total population from 1990 to 2000', ['population.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${fmt(sumOf(0) + sumOf(1) + sumOf(2))}\\*\\*`), a.message);
  });

  it("reads R's X1990 columns too, and says so in the overview", async () => {
    const a = await rig.ask('average exports of Japan', ['exports.csv']);
    const mean = YEARS.map((_y, j) => pop(2, j) ?? 0).reduce((s, v) => s + v, 0) / YEARS.length;
    assert.match(a.message, new RegExp(`\\*\\*${fmt(mean)}\\*\\*`), a.message);
    const o = await rig.ask('overview', ['exports.csv']);
    assert.match(o.message, /`exports\.csv` has one column per year \(1990 to 2010\)/, o.message);
  });

  it('offers no chip by month when the dates are years alone', async () => {
    const a = await rig.ask('total population by country', ['population.csv']);
    assert.ok(a.questions.length > 0);
    for (const q of a.questions) assert.doesNotMatch(q, /month/, q);
  });

  it('leaves a table with only three year columns as it is', async () => {
    const a = await rig.ask('total 2020', ['three_years.csv']);
    assert.match(a.message, /\*\*15\*\*/, a.message);
  });
});
