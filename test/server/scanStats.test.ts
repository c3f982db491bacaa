/**
 * The one-pass statistics of a file read in place: checked against exact SQL over the same data.
 * A text column's values are listed completely (and so counted) only when it has at most 50 of
 * them; a longer list is cut to a few for showing, and very long values are cut for the catalog.
 */
import { strict as assert } from 'node:assert';
import { DuckDBInstance } from '@duckdb/node-api';
import { gatherStats, LISTED_VALUES, readScanStats, scanStatsSql } from '../../src/server/duckdb/scanStats';

describe('one-pass statistics of a file read in place (scanStats)', () => {
  it('match exact SQL, list small columns completely, and cut long lists and long values', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      const long = 'x'.repeat(500);
      await c.run(`CREATE TABLE t AS SELECT
          i AS id,
          CASE WHEN i % 10 = 0 THEN NULL ELSE i * 1.5 END AS amount,
          CASE WHEN i % 3 = 0 THEN 'north' WHEN i % 3 = 1 THEN 'south' ELSE '${long}' END AS region,
          'c-' || (i % ${LISTED_VALUES + 30}) AS customer,
          DATE '2024-01-01' + CAST(i % 40 AS INTEGER) AS day
        FROM range(100000) r(i)`);
      const shape = await c.runAndReadAll('SELECT * FROM t LIMIT 0');
      const columns = shape.columnNames().map((name, i) => ({ name, type: shape.columnType(i).toString() }));
      const stats = readScanStats((await c.runAndReadAll(scanStatsSql('t', columns))).getRowsJS()[0] ?? [], columns);
      const exact = (await c.runAndReadAll(`SELECT count(*), count(amount), min(amount), max(amount), avg(amount), CAST(min(day) AS VARCHAR), CAST(max(day) AS VARCHAR) FROM t`)).getRowsJS()[0] ?? [];
      assert.equal(stats.rows, Number(exact[0]));
      const amount = stats.columns.find((s) => s.name === 'amount');
      assert.equal(amount?.nonNull, Number(exact[1]));
      assert.equal(Number(amount?.min), Number(exact[2]));
      assert.equal(Number(amount?.max), Number(exact[3]));
      assert.ok(Math.abs(Number(amount?.mean) - Number(exact[4])) < 1e-9);
      const day = stats.columns.find((s) => s.name === 'day');
      assert.deepEqual([day?.min, day?.max], [exact[5], exact[6]]);

      const region = stats.columns.find((s) => s.name === 'region');
      assert.equal(region?.complete, true);
      assert.equal(region?.values?.length, 3, 'every distinct value, so the count is exact');
      assert.equal(region?.cut, true, 'the 500-character value is cut for the catalog');
      assert.ok(region?.values?.every((v) => v.length <= 200));
      assert.deepEqual(region?.values?.filter((v) => v.length < 10).sort(), ['north', 'south']);

      const customer = stats.columns.find((s) => s.name === 'customer');
      assert.equal(customer?.complete, false, `${LISTED_VALUES + 30} distinct values are more than are listed`);
      assert.equal(customer?.values?.length, 5, 'a few kept for showing');
      assert.equal(stats.columns.find((s) => s.name === 'id')?.values, undefined, 'numbers get no value list');
    } finally {
      c.disconnectSync();
      db.closeSync();
    }
  });

  it('a columnar file lists the values of few-valued text columns exactly, most frequent first, and keeps the summary for many-valued ones', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    try {
      // Skewed counts, so the order is by frequency, with a tie broken by the value.
      await c.run(`CREATE TABLE t AS SELECT
          i AS id,
          CASE WHEN i % 10 < 5 THEN 'west' WHEN i % 10 < 8 THEN 'east' WHEN i % 10 = 8 THEN 'north' ELSE 'south' END AS region,
          CASE WHEN i % 7 = 0 THEN NULL ELSE 'sku-' || (i % ${LISTED_VALUES + 30}) END AS product,
          'order-' || i AS ref
        FROM range(300000) r(i)`);
      const shape = await c.runAndReadAll('SELECT * FROM t LIMIT 0');
      const columns = shape.columnNames().map((name, i) => ({ name, type: shape.columnType(i).toString() }));
      const stats = await gatherStats(c, 't', columns, new AbortController().signal, true);
      const region = stats.columns.find((s) => s.name === 'region');
      assert.deepEqual(region?.values, ['west', 'east', 'north', 'south']);
      assert.equal(region?.complete, true);
      const product = stats.columns.find((s) => s.name === 'product');
      const top = (await c.runAndReadAll(`SELECT product FROM t WHERE product IS NOT NULL GROUP BY ALL ORDER BY count(*) DESC, product LIMIT 5`)).getRowsJS().map((r) => r[0]);
      assert.equal(product?.complete, false);
      assert.deepEqual(product?.values, top, 'the five most frequent, exactly');
      assert.equal(product?.nonNull, Number((await c.runAndReadAll('SELECT count(product) FROM t')).getRowsJS()[0]?.[0]));
      // 300,000 distinct references: summarised, never listed as complete.
      const ref = stats.columns.find((s) => s.name === 'ref');
      assert.equal(ref?.complete, false);
      assert.equal(ref?.values?.length, 5);
      assert.equal(stats.rows, 300000);
    } finally {
      c.disconnectSync();
      db.closeSync();
    }
  });
});
