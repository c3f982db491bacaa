/**
 * The Data Explorer's service side (issue 27): a shared local service in-process, a client with a
 * lease over a temp folder, driven over HTTP. Values are checked against figures worked out by hand
 * from the small fixture below.
 */
import { strict as assert } from 'node:assert';
import { appendFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import type { ColumnSummary, ExploreOpened, ExplorePage, ExploreStatus } from '../../src/shared/explore';
import { bareDuck } from '../helpers/bareDuck';
import type { Harness } from '../helpers/serverHarness';
import { SALES_CSV, startExploreKit, type ExploreKit } from './exploreKit';

const CSV = SALES_CSV;

describe('Data Explorer routes (issue 27)', function () {
  this.timeout(120_000);
  let kit: ExploreKit;
  let h: Harness;
  let dir: string;
  let outside: string;
  let call: ExploreKit['call'];
  let ok: ExploreKit['ok'];
  let open: ExploreKit['open'];
  let ready: ExploreKit['ready'];
  let ids: ExploreKit['ids'];

  before(async () => {
    kit = await startExploreKit('explore-in-');
    ({ h, dir, call, ok, open, ready, ids } = kit);
    outside = await mkdtemp(join(tmpdir(), 'explore-out-'));
    await writeFile(join(dir, 'sales.csv'), CSV);
    await writeFile(join(outside, 'secret.csv'), CSV);
  });
  after(async () => {
    await kit.stop();
    await rm(outside, { recursive: true, force: true });
  });

  it('opens a CSV with typed columns and pages through it in the file\'s order', async () => {
    const v = await open('sales.csv');
    assert.equal(v.fileName, 'sales.csv');
    assert.deepEqual(v.columns.map((c) => [c.name, c.kind]), [['id', 'number'], ['name', 'text'], ['amount', 'number'], ['day', 'date'], ['flag', 'boolean']]);
    const first = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 2 });
    assert.deepEqual(first.rows, [[1, 'Alice', 10.5, '2024-01-05', true], [2, 'bob', null, '2024-02-10', false]]);
    const s = await ready(v.viewId);
    assert.equal(s.state, 'ready');
    assert.equal(s.rowCount, 5);
    const page = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 2, limit: 2 });
    assert.deepEqual(page.rows.map((r) => r[0]), [3, 4]);
    assert.equal(page.matching, 5);
    const past = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 5, limit: 10 });
    assert.deepEqual(past.rows, []);
  });

  it('cuts long text and list cells in a page to 2,000 characters, marked with …, sorted or not', async () => {
    const long = 'x'.repeat(5000);
    await writeFile(join(dir, 'long.jsonl'), [{ n: 2, t: long, l: Array.from({ length: 3000 }, (_, i) => i) }, { n: 1, t: 'short', l: [1, 2] }].map((r) => JSON.stringify(r)).join('\n'));
    const v = await open('long.jsonl');
    await ready(v.viewId);
    for (const query of [undefined, { sort: [{ column: 'n', desc: false }], filters: [] }]) {
      const page = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 10, ...(query ? { query } : {}) });
      const row = page.rows.find((r) => r[0] === 2) as unknown[];
      const short = page.rows.find((r) => r[0] === 1) as unknown[];
      assert.equal(typeof row[1], 'string');
      assert.equal((row[1] as string).length <= 2001, true, `text cell of ${(row[1] as string).length}`);
      assert.ok((row[1] as string).startsWith('x'.repeat(1999)) && (row[1] as string).endsWith('…'));
      assert.ok(String(row[2]).length <= 2001 && String(row[2]).endsWith('…'), `list cell of ${String(row[2]).length}`);
      assert.deepEqual([short[1], short[2]], ['short', '1, 2']);
    }
  });

  it('a page of a wide table of long text comes whole, its cells cut shorter, not cut off after some rows', async () => {
    // 400 columns of 2,500 characters: 200 rows at 2,000 a cell were 160 M characters, and the
    // runner's 64 MB cap cut the page after 83 rows, which the grid took for the end of the file.
    const cols = Array.from({ length: 400 }, (_, i) => `repeat('x', 2500) || '${i}' AS c${i}`);
    await bareDuck(dir, `COPY (SELECT range AS id, ${cols.join(', ')} FROM range(300)) TO '${join(dir, 'wide-text.parquet')}' (FORMAT parquet)`);
    const v = await open('wide-text.parquet');
    await ready(v.viewId);
    const page = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 200 });
    assert.equal(page.rows.length, 200);
    assert.deepEqual([page.rows[0]?.[0], page.rows[199]?.[0]], [0, 199]);
    const cell = String(page.rows[199]?.[400]);
    assert.ok(cell.endsWith('…') && cell.length >= 25 && cell.length < 2000, `cell of ${cell.length}`);
    const last = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 200, limit: 200 });
    assert.equal(last.rows.length, 100);
  });

  it('sorts on several columns, missing values last', async () => {
    const v = await open('sales.csv');
    await ready(v.viewId);
    assert.deepEqual(await ids(v.viewId, { sort: [{ column: 'flag', desc: false }, { column: 'amount', desc: true }], filters: [] }), [4, 2, 1, 3, 5]);
    assert.deepEqual(await ids(v.viewId, { sort: [{ column: 'day', desc: true }], filters: [] }), [3, 2, 5, 1, 4]);
  });

  it('pages of a sort with many equal values are exactly the full order, page after page', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => [i, i % 3, i % 5, i % 2 === 0 ? 'a' : 'b']);
    await writeFile(join(dir, 'ties.csv'), `id,k,v,t\n${rows.map((r) => r.join(',')).join('\n')}\n`);
    await bareDuck(dir, `COPY (SELECT * FROM read_csv('${join(dir, 'ties.csv')}')) TO '${join(dir, 'ties.parquet')}' (FORMAT parquet)`);
    type Row = (typeof rows)[number];
    const cases: Array<{ query: unknown; expect: (r: Row[]) => Row[] }> = [
      { query: { sort: [{ column: 'k', desc: true }], filters: [] }, expect: (r) => [...r].sort((a, b) => Number(b[1]) - Number(a[1]) || Number(a[0]) - Number(b[0])) },
      { query: { sort: [{ column: 'k', desc: false }, { column: 'v', desc: true }], filters: [] }, expect: (r) => [...r].sort((a, b) => Number(a[1]) - Number(b[1]) || Number(b[2]) - Number(a[2]) || Number(a[0]) - Number(b[0])) },
      { query: { sort: [{ column: 't', desc: true }], filters: [{ column: 'v', op: 'between', min: 1, max: 3 }] }, expect: (r) => r.filter((x) => Number(x[2]) >= 1 && Number(x[2]) <= 3).sort((a, b) => (a[3] === b[3] ? Number(a[0]) - Number(b[0]) : a[3] === 'b' ? -1 : 1)) },
    ];
    for (const name of ['ties.csv', 'ties.parquet']) {
      const v = await open(name);
      await ready(v.viewId);
      for (const c of cases) {
        const got: number[] = [];
        for (let offset = 0; offset < 3000; offset += 170) {
          const page = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset, limit: 170, query: c.query });
          got.push(...page.rows.map((r) => Number(r[0])));
        }
        assert.deepEqual(got, c.expect(rows).map((r) => Number(r[0])), `${name} ${JSON.stringify(c.query)}`);
      }
    }
  });

  it('applies every filter kind, negated too, and counts the matching rows', async () => {
    const v = await open('sales.csv');
    await ready(v.viewId);
    const f = (filters: unknown[]): Promise<number[]> => ids(v.viewId, { sort: [], filters });
    assert.deepEqual(await f([{ column: 'name', op: 'contains', text: 'O' }]), [2, 3]);
    assert.deepEqual(await f([{ column: 'name', op: 'contains', text: 'C', caseSensitive: true }]), [3]);
    assert.deepEqual(await f([{ column: 'name', op: 'startsWith', text: 'd' }]), [4]);
    assert.deepEqual(await f([{ column: 'name', op: 'regex', text: '^[A-C]', caseSensitive: true }]), [1, 3]);
    assert.deepEqual(await f([{ column: 'name', op: 'regex', text: '^[A-C]', caseSensitive: true, negate: true }]), [2, 4, 5]);
    assert.deepEqual(await f([{ column: 'name', op: 'regex', text: 'E$' }]), [1, 4, 5]);
    assert.deepEqual(await f([{ column: 'amount', op: 'between', min: 0, max: 10.5 }]), [1, 3]);
    assert.deepEqual(await f([{ column: 'amount', op: 'between', min: 10 }]), [1, 4]);
    assert.deepEqual(await f([{ column: 'day', op: 'between', min: '2024-01-01', max: '2024-01-31' }]), [1, 5]);
    assert.deepEqual(await f([{ column: 'day', op: 'between', max: '2024-02-10' }]), [1, 2, 5]);
    assert.deepEqual(await f([{ column: 'name', op: 'in', values: ['Alice', 'Eve', 'nobody'] }]), [1, 5]);
    assert.deepEqual(await f([{ column: 'name', op: 'in', values: ['Alice', 'Eve'], negate: true }]), [2, 3, 4]);
    assert.deepEqual(await f([{ column: 'day', op: 'in', values: ['2024-03-15'] }]), [3]);
    assert.deepEqual(await f([{ column: 'amount', op: 'in', values: ['20', '10.5'] }]), [1, 4]);
    assert.deepEqual(await f([{ column: 'amount', op: 'missing' }]), [2]);
    assert.deepEqual(await f([{ column: 'day', op: 'missing', negate: true }]), [1, 2, 3, 5]);
    assert.deepEqual(await f([{ column: 'flag', op: 'in', values: ['true'] }, { column: 'amount', op: 'between', min: 0 }]), [1, 3]);
    const count = await ok<{ matching: number }>('POST', `/explore/${v.viewId}/count`, { query: { sort: [], filters: [{ column: 'flag', op: 'in', values: ['false'] }] } });
    assert.equal(count.matching, 2);
    const all = await ok<{ matching: number }>('POST', `/explore/${v.viewId}/count`, {});
    assert.equal(all.matching, 5);
  });

  it('refuses bad queries in plain words: invalid regex, wrong value type, unknown column, limits', async () => {
    const v = await open('sales.csv');
    await ready(v.viewId);
    const bad = async (body: unknown, re: RegExp): Promise<void> => {
      const r = await call('POST', `/explore/${v.viewId}/rows`, body);
      assert.equal(r.status, 400, r.text);
      assert.match(r.json?.msg ?? '', re);
    };
    await bad({ query: { sort: [], filters: [{ column: 'name', op: 'regex', text: '(' }] } }, /not a valid regular expression/);
    await bad({ query: { sort: [], filters: [{ column: 'amount', op: 'between', min: 'ten' }] } }, /must be a number/);
    await bad({ query: { sort: [], filters: [{ column: 'day', op: 'between', min: 5 }] } }, /ISO date/);
    await bad({ query: { sort: [], filters: [{ column: 'name', op: 'between', min: 1 }] } }, /numbers or dates/);
    await bad({ query: { sort: [{ column: 'nope', desc: false }], filters: [] } }, /no column "nope"/);
    await bad({ query: { sort: [], filters: [{ column: 'name', op: 'like', text: 'x' }] } }, /filters\[0\]\.op/);
    await bad({ query: { sort: [], filters: [{ column: 'amount', op: 'in', values: ['ten'] }] } }, /each value must be a number/);
    await bad({ offset: 0, limit: 5000 }, /limit/);
    await bad({ offset: -1, limit: 5 }, /offset/);
    await bad({ query: { sort: [], filters: [{ column: 'name', op: 'contains', text: 'x'.repeat(1001) }] } }, /at most 1000/);
    // The service keeps serving after each refusal.
    assert.equal((await ok<ExploreStatus>('GET', `/explore/${v.viewId}/status`)).state, 'ready');
  });

  it('summarises each column with the figures worked out by hand', async () => {
    const v = await open('sales.csv');
    await ready(v.viewId);
    const sums = await ok<ColumnSummary[]>('POST', `/explore/${v.viewId}/summary`, {});
    const by = (c: string): ColumnSummary => sums.find((s) => s.column === c) as ColumnSummary;
    const amount = by('amount');
    assert.equal(amount.count, 5);
    assert.equal(amount.missing, 1);
    assert.equal(amount.zero, 1);
    assert.equal(amount.distinct, 4);
    assert.equal(amount.min, -4.5);
    assert.equal(amount.max, 20);
    assert.equal(amount.mean, 6.5);
    assert.equal(amount.median, 5.25);
    assert.ok(Math.abs((amount.stdev ?? 0) - Math.sqrt(361.5 / 3)) < 1e-9);
    const hist = amount.histogram ?? [];
    assert.equal(hist.length, 20);
    // -4.5 -> bin 0; 0 -> 3; 10.5 -> 12; 20 -> the last bin (width 24.5 / 20).
    assert.deepEqual(hist.flatMap((n, i) => (n > 0 ? [[i, n]] : [])), [[0, 1], [3, 1], [12, 1], [19, 1]]);
    const name = by('name');
    assert.equal(name.missing, 0);
    assert.equal(name.empty, 0);
    assert.deepEqual(name.top?.map((t) => t.value), ['Alice', 'Carol', 'Eve', 'bob', 'dave']);
    const day = by('day');
    assert.equal(day.missing, 1);
    assert.equal(day.min, '2024-01-05');
    assert.equal(day.max, '2024-03-15');
    assert.equal(day.histogram?.reduce((a, b) => a + b, 0), 4);
    const flag = by('flag');
    assert.deepEqual(flag.top, [{ value: 'true', count: 3 }, { value: 'false', count: 2 }]);
    // Over the filtered rows, and only the columns asked for.
    const some = await ok<ColumnSummary[]>('POST', `/explore/${v.viewId}/summary`, { columns: ['amount'], query: { sort: [], filters: [{ column: 'flag', op: 'in', values: ['true'] }] } });
    assert.equal(some.length, 1);
    assert.equal(some[0]?.count, 3);
    assert.equal(some[0]?.mean, 2);
  });

  it('Copy as SQL: the view\'s SQL over the file\'s own name gives the same rows in a fresh DuckDB', async () => {
    const v = await open('sales.csv');
    await ready(v.viewId);
    const query = { sort: [{ column: 'amount', desc: true }], filters: [{ column: 'name', op: 'regex', text: 'e' }, { column: 'day', op: 'between', min: '2024-01-01' }] };
    const { sql } = await ok<{ sql: string }>('GET', `/explore/${v.viewId}/sql?query=${encodeURIComponent(JSON.stringify(query))}`);
    assert.match(sql, /read_csv\('sales\.csv'/);
    assert.ok(!sql.includes(dir), 'no absolute path in the shown SQL');
    const page = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 100, query });
    const bare = await bareDuck(dir, sql);
    assert.ok(page.rows.length >= 2);
    assert.deepEqual(bare.map((r) => Number(r[0])), page.rows.map((r) => Number(r[0])));
  });

  it('exports the filtered, sorted view to CSV and Parquet, leaving no temporary file', async () => {
    const v = await open('sales.csv');
    await ready(v.viewId);
    const query = { sort: [{ column: 'id', desc: true }], filters: [{ column: 'flag', op: 'in', values: ['true'] }] };
    const csv = await ok<{ rows: number }>('POST', `/explore/${v.viewId}/export`, { query, format: 'csv', to: join(dir, 'out.csv') });
    assert.equal(csv.rows, 3);
    assert.deepEqual((await bareDuck(dir, `SELECT id FROM read_csv('out.csv')`)).map((r) => Number(r[0])), [5, 3, 1]);
    const pq = await ok<{ rows: number }>('POST', `/explore/${v.viewId}/export`, { query, format: 'parquet', to: join(dir, 'out.parquet') });
    assert.equal(pq.rows, 3);
    assert.deepEqual((await bareDuck(dir, `SELECT id, name FROM 'out.parquet'`)).map((r) => [Number(r[0]), r[1]]), [[5, 'Eve'], [3, 'Carol'], [1, 'Alice']]);
    assert.deepEqual((await readdir(dir)).filter((f) => f.endsWith('.part')), []);
    const r = await call('POST', `/explore/${v.viewId}/export`, { query, format: 'csv', to: join(outside, 'x.csv') });
    assert.equal(r.status, 400);
    assert.match(r.json?.msg ?? '', /outside the folders/);
    assert.deepEqual(await readdir(outside), ['secret.csv']);
  });

  it('refuses a path outside the client\'s folders, and any path without a lease', async () => {
    const r = await call('POST', '/explore/open', { path: join(outside, 'secret.csv') });
    assert.equal(r.status, 400);
    assert.match(r.json?.msg ?? '', /outside the folders/);
    assert.ok(!r.text.includes('Alice'));
    const other = await h.call('POST', '/local/v1/leases', { client: 'other', roots: [outside] });
    const otherLease = (other.json?.data as { id: string }).id;
    const r2 = await h.call('POST', '/local/v1/explore/open', { path: join(dir, 'sales.csv') }, { 'x-team-data-lease': otherLease });
    assert.equal(r2.status, 400, 'another client\'s folder is not this client\'s');
    const r3 = await h.call('POST', '/local/v1/explore/open', { path: join(dir, 'sales.csv') });
    assert.equal(r3.status, 400);
    const r4 = await h.call('POST', '/local/v1/explore/open', { path: join(dir, 'sales.csv') }, { 'x-pd-api-key': 'wrong-key-000000' });
    assert.equal(r4.status, 403);
  });

  it('closes a view on DELETE and when its client\'s lease ends', async () => {
    const v = await open('sales.csv');
    assert.deepEqual(await ok('DELETE', `/explore/${v.viewId}`), { closed: true });
    assert.equal((await call('GET', `/explore/${v.viewId}/status`)).status, 404);
    const own = (await h.call('POST', '/local/v1/leases', { client: 'short', roots: [dir] })).json?.data as { id: string };
    const opened = await h.call('POST', '/local/v1/explore/open', { path: join(dir, 'sales.csv') }, { 'x-team-data-lease': own.id });
    const id = (opened.json?.data as ExploreOpened).viewId;
    await h.call('DELETE', `/local/v1/leases/${own.id}`);
    const gone = await call('POST', `/explore/${id}/rows`, { offset: 0, limit: 1 });
    assert.equal(gone.status, 404);
    assert.match(gone.json?.msg ?? '', /went away/);
  });

  it('reads an edited file again (its version goes up) and fails a deleted one in plain words', async () => {
    await writeFile(join(dir, 'live.csv'), CSV);
    const v = await open('live.csv');
    assert.equal((await ready(v.viewId)).columns, undefined, 'the columns open gave stand');
    await appendFile(join(dir, 'live.csv'), '6,Frank,1,2024-04-01,false\n');
    const s = await ready(v.viewId);
    assert.equal(s.version, 1);
    assert.deepEqual(s.columns?.map((c) => c.name), ['id', 'name', 'amount', 'day', 'flag']);
    assert.equal(s.rowCount, 6);
    assert.deepEqual(await ids(v.viewId, { sort: [{ column: 'id', desc: true }], filters: [] }), [6, 5, 4, 3, 2, 1]);
    await rm(join(dir, 'live.csv'));
    const st = await ok<ExploreStatus>('GET', `/explore/${v.viewId}/status`);
    assert.equal(st.state, 'failed');
    assert.match(st.error ?? '', /live\.csv was deleted or moved/);
    const rows = await call('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 1 });
    assert.equal(rows.status, 410);
    assert.match(rows.json?.msg ?? '', /deleted or moved/);
  });

  it('opens TSV, Parquet, JSON Lines, gzip CSV and JSON Lines, and each sheet of a workbook', async () => {
    await writeFile(join(dir, 'sales.tsv'), CSV.replace(/,/g, '\t'));
    await writeFile(join(dir, 'sales.csv.gz'), gzipSync(CSV));
    const jsonl = CSV.trim().split('\n').slice(1).map((l) => {
      const [id, name, amount, day, flag] = l.split(',');
      return JSON.stringify({ id: Number(id), name, amount: amount === '' ? null : Number(amount), place: { city: `c${id ?? ''}` }, day: day === '' ? null : day, flag: flag === 'true' });
    }).join('\n') + '\n';
    await writeFile(join(dir, 'sales.jsonl'), jsonl);
    await writeFile(join(dir, 'sales.ndjson.gz'), gzipSync(jsonl));
    await bareDuck(dir, `COPY (SELECT * FROM read_csv('${join(dir, 'sales.csv')}')) TO '${join(dir, 'sales.parquet')}' (FORMAT parquet)`);
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['id', 'who'], [1, 'a'], [2, 'b']]), 'First');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['k', 'v'], ['x', 10], ['y', 20], ['z', 30]]), 'Second');
    await writeFile(join(dir, 'book.xlsx'), XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer);

    for (const name of ['sales.tsv', 'sales.csv.gz', 'sales.parquet', 'sales.jsonl', 'sales.ndjson.gz']) {
      const v = await open(name);
      const s = await ready(v.viewId);
      assert.equal(s.rowCount, 5, name);
      assert.deepEqual(await ids(v.viewId, { sort: [{ column: 'amount', desc: true }], filters: [{ column: 'name', op: 'contains', text: 'e' }] }), [4, 1, 5], name);
      if (name.includes('json')) assert.ok(v.columns.some((c) => c.name === 'place.city'), `${name}: nested fields flattened as the ingest does`);
      const { sql } = await ok<{ sql: string }>('GET', `/explore/${v.viewId}/sql`);
      assert.equal((await bareDuck(dir, sql)).length, 5, `${name}: ${sql}`);
    }
    const book = await open('book.xlsx');
    assert.deepEqual(book.sheets, ['First', 'Second']);
    assert.equal(book.sheet, 'First');
    assert.equal(book.rowCount, 2);
    const second = await open('book.xlsx', { sheet: 'Second' });
    assert.equal(second.rowCount, 3);
    const sums = await ok<ColumnSummary[]>('POST', `/explore/${second.viewId}/summary`, { columns: ['v'] });
    assert.equal(sums[0]?.mean, 20);
    const missing = await call('POST', '/explore/open', { path: join(dir, 'book.xlsx'), sheet: 'Third' });
    assert.equal(missing.status, 400);
    assert.match(missing.json?.msg ?? '', /no sheet "Third"; its sheets: First, Second/);
  });
});
