import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { DuckDbStore, QueryError, QueryTimeoutError } from '../../src/server/duckdb/duckDbStore';
import { IngestError, type IngestedTable, type IngestResult } from '../../src/server/engine';
import type { DataSource } from '../../src/shared/domain';

const never = (): AbortSignal => new AbortController().signal;

function source(id: string, fileName: string): DataSource {
  return { id, datasetId: 'ds1', name: fileName, fileName, type: 'FILE', status: 'synching' };
}

function tablesOf(r: IngestResult | undefined): IngestedTable[] {
  assert.ok(r && r.kind === 'tables', `expected tables, got ${JSON.stringify(r)}`);
  return r.tables;
}

function onlyTable(r: IngestResult | undefined): IngestedTable {
  const t = tablesOf(r);
  assert.equal(t.length, 1);
  return t[0] as IngestedTable;
}

const typesOf = (t: IngestedTable): Record<string, string> => Object.fromEntries(t.columns.map((c) => [c.name, c.type]));

/** A date cell with an explicit date format: independent of the machine's time zone. */
const dateCell = (serial: number): XLSX.CellObject => ({ t: 'n', v: serial, z: 'yyyy-mm-dd' });

function workbook(sheets: Record<string, unknown[][]>): XLSX.WorkBook {
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return wb;
}

