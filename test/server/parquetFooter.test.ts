/**
 * The Parquet footer check (issue 25): a footer's declared list sizes are read before DuckDB reads
 * the file, because DuckDB sizes its lists from them first (an 866 KB file declaring 50,000,000
 * schema elements took 21 GB). Hostile footers are written here by hand; real ones by DuckDB.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { checkParquetFooter, MAX_PARQUET_FOOTER_COST, MAX_PARQUET_SCHEMA_ELEMENTS, summarizeParquetFooter } from '../../src/server/duckdb/parquetFooter';
import { IngestError } from '../../src/server/engine';
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

/** A footer (FileMetaData in Thrift's compact protocol) around `body`, as a whole Parquet file. */
function parquetWith(footer: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32LE(footer.length, 0);
  return Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(64), footer, len, Buffer.from('PAR1')]);
}

/** A list header of `n` entries of compact type `type`. */
const listOf = (n: number, type: number): number[] => (n < 15 ? [(n << 4) | type] : [0xf0 | type, ...varint(n)]);
/** `entry` `n` times. */
const times = (entry: readonly number[], n: number): Buffer => Buffer.alloc(entry.length * n, Buffer.from(entry));
const SCHEMA_ELEMENT = [0x48, 0x00, 0x00]; // { 4: name = '' }
const COLUMN_CHUNK = [0x26, 0x00, 0x00]; // { 2: file_offset = 0 }
const KEY_VALUE = [0x18, 0x00, 0x00]; // { 1: key = '' }

/**
 * A footer whose entries are all valid, so DuckDB reads (and allocates) every list before it finds
 * the file makes no sense: `schema` schema elements, `rowGroups` row groups of `chunks` column
 * chunks each, and `keyValues` key-value pairs. What it costs DuckDB is what the check must bound.
 */
function craftedFooter(o: { schema: number; rowGroups: number; chunks: number; keyValues?: number }): Buffer {
  const rowGroup = Buffer.concat([Buffer.from([0x19, ...listOf(o.chunks, 12)]), times(COLUMN_CHUNK, o.chunks), Buffer.from([0x16, 0x00, 0x16, 0x00, 0x00])]);
  return Buffer.concat([
    Buffer.from([0x15, 0x02, 0x19, ...listOf(o.schema, 12)]), times(SCHEMA_ELEMENT, o.schema),
    Buffer.from([0x16, 0x00, 0x19, ...listOf(o.rowGroups, 12)]), Buffer.concat(new Array<Buffer>(o.rowGroups).fill(rowGroup)),
    o.keyValues ? Buffer.concat([Buffer.from([0x19, ...listOf(o.keyValues, 12)]), times(KEY_VALUE, o.keyValues)]) : Buffer.alloc(0),
    Buffer.from([0x00]),
  ]);
}

/** DuckDB's peak RSS in MB reading `path` in a process of its own (this one's peak is long past). */
function duckDbPeakMb(path: string): number {
  const script = `const { DuckDBInstance } = require('@duckdb/node-api');
    (async () => { const db = await DuckDBInstance.create(':memory:'); const c = await db.connect();
      try { await c.run(\`SELECT * FROM read_parquet('\${process.argv[1]}')\`); } catch {}
      process.stdout.write(String(process.resourceUsage().maxRSS / 1024)); })();`;
  return Number(execFileSync(process.execPath, ['-e', script, path], { cwd: join(__dirname, '..', '..'), encoding: 'utf8' }));
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

  it('bounds the column chunks, the row groups and what all lists together cost DuckDB (security review of issue 25, item 3)', () => {
    // 1 MB declaring 1,000,000 column chunks took DuckDB ~820 MB; 1,000,000 row groups of one chunk ~950 MB.
    assert.throws(() => summarizeParquetFooter(craftedFooter({ schema: 2, rowGroups: 1, chunks: 1_000_000 })), /more than 100,000 column chunks/);
    assert.throws(() => summarizeParquetFooter(craftedFooter({ schema: 2, rowGroups: 200_000, chunks: 0 })), /declares 200,000 row groups; this service reads at most 100,000/);
    // Each count within its own limit, together over the budget.
    assert.throws(() => summarizeParquetFooter(craftedFooter({ schema: 100_000, rowGroups: 1, chunks: 100_000, keyValues: 500_000 })), /reading them would take DuckDB over 168 MB of memory/);
    const within = summarizeParquetFooter(craftedFooter({ schema: 100_000, rowGroups: 1, chunks: 100_000, keyValues: 350_000 }));
    assert.ok(within.cost <= MAX_PARQUET_FOOTER_COST && within.cost > 0.95 * MAX_PARQUET_FOOTER_COST, String(within.cost));
  });

  it('counts lists and maps as levels of nesting: 200,000 nested lists or maps are refused with the reason, not a stack overflow (item 4)', async () => {
    const lists = Buffer.alloc(200_000, 0x19);
    const maps = Buffer.concat([Buffer.from([0x1b]), times([0x01, 0xbb], 100_000)]);
    const mixed = Buffer.concat([Buffer.from([0x1c]), times([0x19, 0x1c, 0x1b, 0x01, 0xcc], 40_000)]);
    for (const footer of [lists, maps, mixed]) assert.throws(() => summarizeParquetFooter(footer), /^Error: its table of contents nests more than 32 levels deep \(structs, lists and maps\)$/);
    const path = join(dir, 'nested.parquet');
    await writeFile(path, parquetWith(lists));
    await assert.rejects(checkParquetFooter(path, (await stat(path)).size, 'nested.parquet'), (e: unknown) => {
      assert.ok(e instanceof IngestError, String(e));
      assert.match(e.message, /^nested\.parquet was refused before reading: its table of contents nests more than 32 levels deep/);
      return true;
    });
  });

  it('keeps DuckDB well under 300 MB on the costliest footer the check lets through', async () => {
    const path = join(dir, 'costly.parquet');
    const footer = craftedFooter({ schema: 100_000, rowGroups: 1, chunks: 100_000, keyValues: 350_000 });
    await writeFile(path, parquetWith(footer));
    await checkParquetFooter(path, (await stat(path)).size, 'costly.parquet');
    const peak = duckDbPeakMb(path);
    console.log(`      DuckDB peak RSS on the costliest footer let through (${(footer.length / 1024 ** 2).toFixed(1)} MB): ${peak.toFixed(0)} MB (target < 300)`);
    assert.ok(peak < 300, `${peak} MB`);
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
      // 1,000,000 honest-looking empty column chunks in 3 MB (DuckDB alone: ~820 MB).
      const chunks = join(dir, 'chunks.parquet');
      await writeFile(chunks, parquetWith(craftedFooter({ schema: 2, rowGroups: 1, chunks: 1_000_000 })));
      const chunksSource: DataSource = { ...source, id: 'p2', name: 'chunks.parquet', fileName: 'chunks.parquet' };
      for (const inPlace of [false, true]) {
        const before = process.resourceUsage().maxRSS;
        await assert.rejects(store.ingest(chunksSource, chunks, new AbortController().signal, { inPlace }), /chunks\.parquet was refused before reading: it declares more than 100,000 column chunks/);
        const grew = (process.resourceUsage().maxRSS - before) / 1024;
        console.log(`      peak RSS growth on 1,000,000 declared column chunks (${inPlace ? 'in place' : 'upload'}): ${grew.toFixed(0)} MB`);
        assert.ok(grew < 200, `peak RSS grew by ${grew.toFixed(0)} MB`);
      }
    } finally {
      await store.close();
    }
  });
});
