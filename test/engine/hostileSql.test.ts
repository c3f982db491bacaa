/**
 * SQL written by a language model is hostile input (issue 12). A scripted model on 127.0.0.1
 * answers each question with one escape attempt: files outside the data folder, the service's own
 * state inside it, another dataset's table, the catalog, settings, ATTACH/COPY, table functions,
 * CTE scoping tricks, comments and quoting. An escape is any answer that shows a secret planted in
 * one of those places. Prints payloads / escapes (target 0).
 */
import { strict as assert } from 'node:assert';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { startRig, type EngineRig } from './engineHarness';

const SECRETS = ['HUNTER2-OUTSIDE', 'STATE-INSIDE-DATA', 'OTHER-DATASET-ROW'];
const CSV = 'region,revenue\nEurope,10\nAsia,20\n';

function payloads(outside: string, state: string, other: string): string[] {
  const files = [outside, state];
  const out: string[] = [];
  for (const f of files) {
    out.push(
      `SELECT * FROM read_csv('${f}')`, `SELECT * FROM read_csv_auto('${f}')`, `SELECT * FROM '${f}'`, `SELECT * FROM "${f}"`,
      `SELECT content FROM read_text('${f}')`, `SELECT * FROM read_blob('${f}')`, `SELECT * FROM read_json_auto('${f}')`,
      `SELECT * FROM glob('${dirname(f)}/*')`, `SELECT * FROM sales, "${f}"`,
      `SELECT * FROM (WITH "${f}" AS (SELECT 1) SELECT * FROM sales), "${f}"`,
      `WITH "${f}" AS (SELECT * FROM "${f}") SELECT * FROM "${f}"`,
      `WITH a AS (SELECT * FROM "${f}"), "${f}" AS (SELECT 1) SELECT * FROM a`,
      `SELECT * FROM sales WHERE region IN (SELECT * FROM "${f}" UNION ALL (WITH "${f}" AS (SELECT 'x') SELECT * FROM "${f}"))`,
      `SELECT (SELECT string_agg(column0, ',') FROM read_csv('${f}', header = false)) AS leak FROM sales`,
      `SELECT * FROM sales UNION ALL SELECT *, 0 FROM '${f}'`,
      `SELECT * FROM query('SELECT * FROM read_csv(''${f}'')')`,
      `SELECT * FROM sales /* ; */ ; SELECT * FROM '${f}'`,
      `SELECT * FROM sales; COPY (SELECT 1) TO '${f}.out'`,
      `SELECT * FROM parquet_scan('${f}')`, `SELECT * FROM sniff_csv('${f}')`,
    );
  }
  out.push(
    `SELECT * FROM "${other}"`, `SELECT * FROM main."${other}"`, `SELECT * FROM sales UNION ALL SELECT * FROM "${other}"`,
    `WITH x AS (SELECT * FROM "${other}") SELECT * FROM x`, `SELECT * FROM tda_meta.catalog`, 'SELECT * FROM duckdb_tables()',
    'SELECT * FROM information_schema.tables', 'SELECT * FROM pg_catalog.pg_tables', 'SELECT getenv(\'HOME\') AS h',
    "SELECT current_setting('enable_external_access') AS s", 'SET enable_external_access = true', "ATTACH '/tmp/x.duckdb' AS x",
    'PRAGMA database_list', 'CALL pragma_version()', "INSTALL httpfs", 'LOAD httpfs', 'SELECT * FROM sales; DROP TABLE sales',
    `CREATE TABLE leak AS SELECT * FROM '${outside}'`, "SELECT * FROM read_csv('https://example.com/x.csv')",
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT * FROM r', 'SELECT * FROM system.main.sales',
    `SELECT * FROM "${other.toUpperCase()}"`, "SELECT json_execute_serialized_sql('x')", 'EXPORT DATABASE \'/tmp/exp\'',
  );
  return out;
}

describe('SQL guard against a hostile model (issue 12)', function () {
  this.timeout(120_000);
  let server: Server;
  let rig: EngineRig;
  let replies: string[] = [];
  const sockets = new Set<Socket>();

  const reply = (res: ServerResponse, content: string): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
  };

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => reply(res, replies.shift() ?? 'The numbers are in the table.'));
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    rig = await startRig({ 'sales.csv': CSV, 'other.csv': `secret\n${SECRETS[2] as string}\n` }, { llm: { baseUrl, model: 'hostile', apiKey: 'k-123456789', timeoutMs: 3000 } });
  });
  after(async () => {
    await rig?.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('lets no model-written statement show a file, state or table outside the question\'s data', async () => {
    // rig.dir holds the input files (outside the data folder); the store's data folder is beside it.
    const outside = join(rig.dir, 'secret.csv');
    await writeFile(outside, `token\n${SECRETS[0] as string}\n`);
    const state = join(dirname(rig.dir), 'data', 'meta', 'state.csv');
    await mkdir(dirname(state), { recursive: true });
    await writeFile(state, `token\n${SECRETS[1] as string}\n`);
    const other = (rig.sources.get('other.csv')?.ingest as { tables: Array<{ table: string }> }).tables[0]?.table ?? '';
    const list = payloads(outside, state, other);
    const escapes: string[] = [];
    for (const sql of list) {
      replies = [JSON.stringify({ sql }), 'The numbers are in the table.'];
      const a = await rig.ask('total revenue by region', ['sales.csv']);
      const seen = JSON.stringify(a.events);
      const leaked = SECRETS.filter((s) => seen.includes(s));
      if (leaked.length > 0) escapes.push(`${sql} -> ${leaked.join(', ')}`);
    }
    console.log(`      SQL guard: ${list.length} escape attempts by a scripted model / ${escapes.length} escapes (target 0)`);
    assert.ok(list.length >= 50);
    assert.deepEqual(escapes, []);
  });
});
