/**
 * A window's model travels with its lease (issue 26): a shared local service answers the jobs a
 * client asks with the lease header through the model that client registered, and no one else's;
 * the status lists the model's name, never its key; a malformed registration is refused without
 * echoing it; null clears it. Real service, real client, a scripted model on a loopback endpoint.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient } from '../../src/api/index';
import { answerBlocks } from '../../src/shared/answerFold';
import { LocalCallError, localCall } from '../../src/cli/serviceProbe';
import { ScriptedModel } from '../helpers/scriptedModel';
import { startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';

const SECRET = 'sk-lease-secret-31337';
const CSV = 'region,revenue\nEurope,10\nEurope,20\nAsia,5\n';

describe('a client\'s model registered with its lease (issue 26)', function () {
  this.timeout(60_000);
  let h: Harness;
  let model: ScriptedModel;
  let dir: string;

  before(async () => {
    model = await ScriptedModel.start();
    h = await startHarness({ shared: { version: 'test', ttlMs: 60_000, idleMs: 600_000, onIdle: () => undefined } });
    dir = await mkdtemp(join(tmpdir(), 'lease-model-'));
    await writeFile(join(dir, 'sales.csv'), CSV);
  });
  after(async () => {
    await h.stop();
    await model.close();
    await rm(dir, { recursive: true, force: true });
  });

  const local = { baseUrl: '', apiKey: TEST_KEY };

  it('answers the registering client\'s jobs through its model, others\' without it; status names it without the key', async () => {
    local.baseUrl = h.baseUrl;
    const registration = { baseUrl: model.baseUrl, model: 'scripted-1', apiKey: SECRET, label: 'Scripted (Test, via VS Code)' };
    const mine = await localCall<{ id: string }>(local, 'POST', '/leases', { client: 'vscode', roots: [], model: registration });
    const other = await localCall<{ id: string }>(local, 'POST', '/leases', { client: 'cli', roots: [] });
    const status = await localCall<{ leases: Array<{ client: string; model?: string }> }>(local, 'GET', '/status');
    assert.deepEqual(status.leases.map((l) => [l.client, l.model]), [['vscode', 'Scripted (Test, via VS Code)'], ['cli', undefined]]);
    assert.ok(!JSON.stringify(status).includes(SECRET));

    const clientOf = (lease: string): TeamDataClient => new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER, localLease: () => lease, retry: { attempts: 1 } });
    const a = clientOf(mine.id);
    const { id: datasetId } = await a.datasets.create({ name: 'sales', description: '' });
    const { fileKey } = await a.files.upload(join(dir, 'sales.csv'));
    const src = await a.dataSources.create(datasetId, { fileName: 'sales.csv', fileKey });
    await a.dataSources.waitUntilSynched(datasetId, src.id, { intervalMs: 50 });
    const { id: sessionId } = await a.sessions.create({ title: 'model' });
    const ask = { sessionId, datasetId, datasourceIdList: [src.id], question: 'total revenue by region' };

    model.script(ScriptedModel.plan({ kind: 'aggregate', measures: [{ agg: 'sum', column: 'revenue' }], groupBy: [{ column: 'region' }] }));
    const viaModel = await a.jobs.run(ask);
    assert.equal(model.seen.length, 1, 'the registering client\'s job asked its model');
    assert.equal(model.seen[0]?.auth, `Bearer ${SECRET}`);
    const text = answerBlocks(viaModel).filter((b) => b.type === 'MESSAGE').map((b) => String(b.content)).join('');
    assert.match(text, /The built-in engine and the model \(Scripted \(Test, via VS Code\)\) read the question the same way/);
    assert.ok(!JSON.stringify(viaModel).includes(SECRET));

    model.script(ScriptedModel.plan({ kind: 'aggregate', measures: [{ agg: 'sum', column: 'revenue' }] }));
    await clientOf(other.id).jobs.run(ask);
    await new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER, retry: { attempts: 1 } }).jobs.run(ask);
    assert.equal(model.seen.length, 0, 'no other client\'s job reaches that model');

    // Switched off in the window: null clears it at once.
    await localCall(local, 'POST', `/leases/${mine.id}`, { model: null });
    await a.jobs.run(ask);
    assert.equal(model.seen.length, 0);
    assert.ok(!h.logs.join('\n').includes(SECRET), 'the key is never logged');
  });

  it('refuses a malformed registration in plain words, without echoing it', async () => {
    local.baseUrl = h.baseUrl;
    const lease = await localCall<{ id: string }>(local, 'POST', '/leases', { client: 'vscode', roots: [] });
    const bad: Array<[unknown, RegExp]> = [
      [{ baseUrl: 'file:///etc/passwd', model: 'm', label: 'x' }, /model\.baseUrl: an http\(s\) URL/],
      [{ baseUrl: `http://user:${SECRET}@127.0.0.1:1/v1`, model: 'm', label: 'x' }, /no user or password in the URL/],
      [{ baseUrl: 'http://127.0.0.1:1/v1', model: '', label: 'x' }, /model\.model/],
      [{ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', label: 'x', apiKey: `${SECRET}\nX-Evil: 1` }, /model\.apiKey: a single-line key/],
      ['yes', /model: an object/],
    ];
    for (const [model, why] of bad) {
      await assert.rejects(localCall(local, 'POST', `/leases/${lease.id}`, { model }), (e: unknown) => {
        assert.ok(e instanceof LocalCallError);
        assert.match(e.message, why);
        assert.ok(!e.message.includes(SECRET));
        return true;
      });
    }
  });
});
