/**
 * The explorer on gzip-compressed Parquet and workbooks (issue 27): each is inflated into the
 * service's scratch folder and read from there (gzipCopy.ts). Checked here: the rows and sheets; the
 * copy living exactly as long as the view reads it, even across an edit with pages in flight; Copy
 * as SQL of a file and of a data source naming the file gunzip makes; damaged files refused by
 * name, with no copy left and no scratch path in any message.
 */
import { strict as assert } from 'node:assert';
import { readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { TeamDataClient } from '../../src/api/index';
import type { ExploreOpened, ExplorePage } from '../../src/shared/explore';
import { bareDuck } from '../helpers/bareDuck';
import { TEST_KEY, USER } from '../helpers/serverHarness';
import { SALES_CSV as CSV, useExploreKit } from './exploreKit';

describe('Data Explorer on .parquet.gz and .xlsx.gz (issue 27)', function () {
  this.timeout(120_000);
  const kit = useExploreKit('explore-gz-', async (k) => {
    await writeFile(join(k.dir, 'sales.csv'), CSV);
    await bareDuck(k.dir, `COPY (SELECT * FROM read_csv('${join(k.dir, 'sales.csv')}')) TO '${join(k.dir, 'plain.parquet')}' (FORMAT parquet)`);
  });
  const { call, ok, open, ready, ids } = kit;

  it('opens gzip Parquet and each sheet of a gzip workbook, from a copy in scratch that closing the view removes', async () => {
    await bareDuck(kit.dir, `COPY (SELECT * FROM read_csv('${join(kit.dir, 'sales.csv')}')) TO '${join(kit.dir, 'plain.parquet')}' (FORMAT parquet)`);
    await writeFile(join(kit.dir, 'sales.parquet.gz'), gzipSync(await readFile(join(kit.dir, 'plain.parquet'))));
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['id', 'who'], [1, 'a'], [2, 'b']]), 'First');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['k', 'v'], ['x', 10], ['y', 20], ['z', 30]]), 'Second');
    await writeFile(join(kit.dir, 'book.xlsx.gz'), gzipSync(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer));
    const copies = async (ext: string): Promise<string[]> => (await readdir(join(kit.h.dataDir, 'ingest-tmp'))).filter((f) => f.endsWith(ext));
    const before = await copies('.parquet');

    const v = await open('sales.parquet.gz');
    const s = await ready(v.viewId);
    assert.equal(s.rowCount, 5);
    assert.deepEqual(v.columns.map((c) => c.name), ['id', 'name', 'amount', 'day', 'flag']);
    const page = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 10 });
    assert.deepEqual(page.rows, [[1, 'Alice', 10.5, '2024-01-05', true], [2, 'bob', null, '2024-02-10', false], [3, 'Carol', 0, '2024-03-15', true], [4, 'dave', 20, null, false], [5, 'Eve', -4.5, '2024-01-31', true]]);
    assert.deepEqual(await ids(v.viewId, { sort: [{ column: 'amount', desc: true }], filters: [{ column: 'name', op: 'contains', text: 'e' }] }), [4, 1, 5]);
    // Copy as SQL names the file gunzip makes, and says so; decompressed, it gives the same rows.
    const { sql } = await ok<{ sql: string }>('GET', `/explore/${v.viewId}/sql`);
    assert.match(sql, /gunzip -k sales\.parquet\.gz/);
    assert.match(sql, /read_parquet\('sales\.parquet'\)/);
    await writeFile(join(kit.dir, 'sales.parquet'), gunzipSync(await readFile(join(kit.dir, 'sales.parquet.gz'))));
    assert.equal((await bareDuck(kit.dir, sql)).length, 5);
    // Pages are read from the inflated copy lazily, so it stays while the view is open, and goes with it.
    assert.equal((await copies('.parquet')).length, before.length + 1);
    // An edited file is read again, as a plain one is: a new copy replaces the old.
    await writeFile(join(kit.dir, 'sales.csv'), CSV + '6,Frank,1,2024-04-01,false\n');
    await bareDuck(kit.dir, `COPY (SELECT * FROM read_csv('${join(kit.dir, 'sales.csv')}')) TO '${join(kit.dir, 'plain.parquet')}' (FORMAT parquet)`);
    await writeFile(join(kit.dir, 'sales.csv'), CSV);
    await writeFile(join(kit.dir, 'sales.parquet.gz'), gzipSync(await readFile(join(kit.dir, 'plain.parquet'))));
    const edited = await ready(v.viewId);
    assert.equal(edited.version, 1);
    assert.equal(edited.rowCount, 6);
    assert.equal((await copies('.parquet')).length, before.length + 1);
    await ok('DELETE', `/explore/${v.viewId}`);
    assert.deepEqual(await copies('.parquet'), before);

    const book = await open('book.xlsx.gz');
    assert.deepEqual(book.sheets, ['First', 'Second']);
    assert.equal(book.sheet, 'First');
    assert.deepEqual((await ok<ExplorePage>('POST', `/explore/${book.viewId}/rows`, { offset: 0, limit: 10 })).rows, [[1, 'a'], [2, 'b']]);
    const second = await open('book.xlsx.gz', { sheet: 'Second' });
    assert.deepEqual((await ok<ExplorePage>('POST', `/explore/${second.viewId}/rows`, { offset: 0, limit: 10 })).rows, [['x', 10], ['y', 20], ['z', 30]]);
    // A sheet is copied into the view's table, so the workbook's copy is gone once it is open.
    assert.deepEqual(await copies('.xlsx'), []);
  });

  it('refuses a truncated .parquet.gz and a file that is not gzip, naming it, and leaves no copy in scratch', async () => {
    const gz = gzipSync(await readFile(join(kit.dir, 'plain.parquet')));
    await writeFile(join(kit.dir, 'cut.parquet.gz'), gz.subarray(0, Math.floor(gz.length / 2)));
    await writeFile(join(kit.dir, 'raw.xlsx.gz'), 'not gzip at all');
    for (const [name, reason] of [['cut.parquet.gz', /cut\.parquet\.gz is cut short/], ['raw.xlsx.gz', /raw\.xlsx\.gz is damaged: its gzip data cannot be decompressed/]] as const) {
      const r = await call('POST', '/explore/open', { path: join(kit.dir, name) });
      assert.equal(r.status, 400, r.text);
      assert.match(r.json?.msg ?? '', reason);
    }
    assert.deepEqual((await readdir(join(kit.h.dataDir, 'ingest-tmp'))).filter((f) => /\.(parquet|xlsx)$/.test(f)), []);
    // The service goes on answering, and reads the same file whole.
    await writeFile(join(kit.dir, 'whole.parquet.gz'), gz);
    const v = await open('whole.parquet.gz');
    assert.equal((await ready(v.viewId)).rowCount, (await bareDuck(kit.dir, `SELECT * FROM '${join(kit.dir, 'plain.parquet')}'`)).length);
  });

  it('Copy as SQL of a .parquet.gz data source reads the file gunzip makes, and says so', async () => {
    await writeFile(join(kit.dir, 'orders.parquet.gz'), gzipSync(await readFile(join(kit.dir, 'plain.parquet'))));
    const client = new TeamDataClient({ baseUrl: kit.h.baseUrl, apiKey: TEST_KEY, userId: USER, localLease: () => kit.lease, retry: { attempts: 1 } });
    const { id: datasetId } = await client.datasets.create({ name: 'gz', description: '' });
    const src = await client.dataSources.create(datasetId, { fileName: 'orders.parquet.gz', path: join(kit.dir, 'orders.parquet.gz') });
    await client.dataSources.waitUntilSynched(datasetId, src.id, { intervalMs: 50 });
    const v = await ok<ExploreOpened>('POST', '/explore/open', { datasourceId: src.id });
    const { sql } = await ok<{ sql: string }>('GET', `/explore/${v.viewId}/sql`);
    assert.match(sql, /gunzip -k orders\.parquet\.gz/);
    assert.match(sql, /read_parquet\('orders\.parquet'\)/);
    await writeFile(join(kit.dir, 'orders.parquet'), gunzipSync(await readFile(join(kit.dir, 'orders.parquet.gz'))));
    assert.equal((await bareDuck(kit.dir, sql)).length, (await bareDuck(kit.dir, `SELECT * FROM 'plain.parquet'`)).length);
  });

  it('pages in flight when the file is edited read the copy they started on; a lost copy\'s message names no scratch path', async () => {
    const big = join(kit.dir, 'big.parquet');
    await bareDuck(kit.dir, `COPY (SELECT range AS id, (range * 7) % 1000 AS v, 'row ' || range AS t FROM range(3000000)) TO '${big}' (FORMAT parquet)`);
    const gz = join(kit.dir, 'big.parquet.gz');
    await writeFile(gz, gzipSync(await readFile(big)));
    const copies = async (): Promise<string[]> => (await readdir(join(kit.h.dataDir, 'ingest-tmp'))).filter((f) => f.endsWith('.parquet'));
    const before = await copies();
    const v = await open('big.parquet.gz');
    await ready(v.viewId);
    const sorted = { sort: [{ column: 'v', desc: true }, { column: 't', desc: false }], filters: [] };
    for (let round = 1; round <= 5; round++) {
      const pages = Array.from({ length: 4 }, (_, i) => call('POST', `/explore/${v.viewId}/rows`, { offset: i * 200, limit: 200, query: sorted }));
      await new Promise((r) => setTimeout(r, 30));
      // Edited (a new modification time): the next request reads the file again, into a new copy.
      await utimes(gz, new Date(), new Date(Date.now() + round * 10_000));
      await ok('GET', `/explore/${v.viewId}/status`);
      for (const r of await Promise.all(pages)) assert.equal(r.status, 200, r.text);
    }
    // One copy for the view: the old ones went once their pages were sent.
    const now = (await copies()).filter((f) => !before.includes(f));
    assert.equal(now.length, 1, now.join(', '));

    // The copy gone behind the view's back: the message names the user's file, never the copy.
    await rm(join(kit.h.dataDir, 'ingest-tmp', now[0] ?? ''));
    const r = await call('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 10, query: sorted });
    assert.equal(r.status, 400, r.text);
    assert.match(r.json?.msg ?? '', /big\.parquet\.gz/);
    assert.ok(!r.text.includes(kit.h.dataDir) && !r.text.includes('ingest-tmp'), r.text);
  });
});
