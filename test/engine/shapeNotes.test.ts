/**
 * The overview says how the table's columns are read (issue 22, point 4): a column of counts that
 * counts add up, codes never added up, yes/no written as letters, placeholders counted as missing.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const SURVEY = ['station,answer,active,region,freq'];
for (let i = 0; i < 40; i++) SURVEY.push(`${1000 + (i % 12)},${i % 2 === 0 ? 'Yes' : 'No'},${i % 3 === 0 ? 'Y' : 'N'},${i % 5 === 0 ? 'N/A' : i % 2 === 0 ? 'North' : 'South'},${i + 1}`);

describe('the overview says how the columns are read', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'survey.csv': SURVEY.join('\n') });
  });
  after(async () => rig?.close());

  it('names the weight, the codes, the yes/no letters and the placeholders', async () => {
    const a = await rig.ask('give me an overview', ['survey.csv']);
    assert.match(a.message, /How I read it/, a.message);
    assert.match(a.message, /`freq` says how many each row stands for/, a.message);
    assert.match(a.message, /`station` holds codes/, a.message);
    assert.match(a.message, /`active` is yes or no/, a.message);
    assert.match(a.message, /In `region`, "N\/A" count as missing/, a.message);
  });
});
