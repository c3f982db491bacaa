/**
 * The explore client (api/exploreClient.ts) against a real shared local service on port 0: it
 * names its lease, returns checked answers, and turns refusals into ExploreCallErrors with the
 * service's status and words (400 outside the lease's folders, 404 a closed view, 409 a filter
 * while the file is still read, 410 a deleted file).
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExploreCallError, ExploreClient } from '../../src/api/exploreClient';
import { startHarness, TEST_KEY, type Harness } from '../helpers/serverHarness';

const CSV = 'id,city,qty\n1,Lyon,3\n2,Oslo,\n3,Lyon,7\n4,Turin,1\n';

async function rejects(p: Promise<unknown>, status: number, words: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ExploreCallError, String(err));
    assert.equal(err.status, status, err.message);
    assert.match(err.message, words);
    return true;
  });
}

describe('explore client (issue 27)', function () {
  this.timeout(120_000);
  let h: Harness;
  let dir: string;
  let outside: string;
  let lease: string | undefined;
  let client: ExploreClient;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'explore-client-'));
    outside = await mkdtemp(join(tmpdir(), 'explore-client-out-'));
    await writeFile(join(dir, 'cities.csv'), CSV);
    await writeFile(join(outside, 'cities.csv'), CSV);
    h = await startHarness({ readRoots: [dir], shared: { version: 'test', ttlMs: 60_000, idleMs: 600_000, onIdle: () => undefined } });
    lease = ((await h.call('POST', '/local/v1/leases', { client: 'test', roots: [dir] })).json?.data as { id: string }).id;
    client = new ExploreClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, lease: () => lease });
  });
  after(async () => {
    await h.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });

  const ready = async (id: string): Promise<void> => {
    for (let i = 0; i < 600 && (await client.status(id)).state === 'reading'; i++) await new Promise((r) => setTimeout(r, 50));
  };

  it('opens a file under its lease\'s folders and pages, counts, summarizes and writes SQL', async () => {
    const v = await client.open({ path: join(dir, 'cities.csv') });
    assert.deepEqual(v.columns.map((c) => c.kind), ['number', 'text', 'number']);
    await ready(v.viewId);
    const q = { sort: [{ column: 'qty', desc: true }], filters: [{ column: 'city', op: 'in' as const, values: ['Lyon'] }] };
    assert.deepEqual((await client.rows(v.viewId, 0, 10, q)).rows.map((r) => r[0]), [3, 1]);
    assert.equal(await client.count(v.viewId, q), 2);
    const summary = await client.summary(v.viewId, { sort: [], filters: [] });
    assert.equal(summary.find((s) => s.column === 'qty')?.missing, 1);
    const sql = await client.sql(v.viewId, q);
    assert.match(sql, /cities\.csv/);
    assert.match(sql, /ORDER BY/);
    await client.close(v.viewId);
    await rejects(client.status(v.viewId), 404, /no such view/);
  });

  it('exports the filtered view into the lease\'s folder, and refuses a target outside it', async () => {
    const v = await client.open({ path: join(dir, 'cities.csv') });
    await ready(v.viewId);
    const q = { sort: [], filters: [{ column: 'qty', op: 'missing' as const, negate: true }] };
    const out = join(dir, 'known.csv');
    assert.deepEqual(await client.export(v.viewId, q, 'csv', out), { rows: 3, path: out });
    assert.equal((await readFile(out, 'utf8')).trim().split('\n').length, 4);
    await rejects(client.export(v.viewId, q, 'csv', join(outside, 'x.csv')), 400, /outside the folders/);
    assert.equal(await client.cancelExport(v.viewId), false);
    await client.close(v.viewId);
  });

  it('is refused a file outside its lease\'s folders, and without a lease', async () => {
    await rejects(client.open({ path: join(outside, 'cities.csv') }), 400, /path:/);
    const anonymous = new ExploreClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY });
    await rejects(anonymous.open({ path: join(dir, 'cities.csv') }), 400, /registered its folders/);
  });

  it('says 410 with the reason once the file is deleted', async () => {
    await writeFile(join(dir, 'gone.csv'), CSV);
    const v = await client.open({ path: join(dir, 'gone.csv') });
    await ready(v.viewId);
    await rm(join(dir, 'gone.csv'));
    let last: unknown;
    for (let i = 0; i < 100; i++) {
      try {
        await client.rows(v.viewId, 0, 10, { sort: [], filters: [] });
        await new Promise((r) => setTimeout(r, 100));
      } catch (err) {
        last = err;
        break;
      }
    }
    assert.ok(last instanceof ExploreCallError, String(last));
    assert.equal(last.status, 410, last.message);
    assert.match(last.message, /gone\.csv/);
  });

  it('rejects a wrong key as an error with the service\'s words, and stops on its signal', async () => {
    const wrong = new ExploreClient({ baseUrl: h.baseUrl, apiKey: 'nope', lease: () => lease });
    await assert.rejects(wrong.open({ path: join(dir, 'cities.csv') }), (e: unknown) => e instanceof ExploreCallError && e.status >= 400 && /API key/.test(e.message));
    const ac = new AbortController();
    ac.abort(new Error('stopped by the test'));
    await assert.rejects(client.open({ path: join(dir, 'cities.csv') }, { signal: ac.signal }), /stopped by the test/);
  });
});
