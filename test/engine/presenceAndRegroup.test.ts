/**
 * Two classes of probe F:
 * - "policies that have a deny statement" over a count column (`deny_statements` 0, 1, 3) means more
 *   than none, not "the count is known" (every row knows it, so all rows were returned);
 * - a follow-up that groups a listing ("titles released in 2021", then "by month") counts the listed
 *   rows per month and keeps the listing's condition, instead of starting over on the whole file.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const POLICIES = ['policy_name,deny_statements,versions'];
for (let i = 0; i < 40; i++) POLICIES.push(`Policy${i},${i % 8 === 0 ? 2 : i % 13 === 0 ? 1 : 0},${1 + (i % 5)}`);
const withDeny = POLICIES.slice(1).filter((l) => Number(l.split(',')[1]) > 0).length;

const TITLES = ['title,released_at,kind'];
const perMonth2021 = new Array<number>(12).fill(0);
for (let i = 0; i < 90; i++) {
  const year = 2019 + (i % 3);
  const month = 1 + ((i * 5) % 12);
  if (year === 2021) perMonth2021[month - 1] = (perMonth2021[month - 1] ?? 0) + 1;
  TITLES.push(`Title ${i},${year}-${String(month).padStart(2, '0')}-1${i % 9},${i % 2 === 0 ? 'movie' : 'series'}`);
}

describe('presence of a count, and follow-ups that group a listing', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'managed_policies.csv': POLICIES.join('\n'), 'titles.csv': TITLES.join('\n') });
  });
  after(async () => rig?.close());

  it('reads "have a deny statement" as a count above zero', async () => {
    const a = await rig.ask('how many policies have a deny statement', ['managed_policies.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${withDeny}\\*\\*`), a.message);
    assert.match(a.code.join('\n'), /"deny_statements" > 0/, a.code.join('\n'));
  });

  it('keeps the year of a listing when the follow-up groups it by month', async () => {
    const a = await rig.ask('by month', ['titles.csv'], { history: ['titles released in 2021'] });
    const sql = a.code.join('\n');
    assert.match(sql, /2021-01-01/, sql);
    // Every month of 2021 with its count of titles, and no month of another year.
    perMonth2021.forEach((n, m) => { if (n > 0) assert.match(a.message, new RegExp(`2021-${String(m + 1).padStart(2, '0')}[^\\n]*: ${n}\\b`), a.message); });
    assert.doesNotMatch(a.message, /2019-|2020-/, a.message);
  });
});
