/**
 * A job cancelled right after it was sent (issue 24 point 6): the client closes the connection
 * while the service is still planning the job (here: re-reading an in-place file that changed).
 * Defect: the panel said "Cancelled before an answer arrived.", yet the service had not been
 * watching the connection yet, ran the job to the end, and history showed it done with a full
 * answer after a reload (and the Sessions tree offered no Retry).
 */
import { strict as assert } from 'node:assert';
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient, isTeamDataError } from '../../src/api/index';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { eventually, startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;

/**
 * A store whose next in-place read (`ingest`) or next query (`query`, while the engine answers)
 * waits for the test once `hold` is armed, so a job stays in planning or mid-answer.
 */
function gatedStore(store: DuckDbStore): { store: DuckDbStore; hold(method?: 'ingest' | 'query'): { reached: Promise<void>; release(): void } } {
  let gate: { method: string; reach(): void; wait: Promise<void> } | undefined;
  const gated = (method: 'ingest' | 'query') => async (...args: unknown[]): Promise<unknown> => {
    const g = gate?.method === method ? gate : undefined;
    if (g) {
      gate = undefined;
      g.reach();
      await g.wait;
    }
    return (Reflect.get(store, method, store) as (...a: unknown[]) => Promise<unknown>).apply(store, args);
  };
  const ingest = gated('ingest');
  const query = gated('query');
  const proxy = new Proxy(store, {
    get(target, key) {
      if (key === 'ingest') return ingest;
      if (key === 'query') return query;
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return {
    store: proxy,
    hold(method = 'ingest') {
      let reach!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((r) => (reach = r));
      const wait = new Promise<void>((r) => (release = r));
      gate = { method, reach, wait };
      return { reached, release };
    },
  };
}

describe('local service: a job cancelled right after it was sent', function () {
  this.timeout(60_000);
  let dir: string;
  let h: Harness;
  let raw: DuckDbStore;
  let gated: ReturnType<typeof gatedStore>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-cancel-early-'));
    await mkdir(join(dir, 'files'));
    raw = await DuckDbStore.open(join(dir, 'store'), { readableDirs: [join(dir, 'files')] });
    gated = gatedStore(raw);
    h = await startHarness({ store: gated.store, readRoots: [join(dir, 'files')] }, join(dir, 'service'));
  });
  after(async () => {
    await h?.stop();
    await raw?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A session asking about `file` (read in place), synched. */
  async function sessionOn(file: string): Promise<{ sessionId: string; path: string; ask(question: string): ReturnType<TeamDataClient['jobs']['stream']> }> {
    const client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER });
    const datasetId = (await client.datasets.create({ name: file, description: '' })).id;
    const sessionId = (await client.sessions.create({ title: file, maxMessagesInContext: 0 })).id;
    const path = join(dir, 'files', file);
    await writeFile(path, 'region,amount\nnorth,10\nsouth,20\n');
    const ds = await client.dataSources.create(datasetId, { fileName: file, path });
    await client.dataSources.waitUntilSynched(datasetId, ds.id, { intervalMs: 50 });
    return { sessionId, path, ask: (question) => client.jobs.stream({ sessionId, question, datasetId, datasourceIdList: [ds.id] }) };
  }

  /** Cancels `stream` once `held` is reached, lets the service see the close, then lets the job go on. */
  async function cancelWhileHeld(stream: ReturnType<TeamDataClient['jobs']['stream']>, held: { reached: Promise<void>; release(): void }): Promise<void> {
    await held.reached;
    stream.cancel();
    const err: unknown = await stream.done.then(() => undefined, (e: unknown) => e);
    assert.ok(isTeamDataError(err) && err.code === 'ABORTED', String(err));
    // Give the service time to see the connection close while the job is still held.
    await new Promise((r) => setTimeout(r, 300));
    held.release();
  }

  /** The session's history records, once there is one. */
  async function historyOf(sessionId: string): Promise<Rec[]> {
    return eventually(async () => {
      const r = await h.call('GET', `/v1/team/sessions/${sessionId}/history?userId=${USER}`);
      const recs = (r.json?.data as Rec | undefined)?.['records'] as Rec[] | undefined;
      return recs !== undefined && recs.length > 0 ? recs : undefined;
    }, 'the cancelled job in history');
  }

  it('stops a job cancelled while the service still plans it: history records it cancelled, with no answer', async () => {
    const s = await sessionOn('orders.csv');
    // The file changed: the job re-reads it before it starts, and that read waits for the test.
    await appendFile(s.path, 'east,30\n');
    const held = gated.hold();
    await cancelWhileHeld(s.ask('What is the total amount?'), held);
    const records = await historyOf(s.sessionId);
    assert.equal(records.length, 1);
    const answer = (records[0] as Rec)['answer'] as Rec;
    assert.equal(answer['status'], 'CANCELLED', JSON.stringify(answer).slice(0, 400));
    assert.deepEqual(answer['blocks'], [], 'no answer was produced for a job cancelled before it started');
  });

  it('records a job cancelled while the engine answers as cancelled', async () => {
    const s = await sessionOn('sales.csv');
    // The engine's next query waits: the user cancels while the answer is being computed.
    const held = gated.hold('query');
    await cancelWhileHeld(s.ask('total amount by region'), held);
    const answer = ((await historyOf(s.sessionId))[0] as Rec)['answer'] as Rec;
    assert.equal(answer['status'], 'CANCELLED', JSON.stringify(answer).slice(0, 400));
  });
});
