/**
 * Failure classes found by asking real users' questions of real tables the suites do not hold
 * (weekly CO2 readings, a long-format survey, a births study), checked on the plan, on a synthetic
 * schema of the same shapes (no database):
 * - "how many readings" counts rows; "how many co2 readings" / "values of co2" the rows with a value; "how many
 *   individuals" over a whole-number `individual` column counts individuals, not their sum;
 * - a cue word is never a column name cut short ("distinct" is not `dis`, "lowest" not `low`);
 * - "latest", "most recent", "first recorded" order by the date, not by the value;
 * - "change from 1960 to 2000" is not answered with one total over the range, nor "the first week
 *   of 1980" with the whole year (while "the first quarter of 1980" is Q1);
 * - a weak word ("other") right after its column's name is that column's value;
 * - a level (a CO2 reading) named without an aggregate is averaged, not added up;
 * - "people who chose mode 2" with a 0/1 `choice` column keeps choice = 1, and "of individuals"
 *   names whose rows they are, not a second measure.
 */
import { strict as assert } from 'node:assert';
import { readQuestion } from '../../src/server/engine/reader';
import { nameTokens } from '../../src/server/engine/schemaIndex';
import type { AggregatePlan, ColumnMeta, Plan, TableMeta } from '../../src/server/engine/types';

type Understanding = Plan | { kind: 'unanswerable' };

function col(name: string, kind: ColumnMeta['kind'], extra: Partial<ColumnMeta> = {}): ColumnMeta {
  return {
    name, type: kind === 'numeric' ? 'DOUBLE' : kind === 'temporal' ? 'DATE' : 'VARCHAR', kind,
    expr: `"${name}"`, converted: false, tokens: nameTokens(name), nonNull: 1000, distinct: 50, unique: false, ...extra,
  };
}

function table(file: string, columns: ColumnMeta[]): TableMeta {
  const alias = file.replace(/\.csv$/, '');
  return {
    table: `src_${alias}`, alias, label: file, source: { id: alias, datasetId: 'd', name: file, fileName: file, type: 'FILE', status: 'synched' },
    ingested: { table: `src_${alias}`, rowCount: 1000, columns: [] }, rowCount: 1000, tokens: nameTokens(alias), columns,
  };
}

const readings = table('co2.csv', [col('date', 'temporal', { min: '1958-03-29', max: '2001-12-29' }), col('co2', 'numeric', { min: 313, max: 374, distinct: 800 })]);
const daily = table('daily.csv', [col('day', 'temporal', { min: '2024-01-01', max: '2024-12-31' }), col('revenue', 'numeric', { min: 9000.5, max: 15000.25 })]);
const survey = table('modechoice.csv', [
  col('individual', 'numeric', { type: 'BIGINT', min: 1, max: 210, distinct: 210 }), col('mode', 'numeric', { type: 'BIGINT', min: 1, max: 4, distinct: 4 }),
  col('passengers', 'numeric', { type: 'BIGINT', min: 0, max: 6, distinct: 7 }), col('psize', 'numeric', { type: 'BIGINT', min: 1, max: 6, distinct: 6 }),
  col('choice', 'numeric', { type: 'BIGINT', min: 0, max: 1, distinct: 2 }), col('hinc', 'numeric', { min: 2, max: 72 }),
]);
const houses = table('houses.csv', [col('dis', 'numeric', { min: 1.1, max: 12.1, distinct: 400 }), col('rad', 'numeric', { type: 'BIGINT', min: 1, max: 24, distinct: 9 }), col('medv', 'numeric', { min: 5, max: 50 })]);
const births = table('births.csv', [
  col('low', 'numeric', { type: 'BIGINT', min: 0, max: 1, distinct: 2 }), col('race', 'text', { values: ['black', 'other', 'white'], distinct: 3 }),
  col('bwt', 'numeric', { type: 'BIGINT', min: 709, max: 4990, distinct: 130 }),
]);

/** Shapes of the second first-sight probe (B1): a school code column, a monthly series named `month`. */
const scores = table('scores.csv', [
  col('School', 'numeric', { type: 'BIGINT', min: 1224, max: 9586, distinct: 160 }), col('Sex', 'text', { values: ['Female', 'Male'], distinct: 2 }),
  col('MathAch', 'numeric', { min: -2.8, max: 24.9, distinct: 5000 }),
]);
const monthly = table('temps.csv', [col('month', 'temporal', { min: '1920-01-01', max: '1939-12-01', distinct: 240 }), col('avg_temp_f', 'numeric', { min: 31, max: 66, distinct: 200 })]);

