/**
 * Query results are capped by bytes and by cell size as well as by rows (issue 25), inside DuckDB
 * (cells are cut before DuckDB buffers rows ahead of the reader) and while rows are read.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { cutValue, plainSize } from '../../src/server/duckdb/resultSize';

describe('query results capped by bytes and cell size', function () {
  this.timeout(120_000);
  let dir: string;
  let store: DuckDbStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'td-caps-'));
    store = await DuckDbStore.open(join(dir, 'db'));
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stops at the byte cap and cuts long strings, blobs and lists without holding the whole result', async () => {
    const before = process.resourceUsage().maxRSS;
    // 10,000 rows of 100 KB: 1 GB of text if DuckDB or the reader held it all. (DuckDB itself still
    // makes one 2,048-row chunk of whole cells per thread before cutting them: 100 MB each here.)
    const r = await store.query("SELECT repeat('x', 50000) AS s, repeat('y', 50000)::BLOB AS b, range(1000) AS l, 7 AS n FROM range(10000)", [], { maxBytes: 4 * 1024 * 1024, maxCellBytes: 1000 });
    const grew = (process.resourceUsage().maxRSS - before) / 1024;
    assert.equal(r.truncatedBy, 'bytes');
    assert.equal(r.truncated, true);
    assert.ok(r.rows.length > 100 && r.rows.length < 10_000, `${r.rows.length} rows`);
    assert.deepEqual(r.columns.map((c) => c.name), ['s', 'b', 'l', 'n']);
    const first = r.rows[0] ?? [];
    assert.equal(first[0], `${'x'.repeat(1000)}…`);
    assert.ok(typeof first[1] === 'string' && first[1].length === 1001 && first[1].endsWith('…'));
    assert.ok(typeof first[2] === 'string' && first[2].startsWith('[0,1,2,') && first[2].length <= 1001);
    assert.equal(first[3], 7);
    assert.equal(r.cellsCut, r.rows.length * 3);
    assert.ok(grew < 1024, `peak RSS grew by ${grew.toFixed(0)} MB`);
  });

  it('ends a query whose rows build values too large to cut with a clear error, under 2 GB, and keeps serving (issue 25)', async () => {
    // DuckDB computes 2,048 rows at a time: 2 GB of text here before any cap can cut a cell. It used
    // to fail at its 2 GiB limit with "Out of Memory Error", the process at 2.1 GB. Run in a process
    // of its own, so the peak measured is this query's and no other test's.
    const script = join(dir, 'too-large.ts');
    await writeFile(script, `
      import { DuckDbStore } from ${JSON.stringify(join(__dirname, '..', '..', 'src', 'server', 'duckdb', 'duckDbStore'))};
      (async () => {
        const store = await DuckDbStore.open(${JSON.stringify(join(dir, 'child-db'))});
        let message = '', name = '';
        try {
          await store.query("SELECT repeat('x', 1000000 + i % 7) AS s FROM range(10000) t(i)", [], { maxBytes: 32 * 1024 * 1024, maxCellBytes: 64 * 1024, timeoutMs: 600000 });
        } catch (e) { message = (e as Error).message; name = (e as Error).name; }
        const peak = process.resourceUsage().maxRSS * 1024;
        const rows = (await store.query('SELECT 42 AS x')).rows;
        // What the query held is given back (jemalloc's background threads purge it).
        const deadline = Date.now() + 20000;
        while (process.memoryUsage().rss > 1024 ** 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
        console.log(JSON.stringify({ name, message, peak, rows, after: process.memoryUsage().rss }));
        await store.close();
      })();
    `);
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', script], { cwd: join(__dirname, '..', '..'), maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
    });
    const r = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { name: string; message: string; peak: number; rows: unknown[][]; after: number };
    assert.equal(r.name, 'ResultTooLargeError', r.message);
    assert.match(r.message, /the result is too large to compute/);
    assert.match(r.message, /left\(value, 1000\)/);
    assert.ok(r.peak < 2 * 1024 ** 3, `peak RSS ${(r.peak / 1024 ** 2).toFixed(0)} MB`);
    assert.deepEqual(r.rows, [[42]]);
    assert.ok(r.after < 1024 ** 3, `RSS stays at ${(r.after / 1024 ** 2).toFixed(0)} MB`);
  });

  it('keeps names, order and values of ordinary results, with or without a trailing ; and comments', async () => {
    const opts = { maxBytes: 1024 * 1024, maxCellBytes: 50 };
    const same = await store.query(`SELECT 'a;b' AS "x ""y""", 2 AS x, [3] AS x FROM range(3) t(i) ORDER BY i DESC; -- done; really`, [], opts);
    assert.deepEqual(same.columns.map((c) => c.name), ['x "y"', 'x', 'x']);
    assert.deepEqual(same.rows, [['a;b', 2, [3]], ['a;b', 2, [3]], ['a;b', 2, [3]]]);
    assert.equal(same.truncated, false);
    assert.equal(same.cellsCut, undefined);
    const ordered = await store.query('SELECT i::VARCHAR AS s FROM range(5) t(i) ORDER BY i DESC /* end; */', [], opts);
    assert.deepEqual(ordered.rows.map((r) => r[0]), ['4', '3', '2', '1', '0']);
    const byRows = await store.query('SELECT i FROM range(100) t(i)', [], { ...opts, maxRows: 10 });
    assert.equal(byRows.truncatedBy, 'rows');
    assert.equal(byRows.rows.length, 10);
  });

  it('never cuts the statement at a ; inside a string, a quoted name or a comment (security review of issue 25, item 5)', async () => {
    const opts = { maxBytes: 1024 * 1024, maxCellBytes: 50 };
    const cases: Array<[string, unknown[]]> = [
      ["SELECT 'a;--' AS x", ['a;--']],
      ["SELECT 'a;--' AS x; -- done", ['a;--']],
      ['SELECT \'b\' AS "c;--"', ['b']],
      ["SELECT $$d;--$$ AS x", ['d;--']],
      ["SELECT 'e' AS x /* ;-- */", ['e']],
      ["SELECT 'f;' || 'g' AS x -- h; i\n;", ['f;g']],
      ["SELECT 'j' AS x; /* k; */ -- l;", ['j']],
    ];
    for (const [sql, row] of cases) {
      const r = await store.query(sql, [], opts);
      assert.deepEqual(r.rows, [row], sql);
    }
  });

  it('sizes and cuts nested values without building them whole', () => {
    assert.equal(plainSize('abc', 10), 3);
    assert.ok(plainSize({ a: 'x'.repeat(100), b: [1, 2, 3] }, 10) > 10);
    assert.equal(cutValue('abcdef', 3), 'abc…');
    const cut = cutValue({ a: 'x'.repeat(100), b: [1, 2] }, 20);
    assert.equal(cut, `{"a":"${'x'.repeat(14)}…`);
  });
});
