/**
 * Failure classes of first-sight probe B, on synthetic tables: everyday words read as a search of
 * names ("biggest bank" picked a firm called "Bank"; "new" searched every name), "us cities" lost
 * its place, a verb ending the question ("who died") was dropped, and rows were ranked by a yes/no
 * column ("which surgeon did the most transplants"). Probe C: "los angeles county" searched the
 * district names for "county"; "yankees homers 1961" took both nouns for the players and listed rows.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const CATEGORIES = ['Banking', 'Oil & gas operations', 'Insurance', 'Retailing'];
const FIRMS = ['name,country,category,marketvalue'];
for (let i = 0; i < 80; i++) {
  const name = i === 5 ? 'Bank' : i === 9 ? 'New Frontier Media' : i === 13 ? 'New World Fund' : `Firm ${i}`;
  // Firm 40 (Banking) is the largest bank; Firm 3 (Retailing) the largest firm; "Bank" is a small bank.
  const value = i === 40 ? 900 : i === 3 ? 1000 : i === 5 ? 2 : 10 + i;
  FIRMS.push(`${name},${i % 3 === 0 ? 'United States' : 'Japan'},${CATEGORIES[i % 4] as string},${value}`);
}

const EMOJI = ['name,group,version'];
for (let i = 0; i < 60; i++) EMOJI.push(`${i === 4 ? 'new moon face' : i === 8 ? 'NEW button' : `emoji ${i}`},${i % 2 === 0 ? 'Smileys' : 'Symbols'},${i < 50 ? 13 : 15}`);

const CITIES = ['city,country,population'];
for (let i = 0; i < 30; i++) CITIES.push(`City ${i},${i % 3 === 0 ? 'United States' : 'France'},${i % 3 === 0 ? 1000 : 5000}`);

const PATIENTS = ['id,transplant,fustat,age'];
for (let i = 1; i <= 30; i++) PATIENTS.push(`${i},${i % 2},${i % 5 === 0 ? 1 : 0},${30 + i}`);

const SCHOOLS = ['dname,cname,enroll'];
for (let i = 0; i < 60; i++) SCHOOLS.push(`${i % 7 === 0 ? `Orange County District ${i}` : `District ${i}`},${i % 2 === 0 ? 'Los Angeles' : 'San Diego'},${100 + i}`);

const BATTING = ['id,year,team,hr'];
for (let i = 0; i < 48; i++) BATTING.push(`player${i % 12},${1960 + (i % 3)},${i % 2 === 0 ? 'NYA' : 'BOS'},${i}`);

describe('everyday words, places and verbs read as asked', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'schools.csv': SCHOOLS.join('\n'), 'batting.csv': BATTING.join('\n'), 'emoji.csv': EMOJI.join('\n'), 'forbes.csv': FIRMS.join('\n'), 'cities.csv': CITIES.join('\n'), 'heart.csv': PATIENTS.join('\n') });
  });
  after(async () => rig?.close());

  it('reads "bank" as the Banking category, never as a firm named "Bank"', async () => {
    const a = await rig.ask('biggest bank by market value', ['forbes.csv']);
    assert.match(a.message, /\*\*900\*\*/, a.message);
    assert.doesNotMatch(a.message, /"Bank"/, a.message);
  });

  it('never searches every name for an everyday word ("new"), and still reads a category word ("oil")', async () => {
    const a = await rig.ask('number of new emoji', ['emoji.csv']);
    assert.doesNotMatch(a.message, /contains|\*\*2\*\*/, a.message);
    const b = await rig.ask('how many firms in oil', ['forbes.csv']);
    assert.match(b.message, /\*\*20\*\*/, b.message);
  });

  it('reads "us cities" as cities in the United States', async () => {
    const a = await rig.ask('avg population of us cities', ['cities.csv']);
    assert.match(a.message, /\*\*1,?000\*\*/, a.message);
  });

  it('refuses a clause the data holds nothing about ("who died") and a ranking by a yes/no column', async () => {
    const a = await rig.ask('% of transplanted patients who died', ['heart.csv']);
    assert.match(a.message, /can't answer/, a.message);
    const b = await rig.ask('which surgeon did the most transplants', ['heart.csv']);
    assert.match(b.message, /can't answer/, b.message);
  });

  it('reads "los angeles county" as the county, never a search of names for "county"', async () => {
    const a = await rig.ask('total enrollment los angeles county', ['schools.csv']);
    // Rows 0, 2, ..., 58: 30 rows of 100 + i.
    assert.match(a.message, /\*\*3,?870\*\*/, a.message);
  });

  it('refuses two nouns taken for the same people instead of dropping both', async () => {
    const a = await rig.ask('yankees homers 1961', ['batting.csv']);
    assert.match(a.message, /can't answer/, a.message);
  });
});
