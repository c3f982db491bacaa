/**
 * Real formats typed at ingest (issue 11, point 3): text dates as exports write them ("Jun 12 1998",
 * "2015/01/01 01:00:00", ISO with T and Z, MM/DD/YYYY, Excel serial numbers in a date-named
 * column) filter by year, and money and percent written as text are averaged and summed as numbers.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

describe('real-world formats are typed at ingest (issue 11)', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({
      'a.csv': 'when,amount,share\nJun 12 1998,"$1,234.50",45%\nJan 1 2000,$20.00,5%\nFeb 3 2000,"$1,000.00",10%\n',
      'b.csv': 'stamp,amount\n2015/01/01 01:00:00,3\n2015/02/01 01:00:00,4\n2016/01/01 02:00:00,5\n',
      'c.csv': 'ts,amount\n2020-01-05T10:00:00Z,1\n2020-02-05T10:00:00Z,2\n2021-03-05T10:00:00Z,4\n',
      'd.csv': 'order_date,amount\n36526,10\n36892,20\n36900,5\n',
      'e.csv': 'day,amount\n03/15/2024,1\n12/01/2023,2\n12/20/2023,3\n',
    });
  });
  after(async () => rig?.close());

  const first = async (q: string, f: string): Promise<string> => (await rig.ask(q, [f])).message.split('\n')[0] ?? '';

  it('reads month-name dates and money written with $ and thousands separators', async () => {
    assert.match(await first('total amount in 2000', 'a.csv'), /in 2000: \*\*1,020\*\*/);
    assert.match(await first('average share', 'a.csv'), /Average `share`: \*\*20\*\*/);
  });

  it('reads slashed timestamps, ISO with T and Z, US dates and Excel serials', async () => {
    assert.match(await first('total amount in 2015', 'b.csv'), /in 2015: \*\*7\*\*/);
    const perYear = await rig.ask('total amount per year', ['c.csv']);
    assert.deepEqual((perYear.tables[0] ?? []).slice(1).map((r) => `${String(r[0]).slice(0, 4)}:${String(r[1])}`), ['2020:3', '2021:4']);
    // 36892 and 36900 are 2001-01-01 and 2001-01-09 in Excel's 1900 system.
    assert.match(await first('total amount in 2001', 'd.csv'), /in 2001: \*\*25\*\*/);
    assert.match(await first('total amount in 2023', 'e.csv'), /in 2023: \*\*5\*\*/);
  });
});

describe('ids typed as UUID (JSON and Parquet readers infer them)', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  // Every question over such a file failed with "the job failed" (probe F): text functions do not take a UUID.
  const titles = ['Movie', 'TV Show', 'Movie'].map((type, i) => ({ name: `t${i}`, type, uniq_id: `39e5ebf0-3ccd-52e0-a9ed-79dcd7ba059${i}` }));
  before(async () => {
    rig = await startRig({ 'titles.json': JSON.stringify(titles) });
  });
  after(async () => rig?.close());

  it('answers over a table with a UUID column', async () => {
    const a = await rig.ask('how many movies vs tv shows', ['titles.json']);
    assert.match(a.message, /Movie: 2/, a.message);
    const b = await rig.ask('number of distinct uniq_id', ['titles.json']);
    assert.match(b.message, /\*\*3\*\*/, b.message);
  });
});
