/**
 * Column names written the way data files write them (issue 22, "everyday words for a measure"):
 * a yes/no column named with its verb (`hasWiFi`, `is_active`) is named by the thing alone ("wifi"),
 * and a name run together with a glue word inside (`beerpercap`) is named by the words spelled out
 * ("beer per capita").
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const STATIONS = ['station,hasWiFi,is_staffed,beerpercap', 'a,true,yes,10', 'b,false,no,20', 'c,true,no,30', 'd,true,yes,40'];

describe('column names run together or led by a verb', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'stations.csv': STATIONS.join('\n') });
  });
  after(async () => rig?.close());

  it('reads "wifi" as `hasWiFi`', async () => {
    const a = await rig.ask('how many stations have wifi', ['stations.csv']);
    assert.match(a.message, /`hasWiFi`/, a.message);
    assert.match(a.message, /\*\*3\*\*/, a.message);
  });

  it('reads "staffed" as `is_staffed`', async () => {
    const a = await rig.ask('how many stations are staffed', ['stations.csv']);
    assert.match(a.message, /\*\*2\*\*/, a.message);
  });

  it('reads "beer per capita" as `beerpercap`', async () => {
    const a = await rig.ask('avg beer per capita', ['stations.csv']);
    assert.match(a.message, /`beerpercap`/, a.message);
    assert.match(a.message, /\*\*25\*\*/, a.message);
  });
});
