/**
 * Tables of counts (a failure class from a probe on R's contingency tables: Titanic, UCBAdmissions,
 * HairEyeColor as data frames). Each row stands for `Freq` people, and the engine counted rows:
 * "how many people survived" was 16 (rows) where 711 people did. Now people are counted by summing
 * the counts, and "what share of crew survived" is taken among the crew, not among all rows.
 * "Which class had the highest survival rate" answered with counts (the crew: most survivors, lowest
 * rate); a rate is now the share meeting the condition, and per group it is refused.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const VOYAGE = ['Class,Sex,Survived,Freq',
  'First,Male,No,100', 'First,Male,Yes,50', 'First,Female,No,5', 'First,Female,Yes,95',
  'Crew,Male,No,600', 'Crew,Male,Yes,190', 'Crew,Female,No,3', 'Crew,Female,Yes,20'].join('\n');
/** Not a table of counts: `count` sits beside a measure. */
const RENTALS = ['day,temp,count', '2024-01-01,5.5,120', '2024-01-02,7.0,80', '2024-01-03,21.5,300', '2024-01-04,22.0,310'].join('\n');

describe('tables of counts (a failure class from a probe on R contingency tables)', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'voyage.csv': VOYAGE, 'rentals.csv': RENTALS });
  });
  after(async () => rig?.close());

  it('counts people by summing the counts, and rows only when rows are asked for', async () => {
    const a = await rig.ask('how many people survived', ['voyage.csv']);
    assert.match(a.message, /\*\*355\*\*/, a.message);
    const b = await rig.ask('how many crew members', ['voyage.csv']);
    assert.match(b.message, /\*\*813\*\*/, b.message);
    const c = await rig.ask('number of survivors by sex', ['voyage.csv']);
    assert.match(c.message, /Male[^\n]*240/, c.message);
    const d = await rig.ask('how many rows are there', ['voyage.csv']);
    assert.match(d.message, /\*\*8\*\*/, d.message);
  });

  it('takes a share among the group named after "of"', async () => {
    // 210 of the 813 crew survived.
    const a = await rig.ask('what share of crew survived', ['voyage.csv']);
    assert.match(a.message, /25\.8%/, a.message);
    assert.match(a.message, /210 of 813/);
  });

  it('leaves a table whose count sits beside a measure alone', async () => {
    const a = await rig.ask('how many days had temp above 20', ['rentals.csv']);
    assert.match(a.message, /\*\*2\*\*/, a.message);
  });

  it('reads a rate as a share, and a rate per group as the share within each group, never as ranked counts', async () => {
    // 115 of the 123 women survived.
    const a = await rig.ask('survival rate of women', ['voyage.csv']);
    assert.match(a.message, /93\.5%/, a.message);
    // First: 145 of 250 survived (58%); crew: 210 of 813 (25.8%).
    const b = await rig.ask('which class had the highest survival rate', ['voyage.csv']);
    assert.match(b.message, /highest in \*\*First\*\* \(58%\)/, b.message);
    assert.match(b.message, /25\.8% \(210 of 813\)/, b.message);
  });
});
