/**
 * The Data Explorer on large and bad files (issue 27): a big CSV's first rows while the whole file
 * is read, sorting refused until then; exports cancelled leave nothing; bad files are refused at open
 * in plain words while the service keeps serving; the cap on open views; a data source's table.
 */
import { strict as assert } from 'node:assert';
import { open as openFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient } from '../../src/api/index';
import { EXPLORE_LIMITS, type ExploreOpened, type ExplorePage, type ExploreStatus } from '../../src/shared/explore';
import { BIG_CSV_BLOCK_ROWS, writeBigCsv } from '../helpers/bigCsv';
import { startHarness, TEST_KEY, USER, type Harness, type WireResponse } from '../helpers/serverHarness';
import { bareDuck } from '../helpers/bareDuck';

describe('Data Explorer on large and bad files (issue 27)', function () {
  this.timeout(300_000);
  let h: Harness;
  let dir: string;
  let lease: string;
  let blocks = 0;

  const call = (method: string, path: string, body?: unknown): Promise<WireResponse> => h.call(method, `/local/v1${path}`, body, { 'x-team-data-lease': lease });
  const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await call(method, path, body);
    assert.equal(r.status, 200, `${method} ${path}: ${r.text}`);
    return r.json?.data as T;
  };
  const ready = async (id: string): Promise<ExploreStatus[]> => {
    const seen: ExploreStatus[] = [];
    for (let i = 0; i < 6000; i++) {
      const s = await ok<ExploreStatus>('GET', `/explore/${id}/status`);
      seen.push(s);
      if (s.state !== 'reading') return seen;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('never ready');
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'explore-big-'));
    blocks = await writeBigCsv(join(dir, 'big.csv'), 60);
    await writeFile(join(dir, 'small.csv'), 'a,b\n1,x\n2,y\n');
    h = await startHarness({ readRoots: [dir], shared: { version: 'test', ttlMs: 60_000, idleMs: 600_000, onIdle: () => undefined } });
    lease = ((await h.call('POST', '/local/v1/leases', { client: 'test', roots: [dir] })).json?.data as { id: string }).id;
  });
  after(async () => {
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a big CSV\'s first rows while reading it whole, with progress; sort and filter once read', async () => {
    const v = await ok<ExploreOpened>('POST', '/explore/open', { path: join(dir, 'big.csv') });
    assert.equal(v.state, 'reading');
    assert.deepEqual(v.columns.map((c) => c.name), ['id', 'region', 'amount', 'day']);
    const page = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 3 });
    assert.deepEqual(page.rows.map((r) => r[0]), [0, 1, 2]);
    const sorted = await call('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 3, query: { sort: [{ column: 'amount', desc: true }], filters: [] } });
    assert.equal(sorted.status, 409);
    assert.match(sorted.json?.msg ?? '', /still reading big\.csv/);
    assert.equal((await call('POST', `/explore/${v.viewId}/count`, {})).status, 409);
    const seen = await ready(v.viewId);
    const last = seen[seen.length - 1] as ExploreStatus;
    assert.equal(last.state, 'ready');
    assert.equal(last.rowCount, blocks * BIG_CSV_BLOCK_ROWS);
    assert.ok(seen.some((s) => s.state === 'reading' && s.total !== undefined && s.total > 60e6), 'progress names the bytes to read');
    const top = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 2, query: { sort: [{ column: 'amount', desc: true }, { column: 'id', desc: false }], filters: [] } });
    assert.equal(top.rows[0]?.[2], 999.25);
    const far = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: BIG_CSV_BLOCK_ROWS * 2 + 5, limit: 1 });
    assert.equal(far.rows[0]?.[0], 5, 'a page deep into the file, in the file\'s order');
    const count = await ok<{ matching: number }>('POST', `/explore/${v.viewId}/count`, { query: { sort: [], filters: [{ column: 'region', op: 'in', values: ['region-3'] }] } });
    const perBlock = Array.from({ length: BIG_CSV_BLOCK_ROWS }, (_, i) => i).filter((i) => i % 7 === 3).length;
    assert.equal(count.matching, perBlock * blocks);
  });

  it('cancels an export (DELETE, or the client going away), leaving no file and no temporary', async () => {
    const v = await ok<ExploreOpened>('POST', '/explore/open', { path: join(dir, 'big.csv') });
    await ready(v.viewId);
    const query = { sort: [{ column: 'amount', desc: true }], filters: [] };
    const pending = call('POST', `/explore/${v.viewId}/export`, { query, format: 'csv', to: join(dir, 'cut.csv') });
    for (let i = 0; i < 200; i++) {
      const s = await ok<ExploreStatus>('GET', `/explore/${v.viewId}/status`);
      if (s.export !== undefined) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.deepEqual(await ok('DELETE', `/explore/${v.viewId}/export`), { cancelled: true });
    const r = await pending;
    assert.equal(r.status, 409, r.text);
    assert.match(r.json?.msg ?? '', /cancelled; nothing was written/);
    const ac = new AbortController();
    const gone = fetch(`${h.baseUrl}/local/v1/explore/${v.viewId}/export`, {
      method: 'POST', signal: ac.signal, headers: { 'x-pd-api-key': TEST_KEY, 'x-team-data-lease': lease, 'content-type': 'application/json' },
      body: JSON.stringify({ query, format: 'parquet', to: join(dir, 'cut.parquet') }),
    }).catch(() => undefined);
    await new Promise((res) => setTimeout(res, 150));
    ac.abort();
    await gone;
    for (let i = 0; i < 100; i++) {
      if ((await ok<ExploreStatus>('GET', `/explore/${v.viewId}/status`)).export === undefined) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.deepEqual((await readdir(dir)).filter((f) => f.startsWith('cut') || f.includes('.part')), []);
  });

  it('refuses bad files at open in plain words and keeps serving', async () => {
    const good = await ok<ExploreOpened>('POST', '/explore/open', { path: join(dir, 'small.csv') });
    await writeFile(join(dir, 'bad.parquet'), Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(200, 7), Buffer.from('PAR1')]));
    await bareDuck(dir, `COPY (SELECT range AS id FROM range(100000)) TO '${join(dir, 'whole.parquet')}' (FORMAT parquet)`);
    const whole = await openFile(join(dir, 'whole.parquet'), 'r');
    const buf = Buffer.alloc(5000);
    await whole.read(buf, 0, 5000, 0);
    await whole.close();
    await writeFile(join(dir, 'cut.parquet'), buf);
    await writeFile(join(dir, 'bad.csv.gz'), Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), Buffer.alloc(300, 0x55)]));
    await writeFile(join(dir, 'wide.csv'), `${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\n${Array.from({ length: 10_000 }, (_, i) => i).join(',')}\n`);
    const line = await openFile(join(dir, 'oneline.csv'), 'w');
    const chunk = Buffer.alloc(8 * 1024 * 1024, 'a');
    for (let i = 0; i < 500 / 8; i++) await line.write(chunk);
    await line.close();
    const cases: Array<[string, RegExp]> = [
      ['bad.parquet', /bad\.parquet/],
      ['cut.parquet', /cut short/],
      ['bad.csv.gz', /bad\.csv\.gz/],
      ['wide.csv', /10,000 columns; the explorer shows at most 2,000/],
      ['oneline.csv', /a line is longer than 2 MB/],
    ];
    try {
      for (const [name, re] of cases) {
        const t0 = Date.now();
        const r = await call('POST', '/explore/open', { path: join(dir, name) });
        assert.equal(r.status, 400, `${name}: ${r.text}`);
        assert.match(r.json?.msg ?? '', re, name);
        assert.ok(!(r.json?.msg ?? '').includes(h.dataDir), 'no path of the data folder in the message');
        assert.ok(Date.now() - t0 < 30_000, `${name} answered promptly`);
        const still = await ok<ExplorePage>('POST', `/explore/${good.viewId}/rows`, { offset: 0, limit: 5 });
        assert.equal(still.rows.length, 2, `the service keeps serving after ${name}`);
      }
    } finally {
      await rm(join(dir, 'oneline.csv'), { force: true });
    }
  });

  it('keeps at most the cap of open views', async () => {
    const dbs = async (): Promise<string[]> => (await readdir(join(h.dataDir, 'ingest-tmp'))).filter((f) => f.startsWith('explore_') && f.endsWith('.duckdb')).sort();
    const before = await dbs();
    const opened: string[] = [];
    let refused: WireResponse | undefined;
    for (let i = 0; i <= EXPLORE_LIMITS.views; i++) {
      const r = await call('POST', '/explore/open', { path: join(dir, 'small.csv') });
      if (r.status !== 200) {
        refused = r;
        break;
      }
      opened.push((r.json?.data as ExploreOpened).viewId);
    }
    assert.equal(refused?.status, 409);
    assert.match(refused?.json?.msg ?? '', /views are open, the most the local service keeps; close one/);
    for (const id of opened) await ok('DELETE', `/explore/${id}`);
    // Closing gives each view's database back.
    assert.ok(opened.length > 0 && opened.length < EXPLORE_LIMITS.views);
    assert.deepEqual(await dbs(), before);
  });

  it('opens a data source\'s table by id, with its file\'s reader in the shown SQL', async () => {
    const client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER, localLease: () => lease, retry: { attempts: 1 } });
    const { id: datasetId } = await client.datasets.create({ name: 'small', description: '' });
    const { fileKey } = await client.files.upload(join(dir, 'small.csv'));
    const src = await client.dataSources.create(datasetId, { fileName: 'small.csv', fileKey });
    await client.dataSources.waitUntilSynched(datasetId, src.id, { intervalMs: 50 });
    const v = await ok<ExploreOpened>('POST', '/explore/open', { datasourceId: src.id });
    assert.equal(v.state, 'ready');
    assert.equal(v.rowCount, 2);
    const rows = await ok<ExplorePage>('POST', `/explore/${v.viewId}/rows`, { offset: 0, limit: 5, query: { sort: [{ column: 'a', desc: true }], filters: [] } });
    assert.deepEqual(rows.rows, [[2, 'y'], [1, 'x']]);
    const { sql } = await ok<{ sql: string }>('GET', `/explore/${v.viewId}/sql`);
    assert.match(sql, /read_csv\('small\.csv'/);
    assert.equal((await bareDuck(dir, sql)).length, 2);
    assert.equal((await call('POST', '/explore/open', { datasourceId: 'nope' })).status, 404);
  });
});
