/**
 * Wide CSV files read in place (issue 25): a 10,000-column file never got an overview, because its
 * view sniffed the file again on every read (3 to 13 s each, for each of the schema index's
 * hundred-odd statements), and the statements a job ran for its schema ignored the job's signal, so
 * a client that gave up left a core busy. The view is now read with what DuckDB sniffed written out,
 * and every statement run for a job stops with it.
 */
import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { QueryOptions, QueryParam, QueryResult } from '../../src/server/duckdb/duckDbStore';
import type { AnswerContext } from '../../src/server/engine';
import { startRig, type EngineRig } from '../engine/engineHarness';

function wideCsv(cols: number, rows: number): string {
  const lines = [Array.from({ length: cols }, (_, c) => `c${c}`).join(',')];
  for (let r = 0; r < rows; r++) lines.push(Array.from({ length: cols }, (_, c) => (c % 3 === 0 ? `w${(r + c) % 5}` : String((r * 31 + c * 7) % 97))).join(','));
  return lines.join('\n');
}

type Query = (sql: string, params?: readonly QueryParam[], options?: QueryOptions) => Promise<QueryResult>;
interface Seen { sql: string; signalled: boolean; outcome?: string }

/**
 * Records every statement the store runs until `restore()`: whether it carried `controller`'s
 * signal and how it ended. `onStart(n)` runs as the n-th statement starts (to cancel mid-way).
 */
function watchQueries(rig: EngineRig, controller: AbortController, onStart: (n: number) => void): { seen: Seen[]; restore(): void } {
  const store = rig.store as unknown as { query: Query };
  const original = store.query.bind(rig.store);
  const seen: Seen[] = [];
  store.query = async (sql, params, options) => {
    const rec: Seen = { sql, signalled: options?.signal === controller.signal };
    seen.push(rec);
    onStart(seen.length);
    try {
      const r = await original(sql, params, options);
      rec.outcome = 'done';
      return r;
    } catch (err) {
      rec.outcome = err instanceof Error ? err.name : 'error';
      throw err;
    }
  };
  return { seen, restore: () => { store.query = original; } };
}

/** A job asking `question` about the in-place wide.csv, stopped by `signal`. */
function wideJob(rig: EngineRig, jobId: string, question: string, signal: AbortSignal): AnswerContext {
  const wide = rig.sources.get('wide.csv');
  assert.ok(wide !== undefined);
  return {
    jobId, question, languageType: 'EN', jobMode: 'AUTO', sources: [wide], history: [], emit: () => undefined, signal,
    publishFile: async (name) => ({ url: `http://127.0.0.1/${name}`, name, expiredAt: new Date().toISOString() }),
  };
}

describe('CSV files read in place: views that do not sniff again, statements that stop with their job', function () {
  this.timeout(300_000);
  let rig: EngineRig;
  const files = {
    'wide.csv': wideCsv(400, 30),
    'dates.tsv': 'when\tamount\tnote\n03/04/2024\t10\tx\n12/25/2024\t20\ty\n',
    "o'quote.csv": "it's,b\n1,2\n3,4\n",
  };
  before(async () => {
    rig = await startRig(files, { llm: null }, { inPlace: true });
  });
  after(async () => rig.close());

  const viewSql = async (name: string): Promise<string> => {
    const s = rig.sources.get(name);
    const table = s?.ingest.kind === 'tables' ? s.ingest.tables[0]?.table ?? '' : '';
    const r = await rig.store.query('SELECT sql FROM duckdb_views() WHERE view_name = $1', [table]);
    return String(r.rows[0]?.[0] ?? '');
  };

  it('defines the view with the sniffed dialect and types, reading what the sniffing reader reads', async () => {
    for (const name of ['wide.csv', 'dates.tsv']) {
      const sql = await viewSql(name);
      // DuckDB keeps the view's SQL in its own spelling: auto_detect = CAST('f' AS BOOLEAN).
      assert.match(sql, /auto_detect = CAST\('f' AS BOOLEAN\)/, `${name}: ${sql.slice(0, 200)}`);
      assert.match(sql, /"columns" = main.struct_pack/, name);
    }
    const a = await rig.ask('Give me an overview of this data', ['dates.tsv']);
    assert.match(a.message, /2024/);
    // Same rows as DuckDB's own sniffing read of the file (the shown SQL runs it).
    const wide = rig.sources.get('wide.csv');
    const table = wide?.ingest.kind === 'tables' ? wide.ingest.tables[0]?.table ?? '' : '';
    const pinned = await rig.store.query(`SELECT * FROM "${table}"`, [], { maxRows: 100 });
    const raw = (await readFile(join(rig.dir, 'wide.csv'), 'utf8')).split('\n').slice(1).map((l) => l.split(','));
    assert.deepEqual(pinned.rows.map((r) => r.map(String)), raw);
    // A name DuckDB's written-out call might not quote safely keeps the sniffing view, and works.
    assert.match(await viewSql("o'quote.csv"), /auto_detect = CAST\('t' AS BOOLEAN\)/);
  });

  it('runs every statement of a job with the job\'s signal, and stops them when the job is cancelled', async () => {
    const controller = new AbortController();
    // The first statement of the schema build cancels the job while it runs.
    const { seen, restore } = watchQueries(rig, controller, (n) => { if (n === 1) setImmediate(() => controller.abort()); });
    try {
      await assert.rejects(rig.engine.answer(wideJob(rig, 'job-cancel', 'Which c1 value is most common?', controller.signal)), (e: unknown) => controller.signal.aborted && e instanceof Error);
      assert.ok(seen.length >= 1, 'the job ran statements');
      assert.deepEqual(seen.filter((s) => !s.signalled).map((s) => s.sql.slice(0, 80)), [], 'statements run without the job\'s signal');
      assert.notEqual(seen[0]?.outcome, undefined);
    } finally {
      restore();
    }
  });

  it('stops DuckDB itself when an overview of a wide file read in place is cancelled: the running statement is interrupted and nothing runs on', async () => {
    // Connections the store has handed out and not yet taken back (queries, catalog reads).
    const running = (rig.store as unknown as { busy: Set<unknown> }).busy;
    const controller = new AbortController();
    // Cancelled while the third statement runs inside DuckDB.
    const { seen, restore } = watchQueries(rig, controller, (n) => { if (n === 3) setTimeout(() => controller.abort(), 5); });
    try {
      await assert.rejects(rig.engine.answer(wideJob(rig, 'job-cancel-overview', 'Give me an overview of this data', controller.signal)), (e: unknown) => controller.signal.aborted && e instanceof Error);
      assert.deepEqual(seen.filter((s) => !s.signalled), [], 'statements run without the job\'s signal');
      // No statement was started after the cancellation, and none is still running in DuckDB.
      assert.ok(seen.length <= 4, `${seen.length} statements`);
      assert.ok(seen.every((s) => s.outcome !== undefined), JSON.stringify(seen));
      assert.ok(seen.some((s) => s.outcome === 'AbortError'), JSON.stringify(seen));
      assert.equal(running.size, 0, 'a statement still runs in DuckDB');
    } finally {
      restore();
    }
  });
});
