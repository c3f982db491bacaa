/**
 * Hours are told apart only by a time (issue 22: "hours counted as distinct days when the time is in
 * another column"). A day in one column and the time in another make the moment of each row, so
 * "how many hours" and "by hour" count hours; a column of days alone cannot tell hours apart, and
 * the engine says so instead of counting each day as one hour.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const HOURLY = ['date,time,pm10,no2'];
const DAILY = ['date,pm10'];
let above = 0;
const no2ByHour = new Map<number, number[]>();
for (let d = 1; d <= 5; d++) {
  for (let h = 0; h < 24; h++) {
    const pm10 = (d * 37 + h * 11) % 400;
    const no2 = (h * 7) % 50 + d;
    if (pm10 > 300) above++;
    no2ByHour.set(h, [...(no2ByHour.get(h) ?? []), no2]);
    HOURLY.push(`2021-03-0${d},${String(h).padStart(2, '0')}:00,${pm10},${no2}`);
  }
  DAILY.push(`2021-03-0${d},${d * 90}`);
}
// Trading days: Thursdays trade most.
const TRADES = ['Date,Volume'];
for (let d = 1; d <= 28; d++) {
  const day = new Date(Date.UTC(2021, 1, d));
  if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
  TRADES.push(`2021-02-${String(d).padStart(2, '0')},${day.getUTCDay() === 4 ? 900 : 100 + d}`);
}
// Fires, a few without the date they were put out: those are no weekday.
const FIRES = ['fire_id,out_date,size'];
for (let i = 0; i < 60; i++) FIRES.push(`${i},${i % 20 === 0 ? '' : `2020-03-${String(2 + (i % 5) + (i % 3 === 0 ? 7 : 0)).padStart(2, '0')}`},${i}`);
// Dates written year first with the month's name ("2015 Jun 15"), as browser statistics export them.
const SHARES = ['date,Firefox'];
for (let d = 0; d < 40; d++) SHARES.push(`${d < 20 ? '2015 Dec' : '2016 Jan'} ${String((d % 20) + 1).padStart(2, '0')},${(20 - d * 0.1).toFixed(1)}`);

describe('hours and days', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'air_hourly.csv': HOURLY.join('\n'), 'air_daily.csv': DAILY.join('\n'), 'browser_usage.csv': SHARES.join('\n'), 'msft.csv': TRADES.join('\n'), 'fires.csv': FIRES.join('\n') });
  });
  after(async () => rig?.close());

  it('counts hours from the day and the time together', async () => {
    const a = await rig.ask('how many hours was pm10 above 300', ['air_hourly.csv']);
    assert.match(a.message, new RegExp(`\\*\\*${above}\\*\\*`), a.message);
    assert.match(a.code.join('\n'), /"date" \+ "time"/, a.code.join('\n'));
  });

  it('groups by hour of day over the time column', async () => {
    const a = await rig.ask('average no2 by hour of day', ['air_hourly.csv']);
    const at7 = no2ByHour.get(7) ?? [];
    const mean7 = at7.reduce((x, y) => x + y, 0) / at7.length;
    assert.match(a.message, new RegExp(`07:00[^\\n]*${mean7}`), a.message);
  });

  it('never counts days as hours where the file holds no time', async () => {
    const a = await rig.ask('how many hours was pm10 above 300', ['air_daily.csv']);
    assert.doesNotMatch(a.message, /\*\*2\*\*/, a.message);
    assert.doesNotMatch(a.code.join('\n'), /date_trunc\('hour'/, a.code.join('\n'));
  });

  it('reads dates written year first with the month\'s name', async () => {
    const a = await rig.ask('average firefox in 2016', ['browser_usage.csv']);
    // 2016: d = 20..39, 20 - d/10 -> 18.0 .. 16.1, mean 17.05.
    assert.match(a.message, /\*\*17\.05\*\*/, a.message);
  });

  it('ranks weekdays: which weekday has the highest avg volume', async () => {
    const a = await rig.ask('which weekday has the highest avg volume', ['msft.csv']);
    assert.match(a.message, /\*\*Thursday\*\*/, a.message);
  });

  it('reads "the last day" as the latest day in the data', async () => {
    const a = await rig.ask('firefox on the last day', ['browser_usage.csv']);
    // The last row: 2016 Jan 20, 20 - 3.9.
    assert.match(a.message, /\*\*16\.1/, a.message);
  });

  it('never drops a "+" between two columns', async () => {
    const a = await rig.ask('firefox + firefox in 2016', ['browser_usage.csv']);
    assert.doesNotMatch(a.message, /\*\*17\.05/, a.message);
  });

  it('never names the undated rows the lowest weekday', async () => {
    const a = await rig.ask('fires by weekday', ['fires.csv']);
    assert.doesNotMatch(a.message.split('\n').find((l) => /highest in/.test(l)) ?? '', /missing/, a.message);
  });
});
