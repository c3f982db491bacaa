/**
 * The overview says how the table's columns are read (issue 22, point 4): a column of counts that
 * counts add up, codes never added up, yes/no written as letters, placeholders counted as missing;
 * and a margin made of a price and a cost column (the README's "Which products have the highest margin?").
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRig, type EngineRig } from './engineHarness';

const SURVEY = ['station,answer,active,region,freq'];
for (let i = 0; i < 40; i++) SURVEY.push(`${1000 + (i % 12)},${i % 2 === 0 ? 'Yes' : 'No'},${i % 3 === 0 ? 'Y' : 'N'},${i % 5 === 0 ? 'N/A' : i % 2 === 0 ? 'North' : 'South'},${i + 1}`);

const CATALOG = ['sku,product,list_price_usd,unit_cost_usd', 'A1,Tent,300,180', 'A2,Stove,120,40', 'A3,Lamp,60,45', 'A4,Pack,150,100'];

describe('the overview says how the columns are read', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'survey.csv': SURVEY.join('\n'), 'catalog.csv': CATALOG.join('\n'), 'targets.xlsx': readFileSync(join(__dirname, '../../samples/targets.xlsx')) });
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

  it('reads a margin made of the price and cost columns, and says so', async () => {
    const a = await rig.ask('Which products have the highest margin?', ['catalog.csv']);
    assert.match(a.message, /\*\*Tent\*\*/, a.message);
    const b = await rig.ask('give me an overview', ['catalog.csv']);
    assert.match(b.message, /`margin` is `list_price_usd` minus `unit_cost_usd`/, b.message);
  });

  it('counts the file\'s columns, and labels a date made of others as derived (samples/targets.xlsx)', async () => {
    // Defect (issue 24): "32 rows, 7 columns" and "Profiled the first 6 columns": the seventh was the derived `date`.
    const a = await rig.ask('Give me an overview of this data', ['targets.xlsx']);
    assert.doesNotMatch(a.message, /Profiled the first/, a.message);
    assert.match(a.message, /32 rows, 6 columns\./, a.message);
    assert.match(a.message, /`date` is a date made of `year`[^\n]*\(derived: it is not in the file\)/, a.message);
    assert.ok(a.steps.some((st) => /^Profile targets\.xlsx.*\(32 rows, 6 columns\)$/.test(st.name)), JSON.stringify(a.steps));
  });
});
