/**
 * Wide tables (issue 25): a 10,000-column Parquet upload peaked at 2.1 GB and its overview took
 * minutes. The profile of its first 200 columns read all 10,000 through a CTE DuckDB materialises
 * whole; every text column got date and quarter probes of its own (two statements each, 6,000 in
 * all); and its values were listed by a row of `list(DISTINCT …)` aggregates, a hash table each.
 */
import { strict as assert } from 'node:assert';
import { DuckDBConnection } from '@duckdb/node-api';
import type { QueryOptions, QueryParam, QueryResult } from '../../src/server/duckdb/duckDbStore';
import { SchemaIndex } from '../../src/server/engine/schemaIndex';
import { runShownSql, startRig, type EngineRig } from './engineHarness';

type Query = (sql: string, params?: readonly QueryParam[], options?: QueryOptions) => Promise<QueryResult>;

const TEXT_COLUMNS = 100;

/** `when` (dates as text), `period` (quarters as text), then 300 columns: every third text without a year. */
function wideCsv(rows: number): string {
  const names = ['period', 'when', ...Array.from({ length: 300 }, (_, c) => `c${c}`)];
  const lines = [names.join(',')];
  for (let r = 0; r < rows; r++) {
    const cells = [`${2020 + (r % 3)}Q${1 + (r % 4)}`, `Jun ${1 + (r % 28)} 1998`];
    for (let c = 0; c < 300; c++) cells.push(c % 3 === 0 ? `w${(r + c) % 5}` : String((r * 31 + c * 7) % 97));
    lines.push(cells.join(','));
  }
  return lines.join('\n');
}

describe('wide tables: overview and question index in few, bounded statements (issue 25)', function () {
  this.timeout(300_000);
  let rig: EngineRig;
  before(async () => {
    rig = await startRig({ 'wide.csv': wideCsv(30) }, { llm: null });
  });
  after(async () => rig?.close());

  it('profiles a table wider than the profile through its profiled columns only, with SQL that runs as shown', async () => {
    const store = rig.store as unknown as { query: Query };
    const original = store.query.bind(rig.store);
    const seen: string[] = [];
    store.query = (sql, params, options) => {
      seen.push(sql);
      return original(sql, params, options);
    };
    let a;
    try {
      a = await rig.ask('Give me an overview of this data', ['wide.csv']);
    } finally {
      store.query = original;
    }
    assert.match(a.message, /Profiled the first 200 columns/);
    const profile = seen.find((s) => s.includes('column_name, column_type'));
    assert.ok(profile !== undefined, 'the profile statement ran');
    // The CTE names the 200 profiled columns; before, `SELECT *` materialised all of them.
    const cte = /^WITH wide AS \(SELECT ([^)]*)\)/.exec(profile)?.[1] ?? '';
    assert.equal(cte.split(', ').length, 200, cte.slice(0, 80));
    assert.ok(cte.startsWith('"period", "when", "c0"') && !cte.includes('"c198"'), cte.slice(0, 80));
    // Both statements (duplicates over every column, the profile over 200) run as shown on the file.
    const code = a.code[a.code.length - 1] ?? '';
    assert.match(code, /wide AS \(\n {2}SELECT "period", "when", "c0"/);
    const shown = await runShownSql(code, rig.dir);
    const table = a.tables[0] ?? [];
    assert.equal(shown[1]?.rows.length, 200);
    assert.deepEqual(shown[1]?.rows.map((r) => String(r[0])), table.slice(1).map((r) => r[0]));
    assert.deepEqual(shown[1]?.rows.map((r) => String(r[2])), table.slice(1).map((r) => r[2]));
  });

  it('looks for dates at ingest only in text columns that hold a four-digit run, and still converts them', async () => {
    const proto = DuckDBConnection.prototype as unknown as { runAndReadAll: (this: DuckDBConnection, sql: string, ...rest: unknown[]) => Promise<unknown> };
    const original = proto.runAndReadAll;
    const probes: string[] = [];
    proto.runAndReadAll = function (sql, ...rest) {
      if (sql.startsWith('WITH s AS (SELECT trim(')) probes.push(sql);
      return original.call(this, sql, ...rest);
    };
    let other: EngineRig | undefined;
    try {
      other = await startRig({ 'wide.csv': wideCsv(30) }, { llm: null });
    } finally {
      proto.runAndReadAll = original;
    }
    try {
      const ingest = other.sources.get('wide.csv')?.ingest;
      const columns = ingest?.kind === 'tables' ? ingest.tables[0]?.columns ?? [] : [];
      assert.equal(columns.find((c) => c.name === 'when')?.type, 'DATE');
      // Before: a format probe for each of the 101 text columns; now only those with a year.
      assert.ok(probes.length > 0 && probes.length <= 4, `${probes.length} probes`);
    } finally {
      await other.close();
    }
  });

  it('indexes 300 columns in a handful of statements, still reading dates and quarters written as text', async () => {
    const wide = rig.sources.get('wide.csv');
    assert.ok(wide !== undefined);
    const seen: string[] = [];
    // A schema index of its own, so nothing is cached from the overview.
    const index = new SchemaIndex(async (sql) => {
      seen.push(sql);
      return (await rig.store.query(sql, [], { timeoutMs: 120_000, maxRows: 100_000 })).rows;
    });
    const [t] = await index.tables([wide]);
    // Before: about two probes per text column (over 200 statements); each reads the table again.
    assert.ok(seen.length < 15, `${seen.length} statements`);
    const col = (name: string): { kind: string; values?: string[] } | undefined => t?.columns.find((c) => c.name === name);
    assert.equal(col('period')?.kind, 'temporal');
    assert.equal(col('when')?.kind, 'temporal');
    assert.equal(col('c0')?.kind, 'text');
    assert.deepEqual(col('c0')?.values, ['w0', 'w1', 'w2', 'w3', 'w4']);
    assert.equal(t?.columns.filter((c) => c.kind === 'text').length, TEXT_COLUMNS);
    assert.equal(col('c1')?.kind, 'numeric');
    // The grouped statistics of a wide table say what the row form says of the same columns.
    const ingest = wide.ingest.kind === 'tables' ? wide.ingest.tables[0] : undefined;
    assert.ok(ingest !== undefined);
    const narrow = { ...wide, ingest: { kind: 'tables' as const, tables: [{ ...ingest, columns: ingest.columns.slice(0, 40) }] } };
    const [n] = await new SchemaIndex(async (sql) => (await rig.store.query(sql, [], { timeoutMs: 120_000, maxRows: 100_000 })).rows).tables([narrow]);
    const pick = (c: { name: string; kind: string; nonNull: number; distinct: number; min?: unknown; max?: unknown; values?: string[]; unique: boolean }): unknown[] =>
      [c.name, c.kind, c.nonNull, c.distinct, c.min, c.max, c.values, c.unique];
    assert.deepEqual(t?.columns.slice(0, 40).map(pick), n?.columns.slice(0, 40).map(pick));
  });
});
