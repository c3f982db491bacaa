/**
 * A client registers the language model it chose with its lease (issue 26): against a real local
 * service in shared mode (in this process), the service's status lists the model's label for that
 * lease, a change is pushed at once, none clears it, a lease taken again after the service forgot
 * it carries the model, and the key never shows in the status.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceLease } from '../../src/cli/serviceLease';
import { localCall, type ServiceStatus } from '../../src/cli/serviceProbe';
import type { Discovery } from '../../src/server/daemon/discovery';
import { startLocalService, type LocalService } from '../../src/server/localService';
import type { ModelEndpoint } from '../../src/shared/localModel';

const KEY = 'sk-secret-model-key-0123456789';

describe('a lease registers the client\'s language model (real shared service)', function () {
  this.timeout(60_000);
  let dir: string;
  let service: LocalService;
  let discovery: Discovery;
  const leases: ServiceLease[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'td-lease-model-'));
    service = await startLocalService({
      dataDir: dir,
      apiKey: 'lease-model-test-key',
      shared: { version: 'test', ttlMs: 600, idleMs: 60_000, onIdle: () => undefined },
    });
    discovery = { pid: process.pid, baseUrl: service.baseUrl, apiKey: service.apiKey, version: 'test', dataFormat: 0, startedAt: Date.now() };
  });

  afterEach(async () => {
    for (const l of leases.splice(0)) await l.release();
  });

  after(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const status = (): Promise<ServiceStatus> => localCall<ServiceStatus>(discovery, 'GET', '/status');
  const rawStatus = async (): Promise<string> => {
    const res = await fetch(`${service.baseUrl}/local/v1/status`, { headers: { 'x-pd-api-key': service.apiKey } });
    return res.text();
  };

  async function take(client: string, model: () => ModelEndpoint | undefined): Promise<ServiceLease> {
    const l = await ServiceLease.take({ discovery, client, model });
    leases.push(l);
    return l;
  }

  const endpoint = (label: string): ModelEndpoint => ({ baseUrl: 'http://127.0.0.1:9/v1', model: 'llama3', apiKey: KEY, label, timeoutMs: 30_000 });

  it('the model taken with the lease is listed by label; an update changes it; none clears it; the key never shows', async () => {
    let current: ModelEndpoint | undefined = endpoint('llama3 at 127.0.0.1:9');
    const lease = await take('vscode', () => current);
    const plain = await take('cli', () => undefined);
    let s = await status();
    assert.equal(s.leases.find((l) => l.client === 'vscode')?.model, 'llama3 at 127.0.0.1:9');
    assert.equal(s.leases.find((l) => l.client === 'cli')?.model, undefined, 'a client without a model registers none');
    assert.ok(!(await rawStatus()).includes(KEY), 'the key is not in the status');

    current = endpoint('GPT-4o (Copilot, via VS Code)');
    await lease.updateModel();
    s = await status();
    assert.equal(s.leases.find((l) => l.client === 'vscode')?.model, 'GPT-4o (Copilot, via VS Code)');

    current = undefined;
    await lease.updateModel();
    s = await status();
    assert.equal(s.leases.find((l) => l.client === 'vscode')?.model, undefined, 'none clears the model (null sent)');
    assert.equal(s.leases.length, 2);
    await plain.release();
  });

  it('a lease the service forgot is taken again with the model of that moment', async () => {
    let current: ModelEndpoint | undefined = endpoint('first');
    const lease = await take('vscode', () => current);
    const first = lease.leaseId;
    // The service forgets it (as after a sleep): the next renewal gets 404 and takes a new one.
    await localCall(discovery, 'DELETE', `/leases/${encodeURIComponent(first)}`);
    current = endpoint('second');
    const until = Date.now() + 10_000;
    while (lease.leaseId === first && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    assert.notEqual(lease.leaseId, first, 'taken again');
    const s = await status();
    assert.deepEqual(s.leases.map((l) => l.model), ['second']);
  });

  it('an update on a forgotten lease is not an error (the renewal carries the model)', async () => {
    const lease = await take('vscode', () => endpoint('x'));
    await localCall(discovery, 'DELETE', `/leases/${encodeURIComponent(lease.leaseId)}`);
    await lease.updateModel();
  });

  it('a malformed model is refused by the service without echoing its key', async () => {
    const bad = { ...endpoint('bad'), baseUrl: 'ftp://example.invalid' };
    await assert.rejects(take('vscode', () => bad), (e: Error) => !e.message.includes(KEY) && /baseUrl/.test(e.message));
  });
});
