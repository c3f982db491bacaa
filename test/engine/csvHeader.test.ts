/**
 * A CSV whose header names are numbers ("state","1856","1860") and whose data lines write numbers
 * bare was read without its header (probe A's votes_repub): the header became a row, 1860 a vote
 * share, and the columns `column00`.. The quoted first line says it is the header.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const VOTES = ['"state","1856","1860","1864"', '"Alabama",NA,NA,51.44', '"Maine",61.37,64.15,59.07', '"Ohio",48.49,52.33,56.33', '"Vermont",78.23,75.86,76.1'].join('\n');

describe('a quoted header of numbers is the header', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'votes.csv': VOTES });
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
});
