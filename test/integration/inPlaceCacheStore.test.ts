/**
 * The columnar cache at the store (issue 27, "Big files"): which files get no copy (small ones,
 * tables too wide), a copy dropped as soon as its file changed, and copies turned off. The
 * service-level behaviour is in inPlaceCache.test.ts.
 */
import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore, type StoreLimits } from '../../src/server/duckdb/duckDbStore';
import { MAX_CACHE_COLUMNS, writeCache } from '../../src/server/duckdb/inPlaceCache';
import { tableNameFor } from '../../src/server/duckdb/sqlText';
import type { DataSource } from '../../src/shared/domain';
import { ordersCsv, parquetIn } from '../helpers/ordersCsv';

describe('the columnar cache of CSVs read in place, at the store (issue 27)', function () {
  this.timeout(300_000);
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'team-data-cache-store-root-'));
  });
  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  /** Runs `fn` with a store over a fresh data folder that may read `root`, then closes and removes both. */
  async function inStore(name: string, limits: Omit<StoreLimits, 'readableDirs'>, fn: (store: DuckDbStore, dataDir: string) => Promise<void>): Promise<void> {
    const dataDir = await mkdtemp(join(tmpdir(), `team-data-cache-${name}-`));
    const store = await DuckDbStore.open(dataDir, { readableDirs: [root], ...limits });
    try {
      await fn(store, dataDir);
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  it('a copy stopped after it was written (while it is read back) is removed, not left in the folder', async () => {
    // Defect (review): only a failed COPY removed its file; an interrupt during the read-back left it.
    const dataDir = await mkdtemp(join(tmpdir(), 'team-data-cache-readback-'));
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    try {
      const path = join(root, 'readback.csv');
      await writeFile(path, ordersCsv(2_000));
      await conn.run(`CREATE VIEW orders AS SELECT * FROM read_csv('${path}')`);
      conn.runAndReadAll = () => Promise.reject(new Error('INTERRUPT Error: Interrupted!'));
      const columns = [{ name: 'order_id', type: 'BIGINT' }, { name: 'order_date', type: 'DATE' }, { name: 'region', type: 'VARCHAR' }, { name: 'amount', type: 'BIGINT' }, { name: 'note', type: 'VARCHAR' }];
      await assert.rejects(writeCache(conn, 'orders', columns, { dir: dataDir, file: path, minBytes: 0 }, 'orders'), /Interrupted/);
      assert.deepEqual((await readdir(dataDir)).filter((n) => n.endsWith('.parquet')), []);
    } finally {
      conn.disconnectSync();
      instance.closeSync();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('copies no file below the smallest worth copying: a small CSV is read in place as before, with no cache in the tree', async () => {
    // Defect: a 400-row CSV got a copy and "cached, 23% of the file" in the tree, for nothing a user notices.
    await inStore('small', {}, async (store, dataDir) => {
      const dir = join(root, 'small');
      await mkdir(dir, { recursive: true });
      const path = join(dir, 'sales.csv');
      await writeFile(path, ordersCsv(40_000));
      const source: DataSource = { id: 'small-1', datasetId: 'd', name: 'sales.csv', fileName: 'sales.csv', type: 'FILE', status: 'synching' };
      await store.ingest(source, path, new AbortController().signal, { inPlace: true });
      assert.equal(await store.writeCopy(source.id), undefined);
      assert.deepEqual(await parquetIn(dataDir), []);
    });
  });

  it('the store drops a copy whose file changed as soon as it describes the source, before any re-read: the view reads the file again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'team-data-cache-store-'));
    const store = await DuckDbStore.open(dataDir, { readableDirs: [root], minCacheBytes: 0 });
    try {
      const dir = join(root, 'store');
      await mkdir(dir, { recursive: true });
      const path = join(dir, 'sales.csv');
      await writeFile(path, ordersCsv(40_000));
      const source: DataSource = { id: 'cached-1', datasetId: 'd', name: 'sales.csv', fileName: 'sales.csv', type: 'FILE', status: 'synching' };
      const first = await store.ingest(source, path, new AbortController().signal, { inPlace: true });
      assert.equal(DuckDbStore.cacheBytes(first), 0, 'the read makes no copy');
      const read = await store.writeCopy(source.id);
      assert.ok(read !== undefined && read.kind === 'tables');
      const cache = read.kind === 'tables' ? read.tables[0]?.cache : undefined;
      assert.ok(cache !== undefined, 'the read made a copy');
      assert.equal(DuckDbStore.cacheBytes(read), cache.bytes);
      const sum = async (): Promise<number> => Number((await store.query(`SELECT sum(amount) FROM "${tableNameFor(source.id)}"`)).rows[0]?.[0]);
      const total = await sum();
      await writeFile(path, ordersCsv(40_000, 1));
      // Still the copy until the store is asked about the source (every job asks first).
      assert.equal(await sum(), total);
      const described = await store.describe(source.id);
      assert.equal(described?.kind === 'tables' ? described.tables[0]?.cache : 'none', undefined);
      assert.equal(await sum(), total + 40_000);
      assert.deepEqual(await parquetIn(dataDir), []);
      // A restart keeps the view on the file.
      await store.close();
      const again = await DuckDbStore.open(dataDir, { readableDirs: [root], minCacheBytes: 0 });
      try {
        assert.equal(Number((await again.query(`SELECT sum(amount) FROM "${tableNameFor(source.id)}"`)).rows[0]?.[0]), total + 40_000);
      } finally {
        await again.close();
      }
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a table wider than the copies\' limit keeps no copy (the writer\'s buffers grow with the columns)', async () => {
    await inStore('wide', { minCacheBytes: 0, maxCacheShare: Infinity }, async (store, dataDir) => {
      const cols = MAX_CACHE_COLUMNS + 1;
      const lines = [Array.from({ length: cols }, (_, i) => `c${i}`).join(',')];
      for (let r = 0; r < 50; r++) lines.push(Array.from({ length: cols }, (_, i) => String(r + i)).join(','));
      const path = join(root, 'wide.csv');
      await writeFile(path, `${lines.join('\n')}\n`);
      const source: DataSource = { id: 'wide-1', datasetId: 'd', name: 'wide.csv', fileName: 'wide.csv', type: 'FILE', status: 'synching' };
      const read = await store.ingest(source, path, new AbortController().signal, { inPlace: true });
      assert.equal(await store.writeCopy(source.id), undefined);
      assert.equal(read.kind === 'tables' ? read.tables[0]?.rowCount : 0, 50);
      assert.deepEqual(await parquetIn(dataDir), []);
    });
  });

  it('a store opened with copies turned off puts every view back over its file and removes the copies', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'team-data-cache-off-'));
    const path = join(root, 'off.csv');
    await writeFile(path, ordersCsv(40_000));
    const source: DataSource = { id: 'cached-off', datasetId: 'd', name: 'off.csv', fileName: 'off.csv', type: 'FILE', status: 'synching' };
    const sum = async (s: DuckDbStore): Promise<number> => Number((await s.query(`SELECT sum(amount) FROM "${tableNameFor(source.id)}"`)).rows[0]?.[0]);
    try {
      const store = await DuckDbStore.open(dataDir, { readableDirs: [root], minCacheBytes: 0 });
      let before: number;
      try {
        await store.ingest(source, path, new AbortController().signal, { inPlace: true });
        assert.ok(DuckDbStore.cacheBytes(await store.writeCopy(source.id)) > 0);
        before = await sum(store);
      } finally {
        await store.close();
      }
      const off = await DuckDbStore.open(dataDir, { readableDirs: [root], minCacheBytes: 0, inPlaceCache: false });
      try {
        assert.deepEqual(await parquetIn(dataDir), []);
        const described = await off.describe(source.id);
        assert.equal(DuckDbStore.cacheBytes(described), 0);
        assert.equal(await sum(off), before);
        const again = await off.ingest(source, path, new AbortController().signal, { inPlace: true });
        assert.equal(DuckDbStore.cacheBytes(again), 0);
        assert.equal(await off.writeCopy(source.id), undefined);
        assert.deepEqual(await parquetIn(dataDir), []);
      } finally {
        await off.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

});
