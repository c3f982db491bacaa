/**
 * The columnar copy of a CSV read in place is written after the read, in the background (issue 27,
 * "Big files"): the overview never waits for it; a question asked meanwhile waits for it; a delete
 * or an edit during the copy leaves no copy used. The rest of the
 * cache's behaviour is in inPlaceCache.test.ts.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient, type Answer } from '../../src/api/index';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { QUICK_OVERVIEW_ROWS } from '../../src/server/engine/localEngine';
import { CACHE_DIR } from '../../src/server/duckdb/inPlaceCache';
import { tableNameFor } from '../../src/server/duckdb/sqlText';
import type { DataSource } from '../../src/shared/domain';
import { eventually, startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';
import { cacheFolders, ordersCsv, parquetIn, totalsOf } from '../helpers/ordersCsv';

describe('the columnar copy of a CSV read in place, written after the read (issue 27)', function () {
  this.timeout(300_000);
  const f = cacheFolders();

  const totals = f.totals;

  describe('the copy is written after the read, in the background', () => {
    let h: Harness;
    let client: TeamDataClient;
    let store: DuckDbStore;
    let datasetId: string;
    let sessionId: string;
    let dataDir: string;
    /** Holds every copy after it is written and before its view is swapped to it, until `release`. */
    let release: () => void = () => undefined;
    let held: Promise<void> = Promise.resolve();
    const hold = (): void => {
      held = new Promise((r) => (release = r));
    };
    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'team-data-cache-after-'));
      store = await DuckDbStore.open(dataDir, { readableDirs: [join(dataDir, 'sources'), f.root], minCacheBytes: 0 });
      // The swap runs under the source's lock; the test holds it back there (a private seam).
      const deps = (store as unknown as { copies: { d: { underLock: <T>(id: string, fn: () => Promise<T>) => Promise<T> } } }).copies.d;
      const underLock = deps.underLock;
      deps.underLock = async (id, fn) => {
        await held;
        return underLock(id, fn);
      };
      h = await startHarness({ readRoots: [f.root], store }, dataDir);
      client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER });
      datasetId = (await client.datasets.create({ name: 'after', description: '' })).id;
      sessionId = (await client.sessions.create({ title: 'after' })).id;
    });
    afterEach(() => release());
    after(async () => {
      release();
      await h?.stop(true);
      await store?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const run = (id: string, question: string): Promise<Answer> => client.jobs.run({ sessionId, datasetId, datasourceIdList: [id], question });
    const add = async (name: string, csv: string): Promise<{ path: string; ds: DataSource }> => {
      const path = join(f.root, name);
      await writeFile(path, csv);
      const created = await client.dataSources.create(datasetId, { fileName: name, path });
      return { path, ds: await client.dataSources.waitUntilSynched(datasetId, created.id, { intervalMs: 50 }) };
    };
    const copyOf = (id: string): Promise<string | undefined> => parquetIn(dataDir).then((n) => n.find((x) => x.startsWith(`${tableNameFor(id)}-`)));
    const written = (id: string): Promise<string> => eventually(() => copyOf(id), 'the copy written');

    it('the overview is answered before the copy exists: the source is synched with no copy, which comes after', async () => {
      hold();
      const csv = ordersCsv(QUICK_OVERVIEW_ROWS + 20_000);
      const { ds } = await add('after-overview.csv', csv);
      assert.equal(ds.status, 'synched', ds.error);
      assert.equal(ds.cacheBytes, undefined, 'synched before the copy is kept');
      const overview = await run(ds.id, 'Give me an overview of this data');
      assert.equal(overview.state, 'done');
      assert.equal((await client.dataSources.get(datasetId, ds.id)).cacheBytes, undefined, 'answered while the copy waits');
      release();
      const bytes = await eventually(async () => (await client.dataSources.get(datasetId, ds.id)).cacheBytes, 'the copy\'s size');
      const name = await copyOf(ds.id);
      assert.ok(name !== undefined);
      assert.equal(bytes, (await stat(join(dataDir, CACHE_DIR, name))).size);
      assert.deepEqual(await totals(await run(ds.id, 'total amount by region')), totalsOf(csv));
    });

    it('a question asked while the copy is written waits for it, and gives the file\'s numbers', async () => {
      hold();
      const csv = ordersCsv(60_000, 2);
      const { ds } = await add('after-question.csv', csv);
      await written(ds.id);
      let answered = false;
      const asked = run(ds.id, 'total amount by region').then((a) => {
        answered = true;
        return a;
      });
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(answered, false, 'the question\'s index waits for the copy');
      release();
      assert.deepEqual(await totals(await asked), totalsOf(csv));
      assert.ok(((await client.dataSources.get(datasetId, ds.id)).cacheBytes ?? 0) > 0);
    });

    it('a source deleted while its copy is written leaves no copy and no error', async () => {
      hold();
      const { ds } = await add('after-delete.csv', ordersCsv(60_000));
      await written(ds.id);
      const deleted = client.dataSources.delete(datasetId, ds.id);
      await new Promise((r) => setTimeout(r, 200));
      release();
      await deleted;
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(await copyOf(ds.id), undefined);
      assert.ok(!h.logs.some((l) => l.startsWith('[error]')), h.logs.join('\n'));
      const described = await store.describe(ds.id);
      assert.equal(described, undefined);
    });

    it('an edit during the copy never makes the stale copy used: the file\'s new numbers are answered', async () => {
      hold();
      const { path, ds } = await add('after-edit.csv', ordersCsv(60_000));
      const stale = await written(ds.id);
      const second = ordersCsv(60_000, 5);
      await writeFile(path, second);
      const later = new Date(Date.now() + 5_000);
      await utimes(path, later, later);
      release();
      // Straight at the view, without the job's own check of the file: never the copy of the old file.
      await store.copiesSettled([ds.id]);
      const sum = Number((await store.query(`SELECT sum(amount) FROM "${tableNameFor(ds.id)}"`)).rows[0]?.[0]);
      assert.equal(sum, [...totalsOf(second).values()].reduce((a, b) => a + b, 0));
      assert.deepEqual(await totals(await run(ds.id, 'total amount by region')), totalsOf(second));
      assert.ok(!(await parquetIn(dataDir)).includes(stale), 'the stale copy is gone');
      // Whatever copy the source ends with is of the edited file.
      await eventually(async () => ((await client.dataSources.get(datasetId, ds.id)).cacheBytes ?? 0) > 0 || undefined, 'the new copy');
      assert.deepEqual(await totals(await run(ds.id, 'total amount by region')), totalsOf(second));
    });
  });

});
