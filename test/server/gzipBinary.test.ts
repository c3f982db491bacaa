/**
 * Parquet files and workbooks inside gzip (`.parquet.gz`, `.xlsx.gz`, issue 27): the store inflates
 * them into its scratch folder (gzipCopy.ts) and reads them as the plain forms. Checked: the rows,
 * uploaded and in place; a truncated stream, a file that is not gzip and a gzip bomb over the
 * store's cap (lowered here) each fail with a reason naming the file and leave nothing in scratch;
 * a cancelled read stops and leaves nothing either; the store answers the next request.
 */
import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { inflateToScratch } from '../../src/server/duckdb/gzipCopy';
import { IngestError, type IngestedTable, type IngestResult } from '../../src/server/engine';
import type { DataSource } from '../../src/shared/domain';

const never = (): AbortSignal => new AbortController().signal;
const source = (id: string, fileName: string): DataSource => ({ id, datasetId: 'ds1', name: fileName, fileName, type: 'FILE', status: 'synching' });

function tablesOf(r: IngestResult | undefined): IngestedTable[] {
  assert.ok(r && r.kind === 'tables', `expected tables, got ${JSON.stringify(r)}`);
  return r.tables;
}

/** Cap on inflated bytes for this store: 1 MB, so a bomb is cheap to make. */
const CAP = 1_000_000;

describe('gzip-compressed Parquet and XLSX (issue 27)', function () {
  this.timeout(60_000);
  let dir: string;
  let data: string;
  let store: DuckDbStore;
  let parquet: Buffer;
  let n = 0;

  const scratch = (): Promise<string[]> => readdir(store.scratchDir);
  const rows = async (table: string, order: string): Promise<unknown[][]> => (await store.query(`SELECT * FROM "${table}" ORDER BY ${order}`)).rows;

  async function ingest(fileName: string, contents: Buffer, inPlace = false): Promise<IngestResult> {
    const id = `s${++n}`;
    const path = join(dir, `${id}-${fileName}`);
    await writeFile(path, contents);
    return store.ingest(source(id, fileName), path, never(), { inPlace });
  }

  async function fails(fileName: string, contents: Buffer, pattern: RegExp): Promise<void> {
    await assert.rejects(ingest(fileName, contents), (err: unknown) => {
      assert.ok(err instanceof IngestError, `expected IngestError, got ${String(err)}`);
      assert.match(err.message, pattern);
      return true;
    });
    assert.deepEqual(await scratch(), [], 'no partial copy left in scratch');
    // The store goes on answering.
    assert.deepEqual((await store.query('SELECT 41 + 1')).rows, [[42]]);
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gz-bin-'));
    data = join(dir, 'data');
    store = await DuckDbStore.open(data, { readableDirs: [dir], maxInflatedBytes: CAP });
    const file = join(dir, 'made.parquet');
    await store.query(`COPY (SELECT i AS id, 'n' || i AS name, i * 1.5 AS amount FROM range(1, 4) t(i)) TO '${file}' (FORMAT parquet)`);
    parquet = await readFile(file);
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads an uploaded .parquet.gz and removes its scratch copy', async () => {
    const [t] = tablesOf(await ingest('sales.parquet.gz', gzipSync(parquet)));
    assert.ok(t);
    assert.deepEqual(await rows(t.table, 'id'), [[1, 'n1', 1.5], [2, 'n2', 3], [3, 'n3', 4.5]]);
    assert.deepEqual(await scratch(), []);
  });

  it('reads a .parquet.gz in place into a table (not a view over a scratch copy), and again after an edit', async () => {
    const path = join(dir, 'live.parquet.gz');
    await writeFile(path, gzipSync(parquet));
    const read = await store.ingest(source('live', 'live.parquet.gz'), path, never(), { inPlace: true });
    const [t] = tablesOf(read);
    assert.ok(t);
    assert.equal(t.inPlace, undefined, 'a table, so nothing reads the removed copy later');
    assert.equal(t.rowCount, 3);
    assert.deepEqual(await scratch(), []);
    // What the ingest queue does when the file's size or time changes: read it again.
    const file = join(dir, 'edited.parquet');
    await store.query(`COPY (SELECT 7 AS id, 'seven' AS name, 0.5 AS amount) TO '${file}' (FORMAT parquet)`);
    await writeFile(path, gzipSync(await readFile(file)));
    const [again] = tablesOf(await store.ingest(source('live', 'live.parquet.gz'), path, never(), { inPlace: true }));
    assert.ok(again);
    assert.deepEqual(await rows(again.table, 'id'), [[7, 'seven', 0.5]]);
  });

  it('reads every sheet of an .xlsx.gz', async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['id', 'who'], [1, 'a'], [2, 'b']]), 'First');
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['k', 'v'], ['x', 10], ['y', 20], ['z', 30]]), 'Second');
    const tables = tablesOf(await ingest('book.xlsx.gz', gzipSync(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer)));
    assert.deepEqual(tables.map((t) => t.sheet), ['First', 'Second']);
    assert.equal(tables[1]?.origin?.reader, 'read_xlsx', 'shown SQL reads the workbook, not a CSV');
    assert.deepEqual(await rows(tables[0]?.table ?? '', 'id'), [[1, 'a'], [2, 'b']]);
    assert.deepEqual(await rows(tables[1]?.table ?? '', 'k'), [['x', 10], ['y', 20], ['z', 30]]);
    assert.deepEqual(await scratch(), []);
  });

  it('refuses a truncated .parquet.gz, and one that is not gzip at all, naming the file', async () => {
    const gz = gzipSync(parquet);
    await fails('cut.parquet.gz', gz.subarray(0, Math.floor(gz.length / 2)), /^cut\.parquet\.gz is cut short: its gzip data ends/);
    await fails('plain.parquet.gz', parquet, /^plain\.parquet\.gz is damaged: its gzip data cannot be decompressed/);
    await fails('cut.xlsx.gz', gz.subarray(0, 40), /^cut\.xlsx\.gz is cut short/);
  });

  it('refuses a gzip bomb past the store\'s cap, leaving no partial copy', async () => {
    // 50 MB of zeros in about 50 kB.
    await fails('bomb.parquet.gz', gzipSync(Buffer.alloc(50_000_000)), /^bomb\.parquet\.gz expands to more than 1(\.0+)? MB when decompressed/);
    await fails('bomb.xlsx.gz', gzipSync(Buffer.alloc(50_000_000)), /^bomb\.xlsx\.gz expands to more than 1(\.0+)? MB when decompressed/);
    // Within the cap, the same path reads a real file (the cap is not simply refusing everything).
    assert.equal(tablesOf(await ingest('ok.parquet.gz', gzipSync(parquet)))[0]?.rowCount, 3);
  });

  it('stops inflating when the job is cancelled, leaving no partial copy', async () => {
    const path = join(dir, 'slow.parquet.gz');
    await writeFile(path, gzipSync(Buffer.alloc(300_000_000)));
    const work = join(dir, 'work');
    await rm(work, { recursive: true, force: true });
    await mkdir(work);
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(new Error('cancelled by the test')), 30);
    await assert.rejects(inflateToScratch(path, 'slow.parquet.gz', { workDir: work, maxBytes: 1e12, signal: abort.signal, ext: '.parquet' }), /cancelled by the test/);
    assert.ok(Date.now() - started < 5_000, 'stopped mid-stream, not after inflating it all');
    assert.deepEqual(await readdir(work), []);
  });
});
