/**
 * Progress of a long read (issue 16, item 3): while DuckDB reads a file, the store reports the share
 * read, which the service turns into bytes on the data source; a ready table source says its rows.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { TeamDataClient } from '../../src/api/index';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { tableNameFor } from '../../src/server/duckdb/sqlText';
import { v1Codec } from '../../src/shared/codecV1';
import { v2Codec } from '../../src/shared/codecV2';
import type { DataSource } from '../../src/shared/domain';
import { readFraction, readingText, rowsText } from '../../src/shared/sourceActivity';
import { BIG_CSV_BLOCK_ROWS, writeBigCsv } from '../helpers/bigCsv';
import { startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';

describe('progress of a long read (issue 16)', function () {
  this.timeout(180_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-progress-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('the store reports the share of the file read and about how many rows, rising to the end, while DuckDB reads it', async () => {
    const file = join(dir, 'big.csv');
    const rowsInFile = (await writeBigCsv(file, 300)) * BIG_CSV_BLOCK_ROWS;
    const store = await DuckDbStore.open(join(dir, 'store'), { readableDirs: [dir] });
    try {
      const seen: Array<{ f: number; rows: number | undefined }> = [];
      const source: DataSource = { id: 'big', datasetId: 'd', name: 'big.csv', fileName: 'big.csv', type: 'FILE', status: 'synching' };
      const r = await store.ingest(source, file, new AbortController().signal, { inPlace: true, onProgress: (f, rows) => seen.push({ f, rows }) });
      assert.equal(r.kind, 'tables');
      assert.ok(seen.length >= 1, 'at least one report during a read of 300 MB');
      const shares = seen.map((s) => s.f);
      assert.ok(shares.every((f, i) => f > 0 && f <= 1 && (i === 0 || f > (shares[i - 1] as number))), `rising shares in (0, 1]: ${shares.join(', ')}`);
      // DuckDB's own count for a CSV is not in rows (it said 26.9 M for a 17.4 M-row file); the
      // estimate from line lengths is within a few percent of the rows really behind that share.
      for (const { f, rows } of seen) {
        assert.ok(rows !== undefined, `rows with every report: ${JSON.stringify(seen)}`);
        const truth = f * rowsInFile;
        assert.ok(Math.abs(rows - truth) <= truth * 0.05 + 10, `about ${Math.round(truth)} rows at ${f}, not ${rows}`);
      }
    } finally {
      await store.close();
    }
  });

  it('a Parquet file read in place reports the rows DuckDB has counted, never more than it holds', async () => {
    const file = join(dir, 'big.parquet');
    const rowsInFile = 30_000_000;
    const maker = await DuckDBInstance.create(':memory:');
    const c = await maker.connect();
    await c.run(`COPY (SELECT i AS id, 'region-' || (i % 7) AS region, (i * 37) % 1000 + 0.25 AS amount FROM range(${rowsInFile}) t(i)) TO '${file}' (FORMAT parquet)`);
    c.closeSync();
    const store = await DuckDbStore.open(join(dir, 'store-parquet'), { readableDirs: [dir] });
    try {
      const seen: Array<{ f: number; rows: number | undefined }> = [];
      const source: DataSource = { id: 'pq', datasetId: 'd', name: 'big.parquet', fileName: 'big.parquet', type: 'FILE', status: 'synching' };
      await store.ingest(source, file, new AbortController().signal, { inPlace: true, onProgress: (f, rows) => seen.push({ f, rows }) });
      assert.ok(seen.length >= 1, 'at least one report during a read of 30 M rows');
      const rows = seen.map((s) => s.rows ?? 0);
      assert.ok(rows.every((n, i) => n > 0 && n <= rowsInFile && (i === 0 || n >= (rows[i - 1] as number))), `rising row counts up to ${rowsInFile}: ${rows.join(', ')}`);
    } finally {
      await store.close();
    }
  });

  it('deleting a source stops a query still reading its file, and a query on another source goes on', async () => {
    const file = join(dir, 'big.csv');
    await writeBigCsv(file, 300);
    // No columnar copy (issue 27): the query must read the file itself, which takes long enough to be stopped.
    const store = await DuckDbStore.open(join(dir, 'store-drop'), { readableDirs: [dir], inPlaceCache: false });
    try {
      const signal = new AbortController().signal;
      const make = (id: string): DataSource => ({ id, datasetId: 'd', name: `${id}.csv`, fileName: `${id}.csv`, type: 'FILE', status: 'synching' });
      await store.ingest(make('gone'), file, signal, { inPlace: true });
      await writeFile(join(dir, 'kept.csv'), 'a\n1\n2\n');
      await store.ingest(make('kept'), join(dir, 'kept.csv'), signal);
      // A full read of the 300 MB file takes a second or more: still running when the delete comes.
      const long = store.query(`SELECT count(DISTINCT region || id) FROM "${tableNameFor('gone')}"`, [], { timeoutMs: 120_000 }).then(() => 'finished', (e: Error) => e.message);
      await new Promise((r) => setTimeout(r, 300));
      await store.drop('gone');
      assert.match(await long, /interrupt/i, 'the query reading the deleted source was stopped');
      const other = await store.query(`SELECT sum(a) FROM "${tableNameFor('kept')}"`);
      assert.equal(Number(other.rows[0]?.[0]), 3);
    } finally {
      await store.close();
    }
  });

  it('data sources carry progress and rows over both API versions, and the shared wording reads them', () => {
    const ds: DataSource = { id: 's', datasetId: 'd', name: 'big.csv', fileName: 'big.csv', type: 'FILE', status: 'synching', progress: { readBytes: 412 * 1024 ** 2, totalBytes: 1024 ** 3, rowsRead: 7_080_000 } };
    for (const codec of [v1Codec, v2Codec]) {
      const back = codec.decodeDataSource(JSON.parse(JSON.stringify(codec.encodeDataSource(ds))));
      assert.deepEqual(back.progress, ds.progress);
      const ready = codec.decodeDataSource(JSON.parse(JSON.stringify(codec.encodeDataSource({ ...ds, status: 'synched', progress: undefined, rows: 17_430_000 } as DataSource))));
      assert.equal(ready.rows, 17_430_000);
    }
    // Sizes in decimal units, as labelled (issue 24): 412 MiB is 432 MB, 1 GiB is 1.1 GB.
    assert.equal(readingText(ds), 'reading 432 MB of 1.1 GB (40%) · about 7.1M rows');
    assert.equal(readingText({ ...ds, progress: { readBytes: 412 * 1024 ** 2, totalBytes: 1024 ** 3 } }), 'reading 432 MB of 1.1 GB (40%)');
    assert.equal(readingText({ ...ds, progress: { readBytes: 1000, totalBytes: 10_000, rowsRead: 12 } }), 'reading 1.0 kB of 10 kB (10%) · about 12 rows');
    assert.equal(readFraction(ds), 412 / 1024);
    assert.equal(rowsText({ ...ds, status: 'synched', rows: 17_430_000 }), '17,430,000 rows');
    // Nonsense from a service is dropped, not shown.
    assert.equal(v1Codec.decodeDataSource({ id: 's', name: 'x.csv', status: 'synching', progress: { readBytes: -1, totalBytes: 0 } }).progress, undefined);
  });

  describe('through the service', () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ readRoots: [dir] });
    });
    after(async () => h?.stop());

    it('a ready source says how many rows it has', async () => {
      const client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER });
      const datasetId = (await client.datasets.create({ name: 'rows', description: '' })).id;
      const path = join(dir, 'small.csv');
      await writeFile(path, 'a,b\n1,2\n3,4\n5,6\n');
      const ds = await client.dataSources.create(datasetId, { fileName: 'small.csv', path });
      const ready = await client.dataSources.waitUntilSynched(datasetId, ds.id, { intervalMs: 50 });
      assert.equal(ready.rows, 3);
      assert.equal(ready.progress, undefined);
    });
  });
});
