import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { Executor, storeSerializer } from '../../src/server/engine/executor';
import { guardSql, SqlRejected, type SerializeSql } from '../../src/server/engine/sqlGuard';
import type { DataSource } from '../../src/shared/domain';

describe('SQL guard (DuckDB AST via json_serialize_sql)', function () {
  this.timeout(30_000);
  let dir: string;
  let store: DuckDbStore;
  let serialize: SerializeSql;
  let table: string;
  let secretFile: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-guard-'));
    store = await DuckDbStore.open(join(dir, 'db'));
    serialize = storeSerializer(store);
    const csv = join(dir, 'sales.csv');
    await writeFile(csv, 'region,revenue\nEurope,10\nAsia,20\n');
    secretFile = join(dir, 'secret.csv');
    await writeFile(secretFile, 'password\nhunter2\n');
    const source: DataSource = { id: 's1', datasetId: 'd', name: 'sales.csv', fileName: 'sales.csv', type: 'FILE', status: 'synched' };
    const r = await store.ingest(source, csv, new AbortController().signal);
    table = r.kind === 'tables' ? r.tables[0]?.table ?? '' : '';
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ok = (sql: string): Promise<void> => guardSql(sql, [table], serialize);
  const refused = async (sql: string, why: RegExp): Promise<void> => {
    await assert.rejects(guardSql(sql, [table], serialize), (e: unknown) => e instanceof SqlRejected && why.test(e.message), sql);
  };

  it('allows SELECTs over the session tables and CTEs defined in the statement', async () => {
    await ok(`WITH sales AS (SELECT * FROM "${table}") SELECT region, sum(revenue) FROM sales GROUP BY ALL`);
    await ok(`WITH sales AS (SELECT * FROM "${table}"), t AS (SELECT * FROM sales) SELECT * FROM t WHERE revenue IN (SELECT max(revenue) FROM t)`);
    await ok(`SELECT 100.0 * sum(revenue) / sum(sum(revenue)) OVER () FROM "${table}" GROUP BY region`);
    await ok(`SELECT * FROM (SELECT revenue FROM "${table}") USING SAMPLE reservoir(5 ROWS) REPEATABLE (7)`);
    await ok('SELECT * FROM range(3)');
  });

  it('refuses file-reading table functions, replacement scans and other catalogs', async () => {
    await refused(`SELECT * FROM read_csv('${secretFile}')`, /table function read_csv/);
    await refused(`SELECT * FROM '${secretFile}'`, /not one of the session's tables/);
    await refused("SELECT * FROM glob('/etc/*')", /table function glob/);
    await refused("SELECT * FROM read_text('/etc/passwd')", /table function read_text/);
    await refused("SELECT * FROM read_parquet('x.parquet')", /table function read_parquet/);
    await refused("SELECT * FROM query('SELECT 1')", /table function query/);
    await refused('SELECT * FROM duckdb_tables()', /table function duckdb_tables/);
    await refused('SELECT * FROM other_table', /not one of the session's tables/);
    await refused(`SELECT * FROM tda_meta.catalog`, /outside the session's data/);
    await refused(`SELECT * FROM other_db.main."${table}"`, /outside the session's data/);
    await refused('SELECT * FROM (DESCRIBE other_table)', /SHOW_REF|not allowed/);
  });

  it('scopes CTE names: one defined in an inner query or named like a file never lets another scope read that file', async () => {
    // Defect: CTE names were collected across the whole statement, so these read `secretFile`.
    await refused(`SELECT * FROM (WITH "${secretFile}" AS (SELECT 1) SELECT * FROM "${table}"), "${secretFile}"`, /not one of the session's tables/);
    await refused(`SELECT (SELECT count(*) FROM (WITH "${secretFile}" AS (SELECT 1) SELECT 1)) FROM "${secretFile}"`, /not one of the session's tables/);
    await refused(`SELECT * FROM "${table}" WHERE region IN (SELECT * FROM "${secretFile}" UNION ALL (WITH "${secretFile}" AS (SELECT 'x') SELECT * FROM "${secretFile}"))`, /not one of the session's tables/);
    // A CTE is not visible in its own definition: there the name is the file.
    await refused(`WITH "${secretFile}" AS (SELECT * FROM "${secretFile}") SELECT * FROM "${secretFile}"`, /not one of the session's tables/);
    // ...nor in the definitions written before it.
    await refused(`WITH a AS (SELECT * FROM "${secretFile}"), "${secretFile}" AS (SELECT 1) SELECT * FROM a`, /not one of the session's tables/);
    await ok(`WITH a AS (SELECT * FROM "${table}"), b AS (SELECT * FROM a) SELECT * FROM b, (WITH c AS (SELECT * FROM a) SELECT * FROM c)`);
  });

  it('compares names as DuckDB does (ASCII case only): a CTE named with K (Kelvin sign) or É shadows nothing', async () => {
    // Defect: the guard folded names with toLowerCase(), so `WITH "/…/K.csv"` (U+212A) looked like it
    // shadowed `FROM '/…/k.csv'`; DuckDB folds only ASCII, found no such CTE and read the file.
    const sources = join(dir, 'sources');
    await mkdir(sources, { recursive: true });
    const kFile = join(sources, 'k.csv');
    const eFile = join(sources, 'é.csv');
    await writeFile(kFile, 'password\nhunter2\n');
    await writeFile(eFile, 'password\nhunter3\n');
    const other = await DuckDbStore.open(join(dir, 'db2'), { readableDirs: [sources] });
    try {
      const src: DataSource = { id: 'sk', datasetId: 'd', name: 'sales.csv', fileName: 'sales.csv', type: 'FILE', status: 'synched' };
      const csv = join(dir, 'sales2.csv');
      await writeFile(csv, 'region,revenue\nEurope,10\n');
      const own = await other.ingest(src, csv, new AbortController().signal);
      const ownTable = own.kind === 'tables' ? own.tables[0]?.table ?? '' : '';
      const foreign = await other.ingest({ ...src, id: 'sk2' }, csv, new AbortController().signal);
      const foreignTable = foreign.kind === 'tables' ? foreign.tables[0]?.table ?? '' : '';
      assert.match(foreignTable, /k/);
      const ser = storeSerializer(other);
      const kelvin = (s: string): string => s.replace(/k/g, '\u212A');
      const payloads = [
        `WITH "${kelvin(kFile)}" AS (SELECT 1) SELECT * FROM '${kFile}'`,
        `WITH "${eFile.replace('é', 'É')}" AS (SELECT 1) SELECT * FROM '${eFile}'`,
        `WITH "${kelvin(kFile)}" AS (SELECT * FROM "${ownTable}") SELECT * FROM "${kFile}"`,
        // The same without a file: another source's table behind a Kelvin-sign CTE.
        `WITH "${kelvin(foreignTable)}" AS (SELECT * FROM "${ownTable}") SELECT * FROM "${foreignTable}"`,
      ];
      const ex = new Executor(other, [ownTable], new AbortController().signal);
      for (const sql of payloads) {
        await assert.rejects(guardSql(sql, [ownTable], ser), (e: unknown) => e instanceof SqlRejected && /not one of the session's tables/.test(e.message), sql);
        await assert.rejects(ex.runRaw(sql, 'shown', 'x'), SqlRejected, sql);
      }
      // Without the guard DuckDB does read the file: the payloads are real escapes, not typos.
      const direct = await other.query(payloads[0] ?? '');
      assert.deepEqual(direct.rows, [['hunter2']]);
      // Names that differ in ASCII case only are still the same name, as in DuckDB.
      await guardSql(`WITH Sales AS (SELECT * FROM "${ownTable.toUpperCase()}") SELECT * FROM SALES`, [ownTable], ser);
    } finally {
      await other.close();
    }
  });

  it('a second line of defence: SQL that slipped past the guard still cannot read files outside the data folder', async () => {
    await assert.rejects(store.query(`SELECT * FROM read_csv('${secretFile}')`), /Permission|disabled|access/i);
    await assert.rejects(store.query(`SELECT * FROM read_text('${secretFile}')`), /Permission|disabled|access/i);
    await assert.rejects(store.query(`SELECT * FROM glob('${dir}/*')`), /Permission|disabled|access/i);
    await assert.rejects(store.query(`ATTACH '${join(dir, 'other.duckdb')}' AS other`), /Permission|disabled|access/i);
    const limits = await store.query(`SELECT current_setting('memory_limit') AS m, current_setting('threads') AS t`);
    assert.ok(Number(limits.rows[0]?.[1]) >= 1, 'threads are capped at a number');
    assert.notEqual(String(limits.rows[0]?.[0]), '', 'a memory limit is set');
  });

  it('refuses scalar functions that read files, settings or the environment', async () => {
    await refused("SELECT getenv('HOME')", /function getenv/);
    await refused("SELECT current_setting('threads')", /function current_setting/);
    await refused(`SELECT (SELECT content FROM read_text('/etc/hostname'))`, /read_text/);
    await refused("SELECT json_execute_serialized_sql('x')", /json_execute/);
  });

  it('refuses everything that is not exactly one SELECT', async () => {
    for (const sql of [
      "ATTACH 'other.db'", "COPY (SELECT 1) TO '/tmp/x.csv'", 'INSTALL httpfs', 'LOAD httpfs', 'PRAGMA version', "SET threads = 1",
      `DELETE FROM "${table}"`, `INSERT INTO "${table}" VALUES ('x', 1)`, `DROP TABLE "${table}"`, `CREATE TABLE t AS SELECT 1`,
      `UPDATE "${table}" SET revenue = 0`, 'EXPORT DATABASE \'/tmp/x\'', 'CALL pragma_version()',
    ]) await refused(sql, /single SELECT|refused|parsed/);
    await refused(`SELECT 1; DROP TABLE "${table}"`, /exactly one SELECT|single SELECT|refused/);
    await refused('WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT * FROM r', /recursive/i);
    await refused('SELEC nonsense', /could not be parsed|refused/);
  });

  it('the executor runs guarded SQL with a row cap and never runs refused SQL', async () => {
    const ex = new Executor(store, [table], new AbortController().signal);
    const r = await ex.runRaw(`SELECT * FROM range(50000)`, 'shown', 'cap', 100);
    assert.equal(r.rows.length, 100);
    assert.equal(r.truncated, true);
    await assert.rejects(ex.runRaw(`SELECT * FROM read_csv('${secretFile}')`, 'shown', 'x'), SqlRejected);
    assert.equal(ex.ran.length, 1, 'the refused statement was not recorded as run');
  });
});
