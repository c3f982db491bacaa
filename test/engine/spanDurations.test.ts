/**
 * Spans held in two columns (issue 22: derived values, "the time between two date columns"):
 * "average trip duration" over `start_time` and `end_time` is the mean of end minus start, in the
 * unit the spans read best in; the overview says the column is derived. A table with one date has
 * no duration to offer.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const TRIPS = ['trip_id,city,start_time,end_time,fare'];
const minutes: Array<{ city: string; m: number }> = [];
for (let i = 0; i < 40; i++) {
  const city = ['Paris', 'Lyon'][i % 2] as string;
  const m = 5 + ((i * 37) % 50);
  const start = new Date(Date.UTC(2024, 0, 1 + (i % 20), 8 + (i % 9), (i * 7) % 60));
  const end = new Date(start.getTime() + m * 60_000);
  const iso = (d: Date): string => d.toISOString().slice(0, 19).replace('T', ' ');
  TRIPS.push(`${i},${city},${iso(start)},${iso(end)},${(10 + i).toFixed(2)}`);
  minutes.push({ city, m });
}
const STAYS = ['patient,ward,admission_date,discharge_date'];
const days: number[] = [];
for (let i = 0; i < 30; i++) {
  const d = 1 + ((i * 5) % 12);
  const a = new Date(Date.UTC(2023, 2, 1 + i));
  STAYS.push(`p${i},${i % 3 === 0 ? 'A' : 'B'},${a.toISOString().slice(0, 10)},${new Date(a.getTime() + d * 86_400_000).toISOString().slice(0, 10)}`);
  days.push(d);
}
const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

describe('spans in two columns: the time between them', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'trips.csv': TRIPS.join('\n'), 'stays.csv': STAYS.join('\n'), 'orders.csv': ['order,order_date,amount', 'a,2024-01-01,5', 'b,2024-01-02,7', 'c,2024-01-05,9'].join('\n') });
  });
  after(async () => rig?.close());

  it('averages trip durations in minutes, overall and by city', async () => {
    const a = await rig.ask('average trip duration', ['trips.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${mean(minutes.map((x) => x.m)).toFixed(2)}\\*\\*`), a.message);
    const b = await rig.ask('average duration by city', ['trips.csv']);
    const paris = mean(minutes.filter((x) => x.city === 'Paris').map((x) => x.m));
    assert.equal(Number(b.tables[0]?.find((r) => r[0] === 'Paris')?.[1]).toFixed(2), paris.toFixed(2), JSON.stringify(b.tables[0]));
  });

  it('measures hospital stays in days and says the column is derived', async () => {
    const a = await rig.ask('average length of stay', ['stays.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${mean(days).toFixed(2)}\\*\\*`), a.message);
    const o = await rig.ask('overview', ['stays.csv']);
    assert.match(o.message, /`duration_days` is `discharge_date` minus `admission_date` \(derived/, o.message);
  });

  it('offers no duration where there is one date', async () => {
    const a = await rig.ask('average duration', ['orders.csv']);
    assert.doesNotMatch(a.message, /duration_/, a.message);
  });
});
