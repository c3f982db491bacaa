/**
 * Question understanding on a synthetic schema (no database): dates, numbers with units, synonyms,
 * typos, roles of named columns, follow-up refinement and honest refusals, checked on the plan.
 */
import { strict as assert } from 'node:assert';
import { tokenize } from '../../src/server/language/tokens';
import { readQuestion } from '../../src/server/engine/reader';
import { nameTokens } from '../../src/server/engine/schemaIndex';
import type { AggregatePlan, ColumnMeta, Filter, Plan, TableMeta } from '../../src/server/engine/types';

function col(name: string, kind: ColumnMeta['kind'], extra: Partial<ColumnMeta> = {}): ColumnMeta {
  return {
    name, type: kind === 'numeric' ? 'DOUBLE' : kind === 'temporal' ? 'DATE' : kind === 'boolean' ? 'BOOLEAN' : 'VARCHAR', kind,
    expr: `"${name}"`, converted: false, tokens: nameTokens(name), nonNull: 1000, distinct: 50, unique: false, ...extra,
  };
}

const sales: TableMeta = {
  table: 'src_1', alias: 'sales', label: 'sales.csv', source: { id: 's1', datasetId: 'd', name: 'sales.csv', fileName: 'sales.csv', type: 'FILE', status: 'synched' },
  ingested: { table: 'src_1', rowCount: 1000, columns: [] }, rowCount: 1000, tokens: ['sale'],
  columns: [
    col('order_id', 'numeric', { unique: true, distinct: 1000 }), col('order_date', 'temporal', { min: '2023-01-01', max: '2024-12-31' }),
    col('region', 'text', { values: ['Europe', 'Asia', 'North America'], distinct: 3 }), col('channel', 'text', { values: ['online', 'retail'], distinct: 2 }),
    col('qty', 'numeric', { distinct: 9, min: 1, max: 9 }), col('unitPrice', 'numeric', { min: 5, max: 500 }), col('discount', 'numeric', { min: 0, max: 0.3 }),
    col('revenue', 'numeric', { min: 1, max: 5000, distinct: 950 }), col('is_returned', 'boolean', { distinct: 2 }), col('temp_c', 'numeric'),
  ],
};
const tables = [sales];
type Read = Plan | { kind: 'unanswerable' };
function ask(q: string, history: string[] = []): Read {
  const d = readQuestion(q, history, tables);
  return d.kind === 'answer' ? d.reading.plan : { kind: 'unanswerable' };
}

function agg(u: Read): AggregatePlan {
  assert.equal(u.kind, 'aggregate', JSON.stringify(u).slice(0, 200));
  return u as AggregatePlan;
}
const names = (fs: readonly Filter[]): string[] => fs.map((f) => `${f.col.column.name}:${f.kind}`);

