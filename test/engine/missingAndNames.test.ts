/**
 * Failure classes from a probe on real R exports (Palmer penguins, SSA life tables):
 * - "NA" written in a text column is a missing value, and numbers written as text count "NA" as
 *   missing too, so "which columns have missing values" and "how many have no sex" are right;
 * - the file's subject ("penguins" for penguins_raw.csv) names the rows, and a word every value of a
 *   short list shares ("Adelie Penguin", "Gentoo penguin") is never a filter (it matched nothing);
 * - "which columns have missing values" lists every column, even when "values" could name one;
 * - "the heaviest penguin, and what species" is one row with its species, and "which species is
 *   heaviest" compares averages: never a total of weights per species;
 * - "life expectancy at 90" puts 90 on the one whole-number column it fits (`Age`), not on the
 *   measured column that never reaches it ("no rows match" was the answer);
 * - a column name of several words written as one ("LifeExp") is that column, not another that
 *   shares a word with it (`NumberOfLives`).
 */
import { strict as assert } from 'node:assert';
import { nullMarkersOf } from '../../src/server/engine/missingMarkers';
import { startRig, type EngineRig } from './engineHarness';

const PENGUINS = ['studyName,Species,Island,Sex,Body Mass (g)',
  'PAL0708,Adelie Penguin (Pygoscelis adeliae),Torgersen,MALE,3750', 'PAL0708,Adelie Penguin (Pygoscelis adeliae),Torgersen,NA,NA',
  'PAL0708,Gentoo penguin (Pygoscelis papua),Biscoe,FEMALE,4500', 'PAL0809,Gentoo penguin (Pygoscelis papua),Biscoe,MALE,5700',
  'PAL0809,Chinstrap penguin (Pygoscelis antarctica),Dream,NA,3500', 'PAL0910,Gentoo penguin (Pygoscelis papua),Biscoe,FEMALE,4900',
].join('\n');
const LIFE = ['Age,Sex,DeathProb,NumberOfLives,LifeExp', '65,Male,0.0158,"83,000",17.9', '65,Female,0.0097,"88,000",20.36', '66,Female,0.0107,"87,100",19.55'].join('\n');

describe('missing markers and names (failure classes from a probe on real R exports)', function () {
  this.timeout(60_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'penguins_raw.csv': PENGUINS, 'life.csv': LIFE });
  });
  after(async () => rig?.close());

  it('knows which text values mean "no value", and leaves codes and categories alone', () => {
    assert.deepEqual(nullMarkersOf(['FEMALE', 'MALE', 'NA']), ['NA']);
    assert.deepEqual(nullMarkersOf(['AS', 'EU', 'NA']), [], 'NA among two-letter codes is North America');
    assert.deepEqual(nullMarkersOf(['gold', 'none', 'silver']), [], '"none" among categories is one');
  });

  it('counts NA as missing in text columns and in numbers written as text', async () => {
    const sex = await rig.ask('how many penguins have no sex recorded', ['penguins_raw.csv']);
    assert.match(sex.message, /\*\*2\*\*/);
    const cols = await rig.ask('which columns have missing values', ['penguins_raw.csv']);
    const rows = cols.tables[0] ?? [];
    const missing = new Map(rows.slice(1).map((r) => [r[0], Number(r[1])]));
    assert.equal(missing.get('Sex'), 2);
    assert.equal(missing.get('Body Mass (g)'), 1);
  });

  it('reads the file\'s subject as its rows, never as a filter on a word all values share', async () => {
    const a = await rig.ask('which island has the most penguins', ['penguins_raw.csv']);
    assert.match(a.message, /Biscoe/);
    assert.doesNotMatch(a.message, /No rows match|contains/);
    const b = await rig.ask('avg body mass of penguins on biscoe', ['penguins_raw.csv']);
    assert.match(b.message, /5,033\.33/);
  });

  it('reads a run-together column name as that column', async () => {
    const a = await rig.ask('LifeExp for Female where Age = 65', ['life.csv']);
    assert.match(a.message, /20\.36/);
    assert.doesNotMatch(a.message, /NumberOfLives/);
  });

  it('reads "the heaviest penguin" as one row, and "which species is heaviest" as averages, never totals', async () => {
    const one = await rig.ask('heaviest penguin - which one and what species', ['penguins_raw.csv']);
    assert.match(one.message, /5,700|5700/);
    assert.doesNotMatch(one.message, /total/i);
    assert.match(JSON.stringify(one.tables[0]?.[1] ?? []), /Gentoo/);
    const group = await rig.ask('which species is heaviest', ['penguins_raw.csv']);
    assert.match(group.message, /average/i);
    assert.doesNotMatch(group.message, /total/i);
  });

  it('puts "at 66" on the whole-number column the number fits, not on the measured column', async () => {
    const a = await rig.ask('LifeExp at 66 by sex', ['life.csv']);
    assert.match(a.message, /19\.55/);
    assert.doesNotMatch(a.message, /No rows match|no rows match/);
  });
});
