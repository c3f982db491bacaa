/**
 * A word that narrows the rows is never dropped (issue 22, "a filter word was silently dropped"):
 * - "how many deprecated languages" meeting a `Deprecated` date counts the rows that have one;
 * - "women", "girls" are some of the people, never all of them, where a column tells the sexes
 *   apart: `personal_status` saying "female …" in words, or a column of just F and M.
 */
import { strict as assert } from 'node:assert';
import { startRig, type EngineRig } from './engineHarness';

const SUBTAGS = ['Type,Subtag,Description,Added,Deprecated', 'language,aa,Afar,2005-10-16,', 'language,ab,Abkhazian,2005-10-16,',
  'language,xx,Old,2005-10-16,2010-01-01', 'region,FR,France,2005-10-16,2011-01-01', 'language,yy,Older,2005-10-16,2012-03-01'];
const CREDIT = ['name,personal_status,credit_amount', 'a,male single,100', 'b,female div/dep/mar,200', 'c,female div/dep/mar,300', 'd,male mar/wid,400', 'e,male single,900'];
const PUPILS = ['pupil,sx,math', 'p1,F,500', 'p2,M,600', 'p3,F,550', 'p4,M,700'];

describe('words that narrow the rows are never dropped', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'subtags.csv': SUBTAGS.join('\n'), 'credit.csv': CREDIT.join('\n'), 'pupils.csv': PUPILS.join('\n') });
  });
  after(async () => rig?.close());

  it('counts the rows that have the date an adjective names: "how many deprecated languages"', async () => {
    const a = await rig.ask('how many deprecated languages', ['subtags.csv']);
    assert.match(a.message, /\*\*2\*\*/, a.message);
  });

  it('reads "women" as the rows whose status says female', async () => {
    const a = await rig.ask('median credit amount for women', ['credit.csv']);
    assert.match(a.message, /\*\*250\*\*/, a.message);
  });

  it('reads "girls" as F in a column of F and M', async () => {
    const a = await rig.ask('avg math for girls', ['pupils.csv']);
    assert.match(a.message, /\*\*525\*\*/, a.message);
  });
});

describe('a superlative of a period', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  // One row per death: 1990 has two, 1991 one, 1992 three.
  const DEATHS = ['id,year,age,cause', '1,1990,70,heart', '2,1990,80,stroke', '3,1991,75,heart', '4,1992,90,heart', '5,1992,60,stroke', '6,1992,85,heart'];
  before(async () => {
    rig = await startRig({ 'deaths.csv': DEATHS.join('\n') });
  });
  after(async () => rig?.close());

  it('never ranks the years by themselves or by the one number column: "worst year" is refused', async () => {
    const a = await rig.ask('worst year', ['deaths.csv']);
    assert.match(a.message, /can't answer/, a.message);
    assert.doesNotMatch(a.message, /row with the/, a.message);
  });

  it('reads "busiest year" as the year with the most rows', async () => {
    const a = await rig.ask('busiest year', ['deaths.csv']);
    assert.match(a.message, /\*\*1992\*\*/, a.message);
    assert.doesNotMatch(a.message, /`age`/, a.message);
  });
});

describe('superlatives are never absorbed or assumed', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  const PLACES = ['Place,Climate,HousingCost,Crime', 'Abilene TX,521,6200,871', 'Akron OH,575,8138,1169', 'Albany GA,468,7339,1345', 'Joplin MO,600,5159,900'];
  before(async () => {
    rig = await startRig({ 'places_rated.csv': PLACES.join('\n') });
  });
  after(async () => rig?.close());

  it('ranks by "cheapest housing" instead of reading it as the name of `HousingCost`', async () => {
    const a = await rig.ask('cheapest housing', ['places_rated.csv']);
    assert.match(a.message, /lowest `HousingCost`/, a.message);
    assert.match(a.message, /5,159/, a.message);
  });

  it('never merges two opposite superlatives into one ranking: "gap between best and worst crime"', async () => {
    const a = await rig.ask('gap between best and worst crime', ['places_rated.csv']);
    assert.match(a.message, /can't answer/, a.message);
  });

  it('refuses "safest place" rather than ranking by the money column', async () => {
    const a = await rig.ask('safest place', ['places_rated.csv']);
    assert.match(a.message, /can't answer/, a.message);
  });
});

describe('what "how many" and "which" ask for', function () {
  this.timeout(120_000);
  let rig: EngineRig;
  const PIMA = ['pregnant,glucose,age,diabetes', '12,100,40,pos', '11,120,50,neg', '2,90,30,neg', '13,150,45,pos', '1,80,22,neg', '3,85,33,neg'];
  const SIDS = ['NAME,CNTY_,FIPS,BIR74', 'Ashe,1825,37009,1091', 'Alleghany,1827,37005,487', 'Durham,1950,37063,3000'];
  const FIRES = ['Date,Building,Contents,Total', '1980-01-03,1.1,0.5,1.6', '1980-01-04,2.0,1.0,3.0', '1981-02-04,1.5,0.5,2.0'];
  before(async () => {
    rig = await startRig({ 'pima_diabetes.csv': PIMA.join('\n'), 'nc_sids.csv': SIDS.join('\n'), 'danish_fire_losses.csv': FIRES.join('\n') });
  });
  after(async () => rig?.close());

  it('counts the people, not the values of a column named like the file: "how many women had more than 10 pregnancies"', async () => {
    const a = await rig.ask('how many women had more than 10 pregnancies', ['pima_diabetes.csv']);
    assert.match(a.message, /\*\*3\*\*/, a.message);
    assert.doesNotMatch(a.message, /distinct/, a.message);
  });

  it('shows the row a condition picks for "which county is fips 37063", never a total of the county numbers', async () => {
    const a = await rig.ask('which county is fips 37063', ['nc_sids.csv']);
    assert.doesNotMatch(a.message, /Total/, a.message);
    assert.ok(a.tables[0]?.some((row) => row.includes('Durham')), JSON.stringify(a.tables[0]));
  });

  it('reads another noun of the file name as its rows: "how many fires in 1980" in danish_fire_losses.csv', async () => {
    const a = await rig.ask('how many fires in 1980', ['danish_fire_losses.csv']);
    assert.match(a.message, /\*\*2\*\*/, a.message);
  });
});
