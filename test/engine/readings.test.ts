/**
 * The failure classes of issue 11, each on a small file and checked through the whole engine: a
 * column phrase that contains an aggregate word, a value or a number the question names, row
 * nouns, readings that must be asked about instead of guessed, alternatives that answer exactly
 * what they say, and files whose key columns have different names.
 */
import { strict as assert } from 'node:assert';
import { startRig, type Collected, type EngineRig } from './engineHarness';

const STOCKS = ['day,high_price,low_price,price,volume'];
for (let i = 0; i < 60; i++) {
  const d = new Date(Date.UTC(2020 + Math.floor(i / 20), i % 12, 1 + (i % 27)));
  STOCKS.push(`${d.toISOString().slice(0, 10)},${100 + i},${50 + i},${80 + i},${1000 + 10 * i}`);
}
const ORDERS = ['order_id,items,amount'];
for (let i = 1; i <= 40; i++) ORDERS.push(`${i},${1 + (i % 5)},${(i * 7) % 90}`);
const WEATHER = ['date,conditions,temp_max,temp_min'];
const CONDITIONS = ['sun', 'rain', 'snow', 'fog'];
for (let i = 0; i < 120; i++) WEATHER.push(`${new Date(Date.UTC(2021, 0, 1 + i)).toISOString().slice(0, 10)},${CONDITIONS[(i * 7 + (i >> 2)) % 4]},${(i % 17) + 10},${(i % 11) - 3}`);
const MOVIES = JSON.stringify([
  { Title: 'A', Director: 'Ada Lovelace', 'US Gross': 100, Rating: 7.1 }, { Title: 'B', Director: 'Ada Lovelace', 'US Gross': 300, Rating: null },
  { Title: 'C', Director: 'Grace Hopper', 'US Gross': 50, Rating: 6 }, { Title: 'D', Director: null, 'US Gross': null, Rating: 8 },
  { Title: 'E', Director: 'Alan Turing', 'US Gross': 20, Rating: 5.5 },
]);
const PEOPLE = 'name,age,height\nAnna,31,170\nBen,45,182\nCara,28,165\nDan,52,177\n';
const GROUPS = 'group,person\nred,Anna\nred,Ben\nblue,Cara\nblue,Dan\nblue,Anna\n';
const CLUBS = 'club,city,wins\nOtters,Lyon,12\nHerons,Lyon,9\nFoxes,Turin,15\nLynxes,Oslo,4\n';

const first = (a: Collected): string => a.message.split('\n')[0] ?? '';
const cell = (a: Collected, r: number, c: string): string | undefined => {
  const t = a.tables[a.tables.length - 1];
  const i = t?.[0]?.indexOf(c) ?? -1;
  return i < 0 ? undefined : t?.[r]?.[i];
};

describe('readings of real-world phrasings (issue 11 classes)', function () {
  this.timeout(120_000);
  let rig: EngineRig;

  before(async () => {
    rig = await startRig({
      'stocks.csv': STOCKS.join('\n'), 'orders.csv': ORDERS.join('\n'), 'weather.csv': WEATHER.join('\n'), 'movies.json': MOVIES,
      'people.csv': PEOPLE, 'groups.csv': GROUPS, 'clubs.csv': CLUBS,
    });
  });
  after(async () => rig?.close());

  it('reads "average high price per year" as the average of `high_price`, not a maximum of `price`', async () => {
    const a = await rig.ask('average high price per year', ['stocks.csv']);
    assert.match(first(a), /Average `high_price` by year of `day`/);
    assert.equal(a.tables[0]?.[0]?.join(','), 'year,avg_high_price');
    assert.equal(a.tables[0]?.[1]?.join(','), '2020,109.5');
  });

  it('uses a number the question names as a value: "how many orders have 3 items"', async () => {
    const a = await rig.ask('how many orders have 3 items', ['orders.csv']);
    assert.match(first(a), /where `items` = 3: \*\*8\*\*/);
  });

  it('counts days by a value of a category: "how many days did it snow"', async () => {
    const want = WEATHER.slice(1).filter((l) => l.split(',')[1] === 'snow').length;
    const a = await rig.ask('how many days did it snow', ['weather.csv']);
    assert.match(first(a), new RegExp(`Number of days where \`conditions\` is "snow": \\*\\*${want}\\*\\*`));
  });

  it('asks instead of guessing when a word fits two columns with different answers, and each alternative answers exactly that', async () => {
    const a = await rig.ask('average temperature by month', ['weather.csv']);
    assert.equal(a.tables.length, 0, 'no number while the reading is open');
    assert.match(a.message, /more than one way/);
    const picks = a.questions.filter((q) => /`temp_(max|min)`/.test(q));
    assert.equal(picks.length, 2, a.questions.join(' | '));
    for (const q of picks) {
      const b = await rig.ask(q, ['weather.csv']);
      const col = /`(temp_max|temp_min)`/.exec(q)?.[1] ?? '';
      assert.ok(b.tables.length > 0, `the alternative "${q}" is answered`);
      assert.match(first(b), new RegExp(`\`${col}\``));
    }
  });

  it('refuses, naming the word, when a word names nothing in the data', async () => {
    const a = await rig.ask('average price of vintage stocks', ['stocks.csv']);
    assert.equal(a.tables.length, 0);
    assert.match(a.message, /"vintage"/);
  });

  it('reads a possessive surname as the values containing it, and "no X listed" as missing values', async () => {
    const a = await rig.ask("Lovelace's movies - total US gross", ['movies.json']);
    assert.match(first(a), /`Director` is "Ada Lovelace"/);
    assert.match(first(a), /\*\*400\*\*/);
    const b = await rig.ask('how many movies have no rating listed', ['movies.json']);
    assert.match(first(b), /Missing values of `Rating`/);
    assert.equal(String(b.tables[0]?.[1]?.[1]), '1', JSON.stringify(b.tables[0]));
  });

  it('peaks answer with the row they belong to', async () => {
    const a = await rig.ask('when was volume at its peak?', ['stocks.csv']);
    assert.match(first(a), /the row with the highest `volume`/);
    assert.equal(cell(a, 1, 'volume'), '1590');
    assert.equal(cell(a, 1, 'day'), STOCKS[60]?.split(',')[0]);
  });

  it('ranks one-row-per-name tables by a column, but never counts rows per a unique name', async () => {
    const a = await rig.ask('top 2 people by height', ['people.csv']);
    assert.deepEqual((a.tables[0] ?? []).slice(1).map((r) => r[(a.tables[0]?.[0] ?? []).indexOf('name')]), ['Ben', 'Dan']);
    // Each club is one row: "number of players" cannot be a count of rows per club (all 1s).
    const b = await rig.ask('top 2 clubs by number of players', ['clubs.csv']);
    assert.equal(b.tables.length, 0, b.message);
    assert.match(b.message, /"players"/);
    // Where a name repeats, counting rows per it is what was asked.
    const c = await rig.ask('top 1 city by number of clubs', ['clubs.csv']);
    assert.match(first(c), /`city`/);
    assert.equal(c.tables[0]?.[1]?.join(','), 'Lyon,2');
  });

  it('joins two files whose key columns have different names by their values', async () => {
    const a = await rig.ask('average age by group', ['people.csv', 'groups.csv']);
    const rows = Object.fromEntries((a.tables[0] ?? []).slice(1).map((r) => [r[0], Number(r[1])]));
    // red: Anna 31, Ben 45; blue: Cara 28, Dan 52, Anna 31.
    assert.deepEqual(rows, { red: 38, blue: 37 });
  });
});
