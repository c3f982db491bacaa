/**
 * The columnar cache of CSVs read in place (issue 27, "Big files"): after the ingest's read, a
 * background step writes a Parquet copy into the data folder, and the source's view is swapped to it;
 * the view reads it while the file keeps its size and modification time. The read (and the overview
 * answered from it) never waits for the copy; a question asked meanwhile waits for it; a delete or an
 * edit during the copy leaves no copy used. Answers equal the file's; an edited file's new numbers are answered, never the
 * copy's; a copy that cannot be written, or would be too large, leaves the file read as before; a
 * deleted file gives a clear reason and takes its copy along; the copy's size reaches the wire and
 * the Datasets view's wording.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient, TeamDataError } from '../../src/api/index';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { LocalAnalysisEngine, QUICK_OVERVIEW_ROWS } from '../../src/server/engine/localEngine';
import { CACHE_DIR } from '../../src/server/duckdb/inPlaceCache';
import { answerBlocks } from '../../src/shared/answerFold';
import { v1Codec } from '../../src/shared/codecV1';
import { v2Codec } from '../../src/shared/codecV2';
import type { DataSource } from '../../src/shared/domain';
import { cacheDetail, cacheText } from '../../src/shared/sourceActivity';
import { eventually, startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';
import { cacheFolders, ordersCsv, parquetIn, REGIONS, totalsOf } from '../helpers/ordersCsv';

describe('the columnar cache of CSVs read in place (issue 27)', function () {
  this.timeout(300_000);
  const f = cacheFolders();

  async function service(dataDir?: string): Promise<{ h: Harness; client: TeamDataClient; datasetId: string; sessionId: string }> {
    const h = await startHarness({ readRoots: [f.root], duckdb: { minCacheBytes: 0 } }, dataDir);
    const client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER });
    const datasetId = (await client.datasets.create({ name: 'cache', description: '' })).id;
    const sessionId = (await client.sessions.create({ title: 'cache' })).id;
    return { h, client, datasetId, sessionId };
  }

  const totals = f.totals;

  describe('through the service', () => {
    let s: Awaited<ReturnType<typeof service>>;
    before(async () => {
      s = await service();
    });
    after(async () => s?.h.stop());

    const add = async (path: string, fileName: string): Promise<DataSource> => {
      const ds = await s.client.dataSources.create(s.datasetId, { fileName, path });
      return s.client.dataSources.waitUntilSynched(s.datasetId, ds.id, { intervalMs: 50 }).catch(() => s.client.dataSources.get(s.datasetId, ds.id));
    };
    const ask = async (id: string): Promise<Map<string, number>> =>
      totals(await s.client.jobs.run({ sessionId: s.sessionId, datasetId: s.datasetId, datasourceIdList: [id], question: 'total amount by region' }));

    it('answers from a copy under 25% of the file, with the file\'s numbers, and reports its size', async () => {
      const path = join(f.root, 'orders.csv');
      const csv = ordersCsv(200_000);
      await writeFile(path, csv);
      // A whole second, so the same modification time can be set again after an edit.
      const mtime = new Date('2026-01-02T03:04:05Z');
      await utimes(path, mtime, mtime);
      const size = (await stat(path)).size;
      const synched = await add(path, 'orders.csv');
      assert.equal(synched.status, 'synched', synched.error);
      // The copy is written after the read: its size reaches the source once it is made.
      const ds = await eventually(async () => {
        const d = await s.client.dataSources.get(s.datasetId, synched.id);
        return d.cacheBytes !== undefined ? d : undefined;
      }, 'the copy');
      const copies = await parquetIn(s.h.dataDir);
      assert.equal(copies.length, 1, `one copy: ${copies.join(', ')}`);
      const copyBytes = (await stat(join(s.h.dataDir, CACHE_DIR, copies[0] as string))).size;
      assert.equal(ds.cacheBytes, copyBytes);
      assert.ok(copyBytes < size * 0.25, `copy ${copyBytes} bytes of a ${size} byte file`);
      process.stdout.write(`      copy of a ${size} byte CSV: ${copyBytes} bytes (${((100 * copyBytes) / size).toFixed(1)}%)\n`);
      assert.deepEqual(await ask(ds.id), totalsOf(csv));

      // The copy is what runs: an edit that keeps the file's size and modification time (which no
      // read-in-place check can see) still gets the copy's numbers, and the shown SQL reads the file.
      const sameLength = csv.replace(/,north,/g, ',nurth,');
      await writeFile(path, sameLength);
      await utimes(path, mtime, mtime);
      const answer = await s.client.jobs.run({ sessionId: s.sessionId, datasetId: s.datasetId, datasourceIdList: [ds.id], question: 'total amount by region' });
      assert.deepEqual(await totals(answer), totalsOf(csv));
      const code = answerBlocks(answer).find((b) => b.type === 'CODE');
      assert.ok(code && code.type === 'CODE' && /read_csv\('orders\.csv'/.test(String(code.content)), 'the shown SQL reads the user\'s file');
      assert.ok(!/parquet/i.test(String(code.content)), 'the shown SQL never names the copy');
      await writeFile(path, csv);
      await utimes(path, mtime, mtime);
    });

    it('an edited file is answered with its new numbers, never the copy\'s: a new copy replaces the old one', async () => {
      const path = join(f.root, 'edited.csv');
      const first = ordersCsv(50_000);
      await writeFile(path, first);
      const ds = await add(path, 'edited.csv');
      assert.equal(ds.status, 'synched', ds.error);
      assert.deepEqual(await ask(ds.id), totalsOf(first));
      const before = new Set(await parquetIn(s.h.dataDir));
      // Same number of rows, other amounts: asked at once, before the file watcher could notice.
      const second = ordersCsv(50_000, 3);
      await writeFile(path, second);
      const later = new Date(Date.now() + 5_000);
      await utimes(path, later, later);
      assert.deepEqual(await ask(ds.id), totalsOf(second));
      const after = await parquetIn(s.h.dataDir);
      assert.equal(after.length, before.size, 'one copy per source, the old one removed');
      assert.equal(after.filter((n) => !before.has(n)).length, 1, 'the edited file has a new copy');
      await eventually(async () => ((await s.client.dataSources.get(s.datasetId, ds.id)).cacheBytes ?? 0) > 0 || undefined, 'the new copy\'s size');
    });

    it('a file that does not compress under 25% keeps no copy, and is read in place as before', async () => {
      const path = join(f.root, 'random.csv');
      const lines = ['region,amount,token'];
      const expected = new Map<string, number>();
      for (let i = 0; i < 20_000; i++) {
        const region = REGIONS[i % 4] as string;
        lines.push(`${region},${i % 97},${randomBytes(24).toString('base64')}`);
        expected.set(region, (expected.get(region) ?? 0) + (i % 97));
      }
      const csv = `${lines.join('\n')}\n`;
      await writeFile(path, csv);
      const before = new Set(await parquetIn(s.h.dataDir));
      const ds = await add(path, 'random.csv');
      assert.equal(ds.status, 'synched', ds.error);
      // A question waits for the copy being written, so once answered the copy was tried.
      assert.deepEqual(await ask(ds.id), expected);
      assert.equal((await s.client.dataSources.get(s.datasetId, ds.id)).cacheBytes, undefined);
      assert.deepEqual(await parquetIn(s.h.dataDir).then((n) => n.filter((x) => !before.has(x))), []);
    });

    it('a deleted file gives a clear reason, and its copy goes with it', async () => {
      const path = join(f.root, 'gone.csv');
      await writeFile(path, ordersCsv(20_000));
      const before = new Set(await parquetIn(s.h.dataDir));
      const ds = await add(path, 'gone.csv');
      assert.equal(ds.status, 'synched', ds.error);
      const mine = await eventually(async () => {
        const m = (await parquetIn(s.h.dataDir)).filter((n) => !before.has(n));
        return m.length > 0 && (await s.client.dataSources.get(s.datasetId, ds.id)).cacheBytes !== undefined ? m : undefined;
      }, 'the copy');
      assert.equal(mine.length, 1);
      await unlink(path);
      await assert.rejects(ask(ds.id), (err: unknown) => err instanceof TeamDataError && /gone\.csv was moved or deleted/.test(err.serviceMessage ?? ''));
      const after = await s.client.dataSources.get(s.datasetId, ds.id);
      assert.equal(after.status, 'invalid');
      assert.match(after.error ?? '', /no longer exists/);
      assert.equal(after.cacheBytes, undefined);
      assert.ok(!(await parquetIn(s.h.dataDir)).includes(mine[0] as string), 'the copy was removed');
    });
  });

  it('a copy that cannot be written (no room in the data folder) leaves the file read in place, with the same answers', async () => {
    // As f.root no folder is read-only, so the cache folder is made impossible: a file stands in its place.
    const dataDir = await mkdtemp(join(tmpdir(), 'team-data-cache-full-'));
    await writeFile(join(dataDir, CACHE_DIR), 'not a folder');
    const s = await service(dataDir);
    try {
      const path = join(f.root, 'nowhere.csv');
      const csv = ordersCsv(30_000);
      await writeFile(path, csv);
      const created = await s.client.dataSources.create(s.datasetId, { fileName: 'nowhere.csv', path });
      const ds = await s.client.dataSources.waitUntilSynched(s.datasetId, created.id, { intervalMs: 50 });
      assert.equal(ds.rows, 30_000);
      const answer = await s.client.jobs.run({ sessionId: s.sessionId, datasetId: s.datasetId, datasourceIdList: [ds.id], question: 'total amount by region' });
      assert.deepEqual(await totals(answer), totalsOf(csv));
      assert.equal((await s.client.dataSources.get(s.datasetId, ds.id)).cacheBytes, undefined);
      assert.ok(!s.h.logs.some((l) => l.startsWith('[error]')), s.h.logs.join('\n'));
    } finally {
      await s.h.stop();
    }
  });

  it('a large cached source has its question index built as soon as it is read, once, and a question shares it', async () => {
    for (const cached of [true, false]) {
      const dataDir = await mkdtemp(join(tmpdir(), 'team-data-cache-prepare-'));
      const store = await DuckDbStore.open(dataDir, { readableDirs: [f.root], minCacheBytes: 0, inPlaceCache: cached });
      try {
        const path = join(f.root, `prepare-${String(cached)}.csv`);
        await writeFile(path, ordersCsv(QUICK_OVERVIEW_ROWS + 10_000));
        const source: DataSource = { id: `prepare-${String(cached)}`, datasetId: 'd', name: 'orders.csv', fileName: 'orders.csv', type: 'FILE', status: 'synched', size: (await stat(path)).size };
        const read = await store.ingest(source, path, new AbortController().signal, { inPlace: true });
        // The ingest queue asks for the copy after the read, and tells the engine once it is made.
        const ingest = (await store.writeCopy(source.id)) ?? read;
        assert.equal(DuckDbStore.cacheBytes(ingest) > 0, cached);
        const seen: string[] = [];
        const query = store.query.bind(store);
        store.query = (sql, params, options) => {
          seen.push(sql);
          return query(sql, params, options);
        };
        const engine = new LocalAnalysisEngine(store, { llm: null });
        engine.prepare({ source, ingest });
        const until = Date.now() + 2_000;
        while (seen.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        // Without a copy the index would read the file a dozen times: it waits for a question.
        assert.equal(seen.length > 0, cached, `statements after prepare: ${seen.length}`);
        const questions = await engine.firstQuestions([{ source, ingest }]);
        assert.ok(questions.length > 0);
        const scans = seen.filter((q) => /^SELECT count\(\*\), count\(/.test(q));
        assert.equal(scans.length, 1, 'one index build');
      } finally {
        await store.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  });

  it('the copy\'s size travels over both API versions, and the Datasets view says it as a share of the file', () => {
    const ds: DataSource = { id: 's', datasetId: 'd', name: 'big.csv', fileName: 'big.csv', type: 'FILE', status: 'synched', size: 1_074_318_614, path: '/data/big.csv', rows: 17_000_000, cacheBytes: 67_000_000 };
    for (const codec of [v1Codec, v2Codec]) {
      const back = codec.decodeDataSource(JSON.parse(JSON.stringify(codec.encodeDataSource(ds))));
      assert.equal(back.cacheBytes, 67_000_000);
    }
    assert.equal(cacheText(ds), 'cached, 6% of the file');
    assert.equal(cacheText({ ...ds, cacheBytes: 1000 }), 'cached, <1% of the file');
    assert.equal(cacheText({ ...ds, cacheBytes: undefined }), undefined);
    assert.equal(cacheText({ ...ds, status: 'synching' }), undefined);
    assert.match(cacheDetail(ds) ?? '', /columnar cache .*67 MB \(6% of the file\), dropped when the file changes/);
  });
});
