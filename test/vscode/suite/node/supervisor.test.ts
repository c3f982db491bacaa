/**
 * The local-service supervisor in plain Node, against the real CLI (`team-data serve --shared`)
 * built into out/test: start, health check through the real client, the key never in argv or the
 * log, attaching again after a crash, hung-process detection, the lease given back on stop, and
 * the clear errors for a missing build and a DuckDB binding that cannot load.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { TeamDataClient } from '../../../../src/api/index';
import { LocalServiceError, LocalServiceSupervisor, type LocalEndpoint, type SupervisorOptions, type SupervisorState } from '../../../../src/extension/localService/supervisor';
import { classifyServeLine, looksLikeNativeLoadFailure } from '../../../../src/extension/localService/serveOutput';
import { StartGate } from '../../../../src/extension/trees/startGate';
import { BUILT_CLI, builtCli, stopShared } from '../../../helpers/sharedCli';
import { attachOrStart } from '../../../../src/cli/serviceAttach';
import { localCall, type ServiceStatus } from '../../../../src/cli/serviceProbe';
import type { ModelEndpoint } from '../../../../src/shared/localModel';

const repo = resolve(__dirname, '../../../..');
const cliPath = BUILT_CLI;

async function healthCheck(endpoint: LocalEndpoint, signal: AbortSignal): Promise<void> {
  const client = new TeamDataClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, userId: 'test', retry: { attempts: 1 } });
  await client.datasets.list({ pageSize: 1 }, { signal });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('local service supervisor (real child process)', function () {
  this.timeout(60_000);
  let dir: string;
  const lines: string[] = [];
  const supervisors: LocalServiceSupervisor[] = [];
  const dataDirs: string[] = [];

  function make(extra: Partial<SupervisorOptions> = {}): LocalServiceSupervisor {
    const data = join(dir, `data-${supervisors.length}`);
    dataDirs.push(data);
    const s = new LocalServiceSupervisor({
      cliPath,
      dataDir: () => data,
      version: 'test',
      nodePath: process.execPath,
      env: { ...process.env, TEAM_DATA_IDLE_MS: '1000', TEAM_DATA_LEASE_TTL_MS: '1500' },
      log: (level, message) => lines.push(`${level} ${message}`),
      healthCheck,
      backoff: { baseMs: 50, maxMs: 200 },
      ...extra,
    });
    supervisors.push(s);
    return s;
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'td-supervisor-'));
    await builtCli();
  });

  afterEach(async () => {
    await Promise.all(supervisors.splice(0).map((s) => s.stop()));
    for (const d of dataDirs.splice(0)) await stopShared(d);
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts on first use, answers real requests, and keeps the key out of argv and the log', async () => {
    const s = make();
    assert.equal(s.state, 'stopped');
    const [a, b] = await Promise.all([s.ensureStarted(), s.ensureStarted()]);
    assert.deepEqual(a, b, 'concurrent callers share one start');
    assert.match(a.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(s.state, 'running');
    const pid = s.pid;
    assert.ok(pid);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    assert.ok(!argv.includes(a.apiKey), 'the key must not be on the command line');
    assert.ok(argv.includes('serve'));
    const client = new TeamDataClient({ baseUrl: a.baseUrl, apiKey: a.apiKey, userId: 'u1' });
    const { id } = await client.datasets.create({ name: 'supervised', description: '' });
    assert.ok(id);
    const wrongKey = new TeamDataClient({ baseUrl: a.baseUrl, apiKey: 'not-the-key', userId: 'u1', retry: { attempts: 1 } });
    await assert.rejects(wrongKey.datasets.list({}), (e: { code?: unknown }) => e.code === 1004);
    assert.ok(lines.some((l) => l.includes('ready at')), lines.join('\n'));
    assert.ok(!lines.some((l) => l.includes(a.apiKey)), 'the key reached the log');
    assert.ok(!lines.some((l) => l.includes('TEAM_DATA_API_KEY')), 'the key line reached the log');
  });

  it('registers its read roots with its lease; the service restarts to read new ones once idle', async () => {
    const first = join(dir, 'root-a');
    const second = join(dir, 'root-b');
    mkdirSync(first);
    mkdirSync(second);
    writeFileSync(join(first, 'a.csv'), 'x,y\n1,2\n');
    writeFileSync(join(second, 'b.csv'), 'x,y\n3,4\n');
    let roots = [first];
    const s = make({ readRoots: () => roots });
    let ep = await s.ensureStarted();
    let client = new TeamDataClient({ baseUrl: ep.baseUrl, apiKey: ep.apiKey, userId: 'u1', localLease: () => s.leaseId });
    // Without the window's lease the service does not know whose folders count: no read in place.
    const leaseless = new TeamDataClient({ baseUrl: ep.baseUrl, apiKey: ep.apiKey, userId: 'u1' });
    await assert.rejects(leaseless.dataSources.createWithoutDataset({ fileName: 'a.csv', path: join(first, 'a.csv') }), /needs a client that registered its folders/);
    const a = await client.dataSources.createWithoutDataset({ fileName: 'a.csv', path: join(first, 'a.csv') });
    assert.equal((await client.dataSources.waitUntilSynched(a.datasetId, a.id, { intervalMs: 50 })).status, 'synched');
    await assert.rejects(client.dataSources.createWithoutDataset({ fileName: 'b.csv', path: join(second, 'b.csv') }), /outside the folders this service may read/);
    assert.equal(s.readRootsChanged(), false);
    const before = s.pid as number;
    roots = [first, second];
    assert.equal(s.readRootsChanged(), true);
    await s.updateReadRoots();
    await until('the service to restart with the new folder', () => s.state === 'running' && s.pid !== before && s.pid !== undefined).catch((e: unknown) => { throw new Error(`${String(e)}\n${lines.join('\n')}`); });
    ep = s.endpoint as LocalEndpoint;
    assert.deepEqual(s.readRoots, [first, second]);
    client = new TeamDataClient({ baseUrl: ep.baseUrl, apiKey: ep.apiKey, userId: 'u1', localLease: () => s.leaseId });
    const b = await client.dataSources.createWithoutDataset({ fileName: 'b.csv', path: join(second, 'b.csv') });
    assert.equal((await client.dataSources.waitUntilSynched(b.datasetId, b.id, { intervalMs: 50 })).status, 'synched');
    // Another client's folder is not this one's, even on the same service.
    const other = await attachOrStart({ dataDir: s.dataDir, cliPath, version: 'test', client: 'mcp', roots: () => [second], onMissingRoots: () => assert.fail('both folders are in the sandbox now') });
    try {
      const theirs = new TeamDataClient({ baseUrl: ep.baseUrl, apiKey: ep.apiKey, userId: 'u1', localLease: () => other.lease.leaseId });
      await assert.rejects(theirs.dataSources.createWithoutDataset({ fileName: 'a.csv', path: join(first, 'a.csv') }), /outside the folders this service may read/);
    } finally {
      other.lease.abandon();
    }
  });

  it('registers the window\'s model with its lease at attach, pushes a change, and clears it (the key never in the status or the log)', async () => {
    const key = 'sk-supervised-model-key-42';
    let model: ModelEndpoint | undefined = { baseUrl: 'http://127.0.0.1:9/v1', model: 'llama3', apiKey: key, label: 'llama3 at 127.0.0.1:9' };
    const s = make({ model: () => model });
    await s.updateModel(); // before any attach: nothing to tell, no start
    assert.equal(s.state, 'stopped');
    const ep = await s.ensureStarted();
    const d = { baseUrl: ep.baseUrl, apiKey: ep.apiKey };
    const mine = async (): Promise<string | undefined> => (await localCall<ServiceStatus>(d, 'GET', '/status')).leases.find((l) => l.client === 'vscode')?.model;
    assert.equal(await mine(), 'llama3 at 127.0.0.1:9');
    model = { ...model, label: 'GPT-4o (Copilot, via VS Code)' };
    await s.updateModel();
    assert.equal(await mine(), 'GPT-4o (Copilot, via VS Code)');
    model = undefined;
    await s.updateModel();
    assert.equal(await mine(), undefined);
    const raw = await (await fetch(`${ep.baseUrl}/local/v1/status`, { headers: { 'x-pd-api-key': ep.apiKey } })).text();
    assert.ok(!raw.includes(key));
    assert.ok(!lines.some((l) => l.includes(key)), 'the model key reached the log');
  });

  it('a second window with a folder the service cannot read yet gets it read in place after a restart', async () => {
    const first = join(dir, 'win-a');
    const second = join(dir, 'win-b');
    mkdirSync(first);
    mkdirSync(second);
    writeFileSync(join(second, 'b.csv'), 'x,y\n3,4\n');
    const a = make({ readRoots: () => [first] });
    await a.ensureStarted();
    const before = a.pid as number;
    const shared = a.dataDir;
    const b = make({ readRoots: () => [second], dataDir: () => shared });
    await b.ensureStarted();
    await until('the service to restart for the second window\'s folder', () => b.state === 'running' && b.pid !== before && b.pid !== undefined, 30_000);
    const ep = b.endpoint as LocalEndpoint;
    const client = new TeamDataClient({ baseUrl: ep.baseUrl, apiKey: ep.apiKey, userId: 'u1', localLease: () => b.leaseId });
    const src = await client.dataSources.createWithoutDataset({ fileName: 'b.csv', path: join(second, 'b.csv') });
    assert.equal((await client.dataSources.waitUntilSynched(src.datasetId, src.id, { intervalMs: 50 })).status, 'synched');
    await until('the first window to follow to the new service', () => a.state === 'running' && a.pid === b.pid, 30_000);
  });

  it('attaches again after the service dies, starting a new one with a fresh port and key', async () => {
    const s = make();
    const states: SupervisorState[] = [];
    s.onDidChangeState((st) => states.push(st));
    const first = await s.ensureStarted();
    const pid = s.pid as number;
    process.kill(pid, 'SIGKILL');
    await until('restart', () => s.state === 'running' && s.pid !== pid && s.pid !== undefined);
    const second = s.endpoint as LocalEndpoint;
    assert.notEqual(second.apiKey, first.apiKey);
    assert.ok(states.includes('restarting'), states.join(','));
    await healthCheck(second, new AbortController().signal);
    assert.ok(lines.some((l) => /stopped answering; attaching again/.test(l)), lines.join('\n'));
  });

  it('kills and replaces a service that hangs (stops answering while its process lives)', async () => {
    const s = make();
    await s.ensureStarted();
    const pid = s.pid as number;
    process.kill(pid, 'SIGSTOP');
    await until('the hung service to be killed', () => !alive(pid), 45_000);
    await until('a replacement', () => s.state === 'running' && s.pid !== undefined && s.pid !== pid, 30_000);
    assert.ok(lines.some((l) => /does not answer; stopping it/.test(l)), lines.join('\n'));
  });

  it('a use during a restart joins the new child instead of racing it for the database', async () => {
    const s = make();
    await s.ensureStarted();
    const oldPid = s.pid;
    lines.length = 0;
    const restarting = s.restart();
    // A tree refreshing right after "Restart Local Service": before the fix it spawned its own
    // child while the old one still held the database lock, and that start failed.
    const [a, b] = await Promise.all([restarting, s.ensureStarted()]);
    assert.deepEqual(a, b);
    assert.notEqual(s.pid, oldPid);
    assert.equal(s.state, 'running');
    await healthCheck(a, new AbortController().signal);
    assert.ok(!lines.some((l) => /in use by another process/.test(l)), lines.join('\n'));
    // Never two services over one data folder: the new one starts only once the old one is gone.
    const stopped = lines.findIndex((l) => /Waiting for the local service .* to finish its jobs and restart/.test(l));
    const started = lines.findIndex((l) => /Starting the local service/.test(l));
    assert.ok(stopped >= 0 && started > stopped, lines.join('\n'));
    assert.equal(lines.filter((l) => /Starting the local service/.test(l)).length, 1, lines.join('\n'));
  });

  it('gives its lease back on stop(), refuses later use, and the service ends once idle', async () => {
    const s = make();
    await s.ensureStarted();
    const pid = s.pid as number;
    await s.stop();
    assert.equal(s.state, 'stopped');
    await assert.rejects(s.ensureStarted(), (e: unknown) => e instanceof LocalServiceError && e.kind === 'stopped');
    await until('the service without clients to stop by itself', () => !alive(pid), 20_000);
  });

  it('a stop() during a restart leaves no service running afterwards', async () => {
    const s = make();
    await s.ensureStarted();
    const first = s.pid as number;
    const restarting = s.restart();
    await s.stop();
    await assert.rejects(restarting, (e: unknown) => e instanceof LocalServiceError && e.kind === 'stopped');
    await until('the old service to end', () => !alive(first), 20_000);
    assert.equal(s.state, 'stopped');
    assert.equal(s.pid, undefined, 'no new service after the shutdown');
  });

  it('the service ends by itself when the editor that held it dies without a goodbye (no orphan)', async () => {
    const env = { ...process.env, TEAM_DATA_IDLE_MS: '1000', TEAM_DATA_LEASE_TTL_MS: '1500' };
    const host = spawn(process.execPath, ['-r', 'tsx/cjs', join(__dirname, 'supervisedHost.ts'), cliPath, join(dir, 'orphan-data')], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    host.stdout.on('data', (c: Buffer) => (out += c.toString()));
    host.stderr.on('data', (c: Buffer) => (out += c.toString()));
    await until('the service to start under the stand-in host', () => /CHILD_PID=\d+/.test(out) || host.exitCode !== null, 45_000);
    const childPid = Number(/CHILD_PID=(\d+)/.exec(out)?.[1]);
    assert.ok(childPid > 0, out);
    assert.ok(alive(childPid));
    host.kill('SIGKILL');
    await until('the orphaned service to stop by itself', () => !alive(childPid), 20_000);
  });

  /** A tree root's gate over a real supervisor, counting how often it asked the tree to render again. */
  function gateOver(s: LocalServiceSupervisor): { gate: StartGate; renders: () => number } {
    let renders = 0;
    const gate = new StartGate('datasets', { ready: () => s.endpoint !== undefined, start: () => s.ensureStarted() }, () => renders++);
    return { gate, renders: () => renders };
  }

  it('a tree root says the service is starting (never empty) until it answers, then loads', async () => {
    const s = make();
    const { gate, renders } = gateOver(s);
    const first = gate.check();
    assert.equal(first.kind, 'starting', 'an unstarted service must not let the root load (and look empty)');
    assert.match(first.kind === 'starting' ? first.node.text : '', /^Starting the local service/);
    assert.equal(s.state, 'starting', 'asking the root starts the service');
    assert.equal(gate.check().kind, 'starting', 'a second look joins the same start');
    await until('the start to settle', () => renders() === 1);
    assert.equal(s.state, 'running');
    assert.equal(gate.check().kind, 'open');
  });

  it('a tree root shows why the start failed, without retrying by itself, until Retry', async () => {
    const later = join(dir, 'built-later', 'cli.js');
    const s = make({ cliPath: later });
    const { gate, renders } = gateOver(s);
    assert.equal(gate.check().kind, 'starting');
    await until('the failed start to settle', () => renders() === 1);
    const failed = gate.check();
    assert.ok(failed.kind === 'failed' && failed.error instanceof LocalServiceError && failed.error.kind === 'missing', JSON.stringify(failed));
    assert.equal(gate.check().kind, 'failed', 'rendering the failure again must not start again (no retry loop)');
    assert.equal(renders(), 1);
    // The build appears; Retry (a refresh) resets the gate and the next look starts again.
    mkdirSync(dirname(later), { recursive: true });
    symlinkSync(cliPath, later);
    gate.reset();
    assert.equal(gate.check().kind, 'starting');
    await until('the second start to settle', () => renders() === 2);
    assert.equal(gate.check().kind, 'open');
  });

  it('a tree root showing a failed start renders again when the service started by another path', async () => {
    const later = join(dir, 'built-later-2', 'cli.js');
    const s = make({ cliPath: later });
    const { gate, renders } = gateOver(s);
    gate.check();
    await until('the failed start to settle', () => renders() === 1);
    assert.equal(gate.check().kind, 'failed');
    mkdirSync(dirname(later), { recursive: true });
    symlinkSync(cliPath, later);
    await s.ensureStarted(); // a question asked in the panel starts it
    gate.serviceStarted();
    assert.equal(renders(), 2);
    assert.equal(gate.check().kind, 'open');
  });

  it('says the service is not built when the CLI bundle is missing', async () => {
    const s = make({ cliPath: join(dir, 'missing', 'cli.js') });
    await assert.rejects(s.ensureStarted(), (e: unknown) => e instanceof LocalServiceError && e.kind === 'missing' && /npm run build/.test(e.message));
    assert.equal(s.state, 'failed');
  });

  it('reports a DuckDB binding that cannot load as a platform problem, not a crash loop', async () => {
    // A stand-in for a CLI whose native module fails to load: prints Node's real error shape.
    const fakeCli = join(dir, 'brokenCli.js');
    writeFileSync(fakeCli, "process.stderr.write(\"Error: Cannot find module '@duckdb/node-bindings-linux-x64/duckdb.node'\\n\"); process.exit(1);\n");
    const s = make({ cliPath: fakeCli });
    await assert.rejects(s.ensureStarted(), (e: unknown) => e instanceof LocalServiceError && e.kind === 'native' && /hosted service still works/.test(e.message));
    assert.equal(s.state, 'failed');
  });
});

describe('serve output parsing', () => {
  it('takes the loopback base URL and drops the key line', () => {
    assert.deepEqual(classifyServeLine('TEAM_DATA_BASE_URL=http://127.0.0.1:4321'), { kind: 'baseUrl', url: 'http://127.0.0.1:4321' });
    assert.deepEqual(classifyServeLine('TEAM_DATA_API_KEY=abc'), { kind: 'secret' });
    assert.deepEqual(classifyServeLine('TEAM_DATA_BASE_URL=http://evil.example:80'), { kind: 'text', text: 'TEAM_DATA_BASE_URL=http://evil.example:80' });
    assert.equal(classifyServeLine('TEAM_DATA_BASE_URL=http://user:pw@127.0.0.1:1').kind, 'text');
  });

  it('recognises native load failures only when DuckDB is involved', () => {
    assert.ok(looksLikeNativeLoadFailure("Error: Cannot find module '@duckdb/node-bindings-linux-x64'"));
    assert.ok(looksLikeNativeLoadFailure('duckdb.node: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38` not found'));
    assert.ok(!looksLikeNativeLoadFailure("Error: Cannot find module 'undici'"));
  });
});
