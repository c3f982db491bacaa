/**
 * The Parquet footer check (issue 25): a footer's declared list sizes are read before DuckDB reads
 * the file, because DuckDB sizes its lists from them first (an 866 KB file declaring 50,000,000
 * schema elements took 21 GB). Hostile footers are written here by hand; real ones by DuckDB.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { checkParquetFooter, MAX_PARQUET_SCHEMA_ELEMENTS, summarizeParquetFooter } from '../../src/server/duckdb/parquetFooter';
import type { DataSource } from '../../src/shared/domain';

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

/**
 * A Parquet file whose footer is FileMetaData { 1: version = 1, 2: schema = list of `declared`
 * structs } followed by `present` empty structs: a footer that lies when present < declared.
 */
function hostileParquet(declared: number, present: number): Buffer {
  const footer = Buffer.from([0x15, 0x02, 0x19, 0xfc, ...varint(declared), ...new Array<number>(present).fill(0), 0x00]);
  const len = Buffer.alloc(4);
  len.writeUInt32LE(footer.length, 0);
  return Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64), footer, len, Buffer.from('PAR1')]);
}

describe('Parquet footer check before DuckDB reads the file', function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-parquet-footer-'));
  });
  after(async () => rm(dir, { recursive: true, force: true }));

  it('reads the sizes of real footers as DuckDB wrote them (nested columns, several row groups, metadata)', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const path = join(dir, 'real.parquet');
      await conn.run(`COPY (SELECT i AS id, 'n' || i AS name, {'a': i, 'b': [i, i + 1]} AS s, i % 2 = 0 AS flag, i / 3.0 AS x FROM range(10000) t(i))
        TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 2048, KV_METADATA {origin: 'test'})`);
      const meta = (await conn.runAndReadAll(`SELECT (SELECT count(*) FROM parquet_schema('${path}')), (SELECT count(DISTINCT row_group_id) FROM parquet_metadata('${path}')), (SELECT count(*) FROM parquet_metadata('${path}'))`)).getRows()[0];
      const got = await checkParquetFooter(path, (await stat(path)).size, 'real.parquet');
      assert.deepEqual([got.schemaElements, got.rowGroups, got.columnChunks], meta?.map(Number));
      assert.ok(got.rowGroups >= 4, 'several row groups');
    } finally {
      conn.disconnectSync();
      db.closeSync();
    }
  });

  it('refuses a footer whose lists declare more entries than its bytes hold, or more columns than the limit', () => {
    const footer = (declared: number, present: number): Buffer => {
      const f = hostileParquet(declared, present);
      return f.subarray(4 + 64, f.length - 8);
    };
    assert.throws(() => summarizeParquetFooter(footer(50_000_000, 1000)), /declares a list of 50,000,000 entries in 1,001 bytes/);
    assert.throws(() => summarizeParquetFooter(footer(MAX_PARQUET_SCHEMA_ELEMENTS + 1, MAX_PARQUET_SCHEMA_ELEMENTS + 1)), /declares 100,001 schema elements/);
    assert.equal(summarizeParquetFooter(footer(3, 3)).schemaElements, 3, 'an honest footer passes the check (DuckDB judges the rest)');
    // Cut anywhere, a real-looking footer is refused with a reason, never read past its end.
    const honest = footer(5, 5);
    for (let cut = 0; cut < honest.length - 1; cut++) assert.throws(() => summarizeParquetFooter(honest.subarray(0, cut)), /ends in the middle|declares a list/);
  });

  it('refuses the hostile file on upload and in place with a clear reason, before DuckDB sizes its lists', async () => {
    const store = await DuckDbStore.open(join(dir, 'db'), { readableDirs: [dir] });
    try {
      // 1,000,000 declared schema elements: DuckDB alone allocates about 430 MB before failing.
      const path = join(dir, 'lying.parquet');
      await writeFile(path, hostileParquet(1_000_000, 2000));
      const source: DataSource = { id: 'p1', datasetId: 'd', name: 'lying.parquet', fileName: 'lying.parquet', type: 'FILE', status: 'synched' };
      for (const inPlace of [false, true]) {
        const before = process.resourceUsage().maxRSS;
        await assert.rejects(store.ingest(source, path, new AbortController().signal, { inPlace }), /lying\.parquet was refused before reading: its table of contents declares a list of 1,000,000 entries/);
        const grew = (process.resourceUsage().maxRSS - before) * 1024;
        assert.ok(grew < 200 * 1024 ** 2, `peak RSS grew by ${(grew / 1024 ** 2).toFixed(0)} MB`);
      }
    } finally {
      await store.close();
    }
  });
});