describe('question understanding', () => {
  it('reads years, months, quarters, ISO dates, ranges and relative windows', () => {
    const d = (q: string): string => JSON.stringify(agg(ask(`total revenue ${q}`)).filters.map((x) => (x.kind === 'dateRange' ? [x.from ?? null, x.to ?? null, null] : x.kind === 'datePart' ? [null, null, x.values[0]] : [x.kind])));
    assert.equal(d('revenue in 2024'), '[["2024-01-01","2025-01-01",null]]');
    assert.equal(d('in March 2024'), '[["2024-03-01","2024-04-01",null]]');
    assert.equal(d('in Q1 2024'), '[["2024-01-01","2024-04-01",null]]');
    assert.equal(d('the first quarter of 2023'), '[["2023-01-01","2023-04-01",null]]');
    assert.equal(d('between March and June 2024'), '[["2024-03-01","2024-07-01",null]]');
    assert.equal(JSON.stringify(agg(ask('total revenue from march to june')).filters.map((x) => (x.kind === 'datePart' ? x.values : x.kind))), '[[3,4,5,6]]');
    assert.equal(JSON.stringify(agg(ask('total revenue in march and june 2024')).filters.map((x) => (x.kind === 'periods' ? x.ranges : x.kind))),
      '[[{"from":"2024-03-01","to":"2024-04-01"},{"from":"2024-06-01","to":"2024-07-01"}]]');
    assert.equal(d('from 2024-02-10 to 2024-02-20'), '[["2024-02-10","2024-02-21",null]]');
    assert.equal(d('since 2024-07'), '[["2024-07-01",null,null]]');
    assert.equal(d('before 2024'), '[[null,"2024-01-01",null]]');
    assert.equal(d('on 03/15/2024'), '[["2024-03-15","2024-03-16",null]]');
    assert.equal(d('on 15.03.2024'), '[["2024-03-15","2024-03-16",null]]');
    assert.equal(d('in the last 30 days'), '[["2024-12-02","2025-01-01",null]]');
    assert.equal(d('last year'), '[["2023-01-01","2024-01-01",null]]');
    assert.equal(d('in May'), '[[null,null,5]]');
    assert.ok(!JSON.stringify(ask('you may see the total revenue')).includes('datePart'), 'the verb may is not a month');
  });

  it('reads numbers with units and scales percentages to fraction columns', () => {
    const t = tokenize('over $1.5k and 20% and 30°C and 2,500.75');
    assert.deepEqual(t.filter((x) => x.kind === 'number').map((x) => [x.value, x.unit]), [[1500, '$'], [20, '%'], [30, '°c'], [2500.75, undefined]]);
    const p = agg(ask('average revenue where discount above 20%'));
    const f = p.filters[0];
    assert.ok(f?.kind === 'cmp' && f.col.column.name === 'discount' && f.op === '>' && Math.abs(f.value - 0.2) < 1e-12);
    const m = agg(ask('how many sales over $2k'));
    assert.ok(m.filters[0]?.kind === 'cmp' && m.filters[0].col.column.name === 'revenue' && m.filters[0].value === 2000);
    const c = agg(ask('how many readings warmer than 30 degrees'));
    assert.ok(c.filters[0]?.kind === 'cmp' && c.filters[0].col.column.name === 'temp_c');
  });

  it('maps names in any style, abbreviations, synonyms, plurals and typos to columns', () => {
    assert.equal(agg(ask('total quantity by region')).measures[0]?.col?.column.name, 'qty');
    assert.equal(agg(ask('average unit price')).measures[0]?.col?.column.name, 'unitPrice');
    assert.equal(agg(ask('sales by channel')).measures[0]?.col?.column.name, 'revenue');
    assert.equal(agg(ask('total reveune by region')).measures[0]?.col?.column.name, 'revenue');
    const p = agg(ask('revenue per regions in North America'));
    assert.deepEqual(p.dims.map((d) => d.col.column.name), ['region']);
    assert.ok(p.filters[0]?.kind === 'in' && p.filters[0].values[0] === 'North America');
  });

  it('assigns roles: measures, two groupings, ranking, share, flags and distinct counts', () => {
    const two = agg(ask('average revenue by region and channel'));
    assert.deepEqual(two.dims.map((d) => d.col.column.name), ['region', 'channel']);
    assert.equal(two.measures[0]?.agg, 'avg');
    const top = agg(ask('top 2 regions by revenue'));
    assert.equal(top.limit, 2);
    assert.equal(top.order, 'desc');
    assert.equal(top.measures[0]?.agg, 'sum');
    const share = agg(ask('share of revenue by channel'));
    assert.equal(share.share, true);
    const flag = agg(ask('how many returned sales'));
    assert.deepEqual(names(flag.filters), ['is_returned:bool']);
    const notFlag = agg(ask('revenue of non returned sales'));
    assert.ok(notFlag.filters[0]?.kind === 'bool' && notFlag.filters[0].value === false);
    const neg = agg(ask('revenue excluding Europe'));
    assert.ok(neg.filters[0]?.kind === 'in' && neg.filters[0].negate);
    const time = agg(ask('monthly revenue'));
    assert.equal(time.dims[0]?.grain, 'month');
    const trend = agg(ask('revenue trend'));
    assert.equal(trend.dims[0]?.grain, 'month', 'two years of data trend by month');
  });

  it('routes distributions, correlations, data quality and overviews to their own plans', () => {
    assert.equal(ask('distribution of revenue').kind, 'histogram');
    assert.equal(ask('is unit price correlated with revenue').kind, 'correlation');
    assert.equal(ask('what correlates with revenue').kind, 'correlationScan');
    assert.equal(ask('which columns have missing values').kind, 'missing');
    assert.equal(ask('are there duplicate rows').kind, 'duplicates');
    assert.equal(ask('outliers in revenue').kind, 'outliers');
    assert.equal(ask('give me an overview of this data').kind, 'overview');
    assert.equal(ask('show 5 sample rows').kind, 'rows');
  });

  it('refines the previous question for follow-ups', () => {
    const base = ['total revenue by region'];
    const only2024 = agg(ask('now only for 2024', base));
    assert.deepEqual(only2024.dims.map((d) => d.col.column.name), ['region']);
    assert.ok(only2024.filters.some((f) => f.kind === 'dateRange' && f.from === '2024-01-01'));
    const andChannel = agg(ask('and by channel?', [...base, 'now only for 2024']));
    assert.deepEqual(andChannel.dims.map((d) => d.col.column.name), ['region', 'channel']);
    assert.ok(andChannel.filters.some((f) => f.kind === 'dateRange'), 'earlier refinements are kept');
    const instead = agg(ask('by channel instead', base));
    assert.deepEqual(instead.dims.map((d) => d.col.column.name), ['channel']);
    assert.equal(agg(ask('show it as a table', base)).chart, 'none');
    assert.equal(agg(ask('what about the average?', base)).measures[0]?.agg, 'avg');
    const asia = agg(ask('what about Asia?', ['total revenue in Europe']));
    assert.deepEqual(asia.filters.flatMap((f) => (f.kind === 'in' ? f.values : [])), ['Asia']);
    const allYears = agg(ask('for all years', ['total revenue by region in 2023']));
    assert.equal(allYears.filters.length, 0);
    assert.equal(agg(ask('top 3', base)).limit, 3);
  });

  it('refuses honestly instead of guessing', () => {
    for (const q of ['average profit by region', 'revenue by salesperson', 'revenue in Atlantis', 'what will revenue be next year?',
      'how many employees are there', 'average', 'revenue of products that were not shipped', 'what is the meaning of life']) {
      assert.equal(ask(q).kind, 'unanswerable', q);
    }
  });
});