describe('DuckDbStore', function () {
  this.timeout(60_000);
  let dir: string;
  let store: DuckDbStore;
  let n = 0;

  /** Writes a file into the temp dir and ingests it under a fresh source id. */
  async function ingest(fileName: string, contents: string | Uint8Array, id = `src-${++n}`): Promise<{ id: string; result: IngestResult }> {
    const path = join(dir, `${id}-${fileName}`);
    await writeFile(path, contents);
    return { id, result: await store.ingest(source(id, fileName), path, never()) };
  }

  async function ingestFails(fileName: string, contents: string | Uint8Array, pattern: RegExp): Promise<void> {
    await assert.rejects(ingest(fileName, contents), (err: unknown) => {
      assert.ok(err instanceof IngestError, `expected IngestError, got ${String(err)}`);
      assert.match(err.message, pattern);
      return true;
    });
  }

  async function rows(table: string, orderBy = ''): Promise<unknown[][]> {
    return (await store.query(`SELECT * FROM "${table}"${orderBy ? ` ORDER BY ${orderBy}` : ''}`)).rows;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tda-store-'));
    store = await DuckDbStore.open(dir);
  });

  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('CSV and TSV', () => {
    it('reads a plain CSV with inferred types', async () => {
      const { result } = await ingest('sales.csv', 'id,city,amount,day,ok\n1,Berlin,10.5,2024-01-02,true\n2,Paris,3,2024-02-03,false\n');
      const t = onlyTable(result);
      assert.equal(t.rowCount, 2);
      assert.deepEqual(typesOf(t), { id: 'BIGINT', city: 'VARCHAR', amount: 'DOUBLE', day: 'DATE', ok: 'BOOLEAN' });
      assert.deepEqual(await rows(t.table, 'id'), [[1, 'Berlin', 10.5, '2024-01-02', true], [2, 'Paris', 3, '2024-02-03', false]]);
    });

    it('copes with ragged rows, quoted newlines, a BOM and trailing blank lines', async () => {
      const csv = '\uFEFFid,name,note\n1,"Ann","line one\nline two"\n2,Bob\n3,"Cy ""the"" guy",x,extra\n\n\n';
      const t = onlyTable((await ingest('messy.csv', csv)).result);
      assert.equal(t.rowCount, 3);
      assert.deepEqual(t.columns.slice(0, 3).map((c) => c.name), ['id', 'name', 'note']);
      const r = await rows(t.table, 'id');
      assert.deepEqual(r[0]?.slice(0, 3), [1, 'Ann', 'line one\nline two']);
      assert.deepEqual(r[1]?.slice(0, 3), [2, 'Bob', null]);
      assert.deepEqual(r[2]?.slice(0, 3), [3, 'Cy "the" guy', 'x']);
    });

    it('keeps every row when a late value does not fit the sniffed type (column becomes VARCHAR)', async () => {
      const lines = ['code,value'];
      for (let i = 0; i < 30_000; i++) lines.push(`${i},${i * 2}`);
      lines.push('A-17,5');
      const t = onlyTable((await ingest('late.csv', `${lines.join('\n')}\n`)).result);
      assert.equal(t.rowCount, 30_001);
      assert.equal(typesOf(t)['code'], 'VARCHAR');
      assert.equal(typesOf(t)['value'], 'BIGINT');
      const late = await store.query(`SELECT value FROM "${t.table}" WHERE code = 'A-17'`);
      assert.deepEqual(late.rows, [[5]]);
    });

    it('recognises dates in several formats, one format per column', async () => {
      const csv = 'iso,us,eu,stamp,version\n2024-03-15,03/15/2024,15.03.2024,2024-03-15 10:30:00,1.2.3\n2023-12-01,12/01/2023,01.12.2023,2023-12-01 08:00:00,1.10.0\n';
      const t = onlyTable((await ingest('dates.csv', csv)).result);
      const types = typesOf(t);
      assert.equal(types['iso'], 'DATE');
      assert.equal(types['us'], 'DATE');
      assert.equal(types['eu'], 'DATE');
      assert.equal(types['stamp'], 'TIMESTAMP');
      assert.equal(types['version'], 'VARCHAR', 'version numbers must not become dates');
      const r = await rows(t.table, 'iso');
      assert.deepEqual(r[1]?.slice(0, 4), ['2024-03-15', '2024-03-15', '2024-03-15', '2024-03-15T10:30:00']);
    });

    it('reads windows-1252 and UTF-16 text', async () => {
      const latin = Buffer.from([...Buffer.from('name,city\nJos'), 0xe9, ...Buffer.from(',M'), 0xfc, ...Buffer.from('nchen\n')]);
      const t1 = onlyTable((await ingest('latin.csv', latin)).result);
      assert.deepEqual(await rows(t1.table), [['José', 'München']]);
      const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n1,Grüße\n', 'utf16le')]);
      const t2 = onlyTable((await ingest('wide.csv', utf16)).result);
      assert.deepEqual(await rows(t2.table), [[1, 'Grüße']]);
    });

    it('gives a header-only CSV a table with 0 rows', async () => {
      const t = onlyTable((await ingest('header.csv', 'first name,last name\n')).result);
      assert.equal(t.rowCount, 0);
      assert.deepEqual(t.columns.map((c) => c.name), ['first name', 'last name']);
    });

    it('rejects empty, blank and binary files with a clear reason', async () => {
      await ingestFails('empty.csv', '', /empty/);
      await ingestFails('blank.csv', '\n\n  \n', /no data/);
      const garbage = Buffer.alloc(4096);
      for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 256;
      await ingestFails('garbage.csv', garbage, /not a CSV text file.*binary/);
      await ingestFails('renamed.csv', Buffer.from('PK\u0003\u0004rest-of-a-zip'), /ZIP archive/);
    });

    it('reads TSV with tabs as the delimiter', async () => {
      const t = onlyTable((await ingest('data.tsv', 'a\tb c\n1\tx, y\n2\tz\n')).result);
      assert.deepEqual(t.columns.map((c) => c.name), ['a', 'b c']);
      assert.deepEqual(await rows(t.table, 'a'), [[1, 'x, y'], [2, 'z']]);
    });

    it('keeps awkward header names: quotes, unicode, spaces, blanks and case-insensitive duplicates', async () => {
      const t = onlyTable((await ingest('names.csv', 'Name,name,,"a ""b""",Größe 😀,Name\n1,2,3,4,5,6\n')).result);
      const names = t.columns.map((c) => c.name);
      assert.equal(names.length, 6);
      assert.equal(new Set(names.map((x) => x.toLowerCase())).size, 6, `names must be unique: ${names.join('|')}`);
      assert.ok(names.includes('a "b"'));
      assert.ok(names.includes('Größe 😀'));
      assert.ok(names.every((x) => x.trim().length > 0));
      const r = await store.query(`SELECT "a ""b""", "Größe 😀" FROM "${t.table}"`);
      assert.deepEqual(r.rows, [[4, 5]]);
    });
  });

  describe('JSON', () => {
    it('reads an array of objects, flattening nested records into path-named columns and lists into text', async () => {
      const json = JSON.stringify([{ id: 1, tags: ['a', 'b'], meta: { x: 1, y: { z: 'deep' } } }, { id: 2, tags: [], meta: { x: 2, y: { z: null } }, extra: 's' }]);
      const r0 = await ingest('items.json', json);
      const t = onlyTable(r0.result);
      assert.equal(t.rowCount, 2);
      const types = typesOf(t);
      assert.equal(types['id'], 'BIGINT');
      assert.equal(types['tags'], 'VARCHAR');
      assert.equal(types['meta.x'], 'BIGINT');
      assert.equal(types['meta.y.z'], 'VARCHAR');
      const r = await rows(t.table, 'id');
      assert.deepEqual(r[0], [1, 'a, b', 1, 'deep', null]);
      assert.deepEqual(r[1], [2, null, 2, null, 's']);
      // The flattening is recorded so the SQL shown with an answer rebuilds the same table from the file.
      assert.ok(t.origin?.select?.some((s) => s.includes('"meta"."y"."z"')), JSON.stringify(t.origin));
    });

    it('types JSON fields that mix numbers with "" (no value) as numbers, and mixed text as text', async () => {
      const json = JSON.stringify([{ n: 1.5, m: '', s: 'x' }, { n: '', m: 2, s: 3 }, { n: 4, m: null, s: 'y' }]);
      const t = onlyTable((await ingest('mixed.json', json)).result);
      const types = typesOf(t);
      assert.equal(types['n'], 'DOUBLE');
      assert.equal(types['m'], 'DOUBLE');
      assert.equal(types['s'], 'VARCHAR');
      assert.deepEqual(await rows(t.table, 'rowid'), [[1.5, null, 'x'], [null, 2, '3'], [4, null, 'y']]);
    });

    it('reads NDJSON', async () => {
      const t = onlyTable((await ingest('events.json', '{"e":"click","n":1}\n{"e":"view","n":2}\n{"e":"click","n":3}\n')).result);
      assert.equal(t.rowCount, 3);
      assert.deepEqual(await rows(t.table, 'n'), [['click', 1], ['view', 2], ['click', 3]]);
    });

    it('rejects malformed JSON with the parser reason and no server path', async () => {
      await assert.rejects(ingest('broken.json', '[{"a": 1}, {"a": '), (err: unknown) => {
        assert.ok(err instanceof IngestError);
        assert.match(err.message, /could not read broken\.json as JSON/);
        assert.ok(!err.message.includes(dir), 'the data directory must not leak');
        return true;
      });
    });
  });

  describe('spreadsheets', () => {
    it('makes one table per non-empty sheet with header detection and types', async () => {
      const wb = workbook({
        Sales: [
          ['Quarterly report'],
          [],
          ['region', 'day', 'amount', 'paid', 'code'],
          ['North', null, 10.5, true, 7],
          ['South', null, 3, false, 'B-2'],
        ],
        Empty: [],
        People: [['name', 'age'], ['Ann', 31], ['Bob', 42]],
      });
      const sales = wb.Sheets['Sales'] as XLSX.WorkSheet;
      sales['B4'] = dateCell(45306); // 2024-01-15
      sales['B5'] = dateCell(45323); // 2024-02-01
      const buf = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
      const tables = tablesOf((await ingest('book.xlsx', buf)).result);
      assert.deepEqual(tables.map((t) => t.sheet), ['Sales', 'People']);
      const [s, p] = tables as [IngestedTable, IngestedTable];
      assert.deepEqual(typesOf(s), { region: 'VARCHAR', day: 'DATE', amount: 'DOUBLE', paid: 'BOOLEAN', code: 'VARCHAR' });
      assert.deepEqual(await rows(s.table, 'region'), [['North', '2024-01-15', 10.5, true, '7'], ['South', '2024-02-01', 3, false, 'B-2']]);
      assert.deepEqual(typesOf(p), { name: 'VARCHAR', age: 'BIGINT' });
      assert.equal(p.rowCount, 2);
      assert.notEqual(s.table, p.table);
    });

    it('reads the old XLS format', async () => {
      const buf = XLSX.write(workbook({ Data: [['k', 'v'], ['a', 1], ['b', 2.5]] }), { type: 'buffer', bookType: 'biff8' }) as Buffer;
      const t = onlyTable((await ingest('old.XLS', buf)).result);
      assert.deepEqual(typesOf(t), { k: 'VARCHAR', v: 'DOUBLE' });
      assert.deepEqual(await rows(t.table, 'k'), [['a', 1], ['b', 2.5]]);
    });

    it('rejects corrupt workbooks and non-workbooks with a clear reason', async () => {
      const good = XLSX.write(workbook({ A: [['x'], [1]] }), { type: 'buffer', bookType: 'xlsx' }) as Buffer;
      await ingestFails('cut.xlsx', good.subarray(0, Math.floor(good.length / 2)), /damaged|not an Excel/);
      await ingestFails('text.xlsx', 'a,b\n1,2\n', /not an Excel workbook/);
      await ingestFails('blank.xlsx', XLSX.write(workbook({ A: [] }), { type: 'buffer', bookType: 'xlsx' }) as Buffer, /every sheet is empty/);
    });
  });

  describe('text and unsupported formats', () => {
    it('keeps MD and TXT as text, decoding legacy encodings', async () => {
      const md = '# Title\n\nSome *markdown* text.\n';
      const { id, result } = await ingest('notes.md', md);
      assert.deepEqual(result, { kind: 'text', chars: md.length });
      assert.equal(await store.readText(id), md);
      const { id: id2 } = await ingest('legacy.txt', Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x0a]));
      assert.equal(await store.readText(id2), 'Café €\n');
      await ingestFails('bin.txt', Buffer.from([1, 2, 0, 3, 4, 0, 5]), /not a text file/);
    });

    it('turns a missing or unreadable upload into an IngestError', async () => {
      await assert.rejects(store.ingest(source('m1', 'gone.csv'), join(dir, 'nope.csv'), never()),
        (err: unknown) => err instanceof IngestError && /missing; upload it again/.test(err.message));
      await assert.rejects(store.ingest(source('m2', 'dir.csv'), dir, never()), (err: unknown) => err instanceof IngestError);
    });

    it('says plainly why damaged documents, legacy Office files and unknown types fail', async () => {
      await ingestFails('report.pdf', '%PDF-1.4', /^could not read report\.pdf: the PDF is damaged/);
      await ingestFails('memo.DOCX', 'x', /memo\.DOCX is not a \.docx file/);
      await ingestFails('deck.pptx', 'x', /deck\.pptx is not a \.pptx file/);
      await ingestFails('old.doc', 'x', /save it as \.docx/);
      await ingestFails('old.ppt', 'x', /save it as \.pptx/);
      await ingestFails('data.avro', 'x', /\.avro files are not supported/);
      await ingestFails('data.xls.gz', 'x', /\.xls\.gz files are not supported; use .*Parquet and XLSX also gzip-compressed/);
      await ingestFails('data.parquet', 'x', /data\.parquet is not a Parquet file/);
    });
  });

  describe('lifecycle', () => {
    it('describes sources after a restart', async () => {
      const { id: csvId, result: csv } = await ingest('a.csv', 'x,y\n1,2\n');
      const { id: mdId, result: md } = await ingest('b.md', 'hello');
      await store.close();
      store = await DuckDbStore.open(dir);
      assert.deepEqual(await store.describe(csvId), csv);
      assert.deepEqual(await store.describe(mdId), md);
      assert.equal(await store.readText(mdId), 'hello');
      assert.deepEqual((await store.query(`SELECT * FROM "${onlyTable(csv).table}"`)).rows, [[1, 2]]);
      assert.equal(await store.describe('never-ingested'), undefined);
    });

    it('refuses a second open of the same data directory while the first is open', async () => {
      await assert.rejects(DuckDbStore.open(dir), /already open in this process/);
    });

    it('drops tables and text of a source', async () => {
      const { id, result } = await ingest('a.csv', 'x\n1\n');
      const { id: textId } = await ingest('t.txt', 'words');
      await store.drop(id);
      await store.drop(textId);
      assert.equal(await store.describe(id), undefined);
      assert.equal(await store.readText(textId), undefined);
      await assert.rejects(store.query(`SELECT * FROM "${onlyTable(result).table}"`), QueryError);
      await store.drop('unknown-id'); // harmless
    });

    it('describes from memory after the first read, and forgets on re-ingest and drop', async () => {
      const { id } = await ingest('first.csv', 'a,b\n1,2\n');
      const first = await store.describe(id);
      assert.deepEqual(tablesOf(first)[0]?.columns.map((c) => c.name), ['a', 'b']);
      // A caller scribbling on its copy changes nothing for the next job.
      tablesOf(first)[0]?.columns.splice(0);
      assert.deepEqual(tablesOf(await store.describe(id))[0]?.columns.map((c) => c.name), ['a', 'b']);
      await ingest('first.csv', 'c\n3\n', id);
      assert.deepEqual(tablesOf(await store.describe(id))[0]?.columns.map((c) => c.name), ['c']);
      await store.drop(id);
      assert.equal(await store.describe(id), undefined);
    });

    it('re-ingests idempotently: the new content replaces every old table', async () => {
      const id = 'same';
      const twoSheets = XLSX.write(workbook({ A: [['a'], [1]], B: [['b'], [2]] }), { type: 'buffer', bookType: 'xlsx' }) as Buffer;
      const first = tablesOf((await ingest('book.xlsx', twoSheets, id)).result);
      assert.equal(first.length, 2);
      const again = tablesOf((await ingest('book.xlsx', twoSheets, id)).result);
      assert.deepEqual(again, first);
      const csv = onlyTable((await ingest('book.csv', 'c\n3\n', id)).result);
      const left = await store.query(`SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1`);
      assert.deepEqual(left.rows, [[csv.table]]);
      // A failed retry leaves the previous state intact (one transaction).
      await assert.rejects(ingest('book.csv', Buffer.from([0, 1, 2, 3]), id), IngestError);
      assert.deepEqual(await store.describe(id), { kind: 'tables', tables: [csv] });
    });

    it('makes safe table names from hostile source ids', async () => {
      const id = 'x"; DROP TABLE y; --ü';
      const t = onlyTable((await ingest('a.csv', 'v\n1\n', id)).result);
      assert.match(t.table, /^[a-z0-9_]+$/);
      assert.deepEqual(await rows(t.table), [[1]]);
      await store.drop(id);
      assert.equal(await store.describe(id), undefined);
    });

    it('ingests several sources concurrently', async () => {
      const results = await Promise.all([1, 2, 3, 4].map((k) => ingest(`c${k}.csv`, `k,v\n${k},${k * 10}\n`)));
      for (const [i, r] of results.entries()) assert.deepEqual(await rows(onlyTable(r.result).table), [[i + 1, (i + 1) * 10]]);
    });

    it('stops an aborted ingest without recording it', async () => {
      const path = join(dir, 'big.csv');
      const lines = ['a,b'];
      for (let i = 0; i < 200_000; i++) lines.push(`${i},${i % 7}`);
      await writeFile(path, lines.join('\n'));
      const ac = new AbortController();
      const pending = store.ingest(source('aborted', 'big.csv'), path, ac.signal);
      ac.abort();
      await assert.rejects(pending, (err: unknown) => (err as Error).name === 'AbortError');
      assert.equal(await store.describe('aborted'), undefined);
    });
  });

  describe('query', () => {
    it('converts values to plain JS', async () => {
      const r = await store.query(`SELECT 42::BIGINT AS small, 9007199254740993::BIGINT AS big, 1.25::DECIMAL(10,2) AS dec,
        DATE '2024-02-29' AS d, TIMESTAMP '2024-02-29 13:45:00.123' AS ts, [1, 2] AS l, {'k': 'v'} AS s, NULL AS n`);
      assert.deepEqual(r.columns.map((c) => c.name), ['small', 'big', 'dec', 'd', 'ts', 'l', 's', 'n']);
      assert.equal(r.columns[2]?.type, 'DECIMAL(10,2)');
      assert.deepEqual(r.rows, [[42, '9007199254740993', 1.25, '2024-02-29', '2024-02-29T13:45:00.123', [1, 2], { k: 'v' }, null]]);
    });

    it('binds parameters and runs scripts, returning the last statement', async () => {
      assert.deepEqual((await store.query('SELECT $1::INTEGER + 1 AS x, $2 AS y', [41, 'it\'s'])).rows, [[42, "it's"]]);
      const r = await store.query('CREATE TEMP TABLE t AS SELECT range AS i FROM range(3); SELECT sum(i) AS s FROM t');
      assert.deepEqual(r.rows, [[3]]);
    });

    it('caps rows and says so', async () => {
      const capped = await store.query('SELECT range FROM range(5000)', [], { maxRows: 5 });
      assert.equal(capped.rows.length, 5);
      assert.equal(capped.truncated, true);
      const whole = await store.query('SELECT range FROM range(5)', [], { maxRows: 5 });
      assert.equal(whole.truncated, false);
    });

    it('interrupts a query at its deadline or on abort', async () => {
      const slow = 'SELECT sum(hash(i)) FROM range(50000000000) t(i)';
      await assert.rejects(store.query(slow, [], { timeoutMs: 200 }), QueryTimeoutError);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 200);
      await assert.rejects(store.query(slow, [], { signal: ac.signal }), (err: unknown) => (err as Error).name === 'AbortError');
      // The store keeps working afterwards.
      assert.deepEqual((await store.query('SELECT 1 AS one')).rows, [[1]]);
    });

    it('closes while a query runs: the query is interrupted, close completes', async () => {
      const running = store.query('SELECT sum(hash(i)) FROM range(50000000000) t(i)', [], { timeoutMs: 60_000 });
      const outcome = running.then(() => 'finished', (err: unknown) => (err as Error).name);
      await new Promise((r) => setTimeout(r, 100));
      await store.close();
      assert.equal(await outcome, 'QueryError');
      await assert.rejects(store.query('SELECT 1'), /closed/);
      store = await DuckDbStore.open(dir); // for afterEach
    });

    it('reports bad SQL as QueryError', async () => {
      await assert.rejects(store.query('SELEC nonsense'), QueryError);
      await assert.rejects(store.query('  '), QueryError);
    });
  });
});
