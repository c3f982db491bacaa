/**
 * "X has the highest …, followed by Y and Z" is computed from the values, never from row order
 * (issue 13: an unordered "minimum revenue by region" named Asia highest while South America was),
 * with ties said as ties and negative numbers ranked as numbers.
 */
import { strict as assert } from 'node:assert';
import { startRig, type Collected, type EngineRig } from './engineHarness';

const SALES = ['region,revenue',
  'Asia,12.74', 'Asia,20', 'Europe,11.99', 'Europe,30', 'North America,12.74', 'North America,15', 'South America,13.49', 'South America,14',
].join('\n');
const TIES = ['team,points', 'Ants,7', 'Bees,9', 'Cats,9', 'Dogs,4'].join('\n');
const COLD = ['site,temp', 'Alpha,-12.5', 'Beta,-3', 'Gamma,-40', 'Delta,-3.5'].join('\n');
/** 130 parcels share the highest tax: more than a ranking shows. */
const TAXES = ['parcel,tax', ...Array.from({ length: 130 }, (_, i) => `P${i},666`), 'Q1,300', 'Q2,250'].join('\n');

const lead = (a: Collected): string => a.message.split('\n').find((l) => /followed by|tie for|has the/.test(l)) ?? a.message;

describe('narrative rankings follow the values (issue 13)', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'sales.csv': SALES, 'ties.csv': TIES, 'cold.csv': COLD, 'taxes.csv': TAXES });
  });
  after(async () => rig?.close());

  it('an unordered result is ranked by value, not by row order', async () => {
    const a = await rig.ask('minimum revenue by region', ['sales.csv']);
    assert.match(lead(a), /\*\*South America\*\* has the highest minimum `revenue` \(13\.49\), followed by (Asia|North America) \(12\.74\) and (Asia|North America) \(12\.74\)/);
  });

  it('says a tie for first place is a tie', async () => {
    const a = await rig.ask('points by team', ['ties.csv']);
    assert.match(lead(a), /\*\*Bees\*\* and \*\*Cats\*\* tie for the highest total `points` \(9\), followed by Ants \(7\) and Dogs \(4\)/);
  });

  it('ranks negative numbers as numbers, both ways', async () => {
    const hi = await rig.ask('total temp per site', ['cold.csv']);
    assert.match(lead(hi), /\*\*Beta\*\* has the highest total `temp` \(-3\.00\), followed by Delta \(-3\.50\) and Alpha \(-12\.50\)/);
    const lo = await rig.ask('which site has the lowest temp', ['cold.csv']);
    assert.match(lo.message, /Gamma/);
    assert.match(lo.message, /-40/);
  });

  it('reads listed aggregates as one measure each, never one of them as a ranking', async () => {
    // Defect: "minimum and maximum revenue by region" answered "the lowest maximum" (one number).
    for (const q of ['minimum and maximum revenue by region', 'min, max and average revenue per region']) {
      const a = await rig.ask(q, ['sales.csv']);
      const t = a.tables[0] ?? [];
      const row = (region: string): string[] => t.find((r) => r[0] === region) ?? [];
      assert.equal(t.length, 5, `${q}: ${a.message}`);
      assert.deepEqual(row('Europe').slice(1, 3), ['11.99', '30'], q);
      assert.deepEqual(row('South America').slice(1, 3), ['13.49', '14'], q);
      if (/average/.test(q)) assert.equal(row('Asia')[3], '16.37');
    }
  });

  it('a tie larger than the rows shown is said as "at least", never as a count', async () => {
    const a = await rig.ask('highest tax', ['taxes.csv']);
    assert.match(a.message, /At least 101 rows of 132 rows share the highest `tax` \(\*\*666\*\*\)/);
    assert.doesNotMatch(a.message, /The 101 rows with the highest/);
  });
});
