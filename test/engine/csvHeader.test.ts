/**
 * A CSV whose header names are numbers ("state","1856","1860") and whose data lines write numbers
 * bare was read without its header (probe A's votes_repub): the header became a row, 1860 a vote
 * share, and the columns `column00`.. The quoted first line says it is the header.
 * Monthly dates written M/D/YYYY (2/1/1980) were read day-first (probe A's wage_rigidity): the day
 * of the month is the field that never changes.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const VOTES = ['"state","1856","1860","1864"', '"Alabama",NA,NA,51.44', '"Maine",61.37,64.15,59.07', '"Ohio",48.49,52.33,56.33', '"Vermont",78.23,75.86,76.1'].join('\n');

const US = ['date,value'];
const EU = ['date,value'];
for (let m = 1; m <= 12; m++) {
  US.push(`${m}/1/1980,${m}`);
  EU.push(`01/${String(m).padStart(2, '0')}/1980,${m}`);
}

describe('a quoted header of numbers is the header; monthly slashed dates keep their month', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'votes.csv': VOTES, 'us.csv': US.join('\n'), 'eu.csv': EU.join('\n') });
  });
  after(async () => rig?.close());

  it('names the columns after the header and counts only the data rows', async () => {
    const table = rig.sources.get('votes.csv')?.ingest;
    const names = table?.kind === 'tables' ? table.tables[0]?.columns.map((c) => c.name) : [];
    assert.deepEqual(names, ['state', '1856', '1860', '1864']);
    const a = await rig.ask('how many rows', ['votes.csv']);
    assert.match(a.message, /\*\*4\*\*/, a.message);
    assert.match(a.code.join('\n'), /header = true/);
  });

  it('reads 2/1/1980, 3/1/1980... as months (the day never changes), and 01/02/1980... day-first', async () => {
    for (const name of ['us.csv', 'eu.csv']) {
      const a = await rig.ask('total value by month', [name]);
      assert.equal(a.tables[0]?.length, 13, `${name}: ${JSON.stringify(a.tables[0])}`);
      assert.match(JSON.stringify(a.tables[0]), /1980-12/, name);
    }
  });
});