function ask(t: TableMeta, q: string): Understanding {
  const d = readQuestion(q, [], [t]);
  return d.kind === 'answer' ? d.reading.plan : { kind: 'unanswerable' };
}
function agg(u: Understanding): AggregatePlan {
  assert.equal(u.kind, 'aggregate', JSON.stringify(u).slice(0, 300));
  return u as AggregatePlan;
}
const measures = (u: Understanding): string => agg(u).measures.map((m) => `${m.agg}${m.col ? `:${m.col.column.name}` : ''}`).join(',');

describe('counting and cue words (failure classes from a probe on real tables)', () => {
  it('counts rows, rows with a value, and the things a whole-number id column names, never their sum', () => {
    assert.equal(measures(ask(readings, 'how many readings are there')), 'count');
    assert.equal(measures(ask(readings, 'how many readings in 1958')), 'count');
    const withValue = agg(ask(readings, 'how many co2 readings'));
    assert.equal(measures(withValue), 'count');
    assert.deepEqual(withValue.filters.map((f) => `${f.col.column.name}:${f.kind}`), ['co2:null']);
    for (const q of ['how many values of co2 in 1975', 'how many co2 values in 1980']) {
      const values = agg(ask(readings, q));
      assert.equal(measures(values), 'count', q);
      assert.ok(values.filters.some((f) => f.kind === 'null' && f.col.column.name === 'co2' && !f.isNull), q);
    }
    assert.equal(measures(ask(survey, 'how many individuals are there')), 'count_distinct:individual');
    // A column named for a count is summed: "how many passengers" over `passengers`.
    assert.equal(measures(ask(survey, 'how many passengers')), 'sum:passengers');
  });

  it('never reads a cue word as a column name cut short', () => {
    assert.equal(measures(ask(houses, 'how many distinct rad values are there')), 'count_distinct:rad');
    const low = ask(births, 'lowest bwt for white mothers');
    assert.ok(!JSON.stringify(low).includes('"name":"low"'), JSON.stringify(low).slice(0, 300));
  });

  it('orders by the date for latest, most recent and first recorded', () => {
    for (const [q, dir] of [['latest co2 reading', 'desc'], ['most recent co2 value', 'desc'], ['when was co2 first recorded', 'asc']] as const) {
      const u = ask(readings, q);
      assert.equal(u.kind, 'rows', `${q}: ${JSON.stringify(u).slice(0, 200)}`);
      assert.equal(u.kind === 'rows' ? u.orderBy?.col.column.name : undefined, 'date', q);
      assert.equal(u.kind === 'rows' ? u.orderBy?.dir : undefined, dir, q);
    }
  });

  it('does not answer a change between two dates with one total over the range', () => {
    // A change is told as its course: the series over the range, never one total.
    const u = agg(ask(readings, 'co2 change from 1960 to 2000'));
    assert.ok(u.dims.length > 0 && u.dims[0]?.grain === 'year', JSON.stringify(u.dims.map((x) => x.grain)));
    assert.ok(agg(ask(readings, 'how did co2 change per year')).dims.length > 0);
    // A share of averages is no share at all.
    assert.notEqual(JSON.stringify(ask(readings, 'percentage of average co2 by year')).includes('"share":true'), true);
  });

  it('takes a weak word right after its column name as that value', () => {
    for (const q of ['max bwt for race other', 'max bwt where race is other']) {
      const a = agg(ask(births, q));
      assert.equal(measures(a), 'max:bwt', q);
      assert.deepEqual(a.dims, [], q);
      assert.deepEqual(a.filters.map((f) => (f.kind === 'in' ? `${f.col.column.name}=${f.values.join('|')}` : f.kind)), ['race=other'], q);
    }
  });

  it('averages a level (decimals within a factor of 3) unless a total is asked; amounts still add up', () => {
    assert.equal(measures(ask(readings, 'co2 by year')), 'avg:co2');
    assert.equal(measures(ask(readings, 'how did co2 change over time')), 'avg:co2');
    assert.equal(measures(ask(readings, 'total co2 in 1980')), 'sum:co2');
    assert.equal(measures(ask(daily, 'revenue by month')), 'sum:revenue');
  });

  it('keeps a yes/no column its verb names, and reads "of individuals" as the rows', () => {
    for (const q of ['average psize of people who chose mode 4', 'average hinc of individuals who chose mode 1']) {
      const a = agg(ask(survey, q));
      assert.equal(a.measures.length, 1, `${q}: ${measures(a)}`);
      assert.ok(a.filters.some((f) => f.col.column.name === 'choice'), `${q}: the choice = 1 condition is kept`);
      assert.ok(a.filters.some((f) => f.col.column.name === 'mode'), q);
    }
  });

  it('reads the first or last part of a period, and the quarters', () => {
    const range = (q: string): string => JSON.stringify(agg(ask(readings, q)).filters.map((f) => (f.kind === 'dateRange' ? [f.from, f.to] : f.kind)));
    assert.equal(range('co2 in the first week of 1980'), '[["1980-01-01","1980-01-08"]]');
    assert.equal(range('co2 in the last month of 1999'), '[["1999-12-01","2000-01-01"]]');
    assert.equal(range('average co2 in the first 10 days of 1990'), '[["1990-01-01","1990-01-11"]]');
    const q1 = agg(ask(readings, 'co2 in the first quarter of 1980'));
    assert.equal(q1.filters.length, 1);
    // An ordinal word is never a column's value ("first" is not co2 = 1).
    assert.ok(!JSON.stringify(ask(readings, 'when was co2 first recorded')).includes('"op":"="'));
  });

  it('lists so many rows, sample rows, and finds duplicates said with a verb', () => {
    for (const [q, n] of [['show 5 rows', 5], ['first 10 rows', 10], ['show 5 sample rows', 5]] as const) {
      const u = ask(daily, q);
      assert.ok(u.kind === 'rows' && u.limit === n, `${q}: ${JSON.stringify(u).slice(0, 200)}`);
    }
    assert.equal(ask(daily, 'are there duplicate rows').kind, 'duplicates');
  });

  it('counts whole-number columns by their names: plural counts add up, singular things are counted once', () => {
    assert.equal(measures(ask(survey, 'how many passengers')), 'sum:passengers');
    assert.equal(measures(ask(survey, 'how many individuals are there')), 'count_distinct:individual');
  });

  it('never ANDs two values of one column ("girls vs boys"), counts things by the plural of a singular name, and groups a date named `month` by month', () => {
    const vs = agg(ask(scores, 'avg math score girls vs boys'));
    assert.deepEqual(vs.filters.map((f) => (f.kind === 'in' ? `${f.col.column.name}=${f.values.join('|')}` : f.kind)), ['Sex=Female|Male']);
    assert.deepEqual(vs.dims.map((d) => d.col.column.name), ['Sex']);
    assert.equal(measures(ask(scores, 'how many schools')), 'count_distinct:School');
    const byMonth = agg(ask(monthly, 'avg temp by month'));
    assert.deepEqual(byMonth.dims.map((d) => `${d.col.column.name}:${d.grain ?? ''}`), ['month:month']);
  });

  it('reads "%" as a share, and a condition added in a follow-up narrows the whole the share is of', () => {
    const first = agg(ask(births, 'what % of rows have a bwt above 3000'));
    assert.equal(first.shareOfFiltered, true);
    const d = readQuestion('same for race white only', ['what % of rows have a bwt above 3000'], [births]);
    assert.equal(d.kind, 'answer');
    const p = d.kind === 'answer' ? (d.reading.plan as AggregatePlan) : undefined;
    const whole = (p?.shareScope ?? []).map((i) => p?.filters[i]?.col.column.name);
    assert.deepEqual(whole, ['race'], JSON.stringify(p?.filters.map((f) => f.col.column.name)));
  });

  it('a follow-up superlative takes its adjective\'s column and direction ("and the youngest?" after "the oldest")', () => {
    const ppl = table('patients.csv', [col('name', 'text', { values: ['Ann', 'Bob', 'Cid'], distinct: 3, unique: true }), col('age', 'numeric', { min: 8, max: 64, distinct: 40 })]);
    const first = readQuestion('who was the oldest patient', [], [ppl]);
    assert.ok(first.kind === 'answer' && first.reading.plan.kind === 'rows' && first.reading.plan.orderBy?.dir === 'desc');
    const next = readQuestion('and the youngest?', ['who was the oldest patient'], [ppl]);
    const plan = next.kind === 'answer' ? next.reading.plan : undefined;
    assert.ok(plan?.kind === 'rows' && plan.orderBy?.col.column.name === 'age' && plan.orderBy.dir === 'asc', JSON.stringify(plan?.kind === 'rows' ? plan.orderBy?.dir : plan?.kind));
  });

  it('a follow-up keeps a condition whose word is both the file\'s noun and a yes/no column ("only those who got a transplant")', () => {
    const tx = table('heart_transplant.csv', [
      col('accept_dt', 'temporal', { min: '1967-11-15', max: '1974-03-22', distinct: 100 }), col('transplant', 'numeric', { type: 'BIGINT', min: 0, max: 1, distinct: 2 }),
      col('age', 'numeric', { min: 8, max: 64, distinct: 90 }),
    ]);
    const d = readQuestion('only those who got a transplant', ['how many patients per year'], [tx]);
    assert.equal(d.kind, 'answer');
    const plan = d.kind === 'answer' ? d.reading.plan : undefined;
    assert.ok(plan?.kind === 'aggregate' && plan.filters.some((f) => f.col.column.name === 'transplant'), JSON.stringify(plan?.kind === 'aggregate' ? plan.filters.map((f) => f.kind) : plan?.kind));
  });
});
