/**
 * One local service per data folder (issue 23): clients racing to start it get one service, every
 * client sees the others' datasets and sessions, a service killed mid-job is restarted by the next
 * client and its history shows the interrupted job, and failures to start say why in plain words.
 * Real processes throughout: the built CLI runs `serve --shared`, detached, as clients start it.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient } from '../../src/api/index';
import { attachOrStart, ServiceStartError, type AttachOptions, type Attached } from '../../src/cli/serviceAttach';
import { discoveryFile, processAlive, readDiscovery } from '../../src/server/daemon/discovery';
import { INTERRUPTED_TEXT } from '../../src/server/jobs/jobJournal';
import { LocalCallError, localCall } from '../../src/cli/serviceProbe';
import { writeBigCsv } from '../helpers/bigCsv';
import { builtCli, stopShared, waitGone } from '../helpers/sharedCli';

describe('one shared local service per data folder (real processes)', function () {
  this.timeout(180_000);
  let dir: string;
  let cliPath: string;
  const folders: string[] = [];
  const held: Attached[] = [];

  function options(dataDir: string, extra: Partial<AttachOptions> = {}): AttachOptions {
    if (!folders.includes(dataDir)) folders.push(dataDir);
    return {
      dataDir, cliPath, version: 'test', client: 'test',
      env: { ...process.env, TEAM_DATA_IDLE_MS: '1500', TEAM_DATA_LEASE_TTL_MS: '3000' },
      ...extra,
    };
  }

  async function attach(dataDir: string, extra: Partial<AttachOptions> = {}): Promise<Attached> {
    const a = await attachOrStart(options(dataDir, extra));
    held.push(a);
    return a;
  }

  const clientOf = (a: Attached, userId = 'u'): TeamDataClient =>
    new TeamDataClient({ baseUrl: a.discovery.baseUrl, apiKey: a.discovery.apiKey, userId, retry: { attempts: 1 } });

  before(async () => {
    cliPath = await builtCli();
    dir = mkdtempSync(join(tmpdir(), 'td-shared-'));
  });

  afterEach(async () => {
    for (const a of held.splice(0)) await a.lease.release();
    for (const f of folders.splice(0)) await stopShared(f);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('ten clients racing to start get one service; an eleventh attaches (prints the times)', async () => {
    const data = join(dir, 'race');
    const all = await Promise.all(Array.from({ length: 10 }, () => attach(data)));
    const pids = new Set(all.map((a) => a.discovery.pid));
    assert.equal(pids.size, 1, `one service, got pids ${[...pids].join(', ')}`);
    assert.equal(all.filter((a) => a.started).length, 1, 'exactly one client started it');
    const late = await attach(data);
    assert.equal(late.discovery.pid, all[0]?.discovery.pid);
    assert.equal(late.started, false);
    console.log(`      first start ${all.find((a) => a.started)?.ms} ms; attach of an eleventh client ${late.ms} ms`);
  });

  it('clients see each other\'s datasets and sessions; the one that started it may leave while the others go on', async () => {
    const data = join(dir, 'together');
    const first = await attach(data);
    const second = await attach(data);
    const a = clientOf(first);
    const b = clientOf(second);
    const ds = await a.datasets.create({ name: 'made in window A', description: '' });
    const session = await b.sessions.create({ title: 'asked in window B' });
    assert.ok((await b.datasets.list({})).records.some((d) => d.id === ds.id));
    assert.ok((await a.sessions.list({})).records.some((s) => s.id === session.id));
    await first.lease.release();
    held.splice(held.indexOf(first), 1);
    // Longer than the idle wait: the second client's lease keeps the service.
    await new Promise((r) => setTimeout(r, 2500));
    assert.ok(processAlive(second.discovery.pid));
    assert.equal((await b.datasets.list({})).records.find((d) => d.id === ds.id)?.name, 'made in window A');
  });

  it('a service killed mid-job is restarted by the next client, and its history shows the job as interrupted', async () => {
    const data = join(dir, 'killed');
    const files = join(dir, 'killed-files');
    mkdirSync(files);
    await writeBigCsv(join(files, 'big.csv'), 120);
    const first = await attach(data, { roots: () => [files] });
    const client = new TeamDataClient({ baseUrl: first.discovery.baseUrl, apiKey: first.discovery.apiKey, userId: 'u', retry: { attempts: 1 }, localLease: () => first.lease.leaseId });
    const src = await client.dataSources.createWithoutDataset({ fileName: 'big.csv', path: join(files, 'big.csv') });
    assert.equal((await client.dataSources.waitUntilSynched(src.datasetId, src.id, { intervalMs: 100 })).status, 'synched');
    const session = await client.sessions.create({ title: 'before the crash' });
    const stream = client.jobs.stream({ sessionId: session.id, question: 'total amount by region', datasetId: src.datasetId, datasourceIdList: [src.id] });
    const killed = (async () => {
      for await (const ev of stream) {
        if (ev.kind === 'JOB_ID') {
          process.kill(first.discovery.pid, 'SIGKILL');
          return ev.jobId;
        }
      }
      return undefined;
    })();
    const jobId = await killed.catch(() => undefined);
    await stream.done.catch(() => undefined);
    first.lease.abandon();
    assert.ok(jobId, 'the job started before the kill');
    assert.ok(await waitGone(first.discovery.pid, 5000));
    // Any client's next use starts a new service over the same data.
    const next = await attach(data, { roots: () => [files] });
    assert.notEqual(next.discovery.pid, first.discovery.pid);
    assert.equal(next.started, true);
    const history = (await clientOf(next).sessions.history(session.id)).records;
    const record = history.find((r) => r.jobId === jobId);
    assert.ok(record, `the interrupted job is in history: ${JSON.stringify(history)}`);
    assert.equal(record.answer.state, 'error');
    assert.match(JSON.stringify(record.answer.blocks), new RegExp(INTERRUPTED_TEXT.slice(0, 40)));
    assert.equal(record.question.blocks[0]?.type === 'MESSAGE' ? record.question.blocks[0].content : '', 'total amount by region');
  });

  it('a file read in place stays readable after a restart by a client that has none of its folders', async () => {
    const data = join(dir, 'kept');
    const files = join(dir, 'kept-files');
    mkdirSync(files);
    writeFileSync(join(files, 'sales.csv'), 'region,amount\nnorth,10\nsouth,5\nnorth,7\n');
    const first = await attach(data, { roots: () => [files] });
    const client = new TeamDataClient({ baseUrl: first.discovery.baseUrl, apiKey: first.discovery.apiKey, userId: 'u', localLease: () => first.lease.leaseId });
    const src = await client.dataSources.createWithoutDataset({ fileName: 'sales.csv', path: join(files, 'sales.csv') });
    assert.equal((await client.dataSources.waitUntilSynched(src.datasetId, src.id, { intervalMs: 50 })).status, 'synched');
    await first.lease.release();
    held.splice(held.indexOf(first), 1);
    await stopShared(data);
    // Nobody remembers the window's folder any more: only the source itself keeps it readable.
    rmSync(join(data, 'service', 'roots.json'), { force: true });
    const cli = await attach(data);
    const c = clientOf(cli);
    const session = await c.sessions.create({ title: 'later' });
    const answer = await c.jobs.run({ sessionId: session.id, question: 'total amount by region', datasetId: src.datasetId, datasourceIdList: [src.id] });
    assert.equal(answer.state, 'done', JSON.stringify(answer.error));
    assert.match(JSON.stringify(answer.groups), /17/);
  });

  it('an upload in flight holds a restart back; a client arriving meanwhile waits and attaches to the successor', async () => {
    const data = join(dir, 'restarting');
    const first = await attach(data);
    const old = first.discovery.pid;
    // An upload whose body is still coming: work in flight, so the service may not stop yet.
    const upload = request(`${first.discovery.baseUrl}/v1/team/file/upload-datasource`, {
      method: 'POST', headers: { 'x-pd-api-key': first.discovery.apiKey, 'content-type': 'application/octet-stream', 'content-length': '1000000' },
    });
    upload.on('error', () => undefined);
    upload.write(Buffer.alloc(1000));
    await new Promise((r) => setTimeout(r, 200));
    await localCall(first.discovery, 'POST', '/restart', { reason: 'test' });
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(processAlive(old), 'not while the upload is in flight');
    await assert.rejects(localCall(first.discovery, 'POST', '/leases', { client: 'late' }), (e: unknown) => e instanceof LocalCallError && e.status === 503);
    const next = attach(data);
    upload.destroy();
    const successor = await next;
    first.lease.abandon();
    assert.notEqual(successor.discovery.pid, old, 'attached to the successor, not to the service on its way out');
    assert.equal(processAlive(old), false);
  });

  it('a service that stops between the look and the lease is not an error: the client starts the next one', async () => {
    const data = join(dir, 'vanishing');
    mkdirSync(join(data, 'service'), { recursive: true, mode: 0o700 });
    // A stand-in for a service at the very moment it stops: it answers the look, then goes away.
    const doomed = spawn('sleep', ['30'], { stdio: 'ignore' });
    const pid = doomed.pid as number;
    const server = createServer((req, res) => {
      if (req.url === '/local/v1/status') {
        res.end(JSON.stringify({ code: 0, msg: null, data: { pid, version: 'test', dataFormat: 1, busy: false, leases: [] } }));
        return;
      }
      doomed.kill('SIGKILL');
      req.socket.destroy();
      server.close();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    writeFileSync(discoveryFile(data), JSON.stringify({ pid, baseUrl: `http://127.0.0.1:${port}`, apiKey: 'k'.repeat(20), version: 'test', dataFormat: 1, startedAt: Date.now() }), { mode: 0o600 });
    const a = await attach(data);
    assert.equal(a.started, true);
    assert.notEqual(a.discovery.pid, pid);
  });

  it('a data folder locked by a foreign process is refused in plain words, naming the process (prints the time)', async () => {
    const data = join(dir, 'foreign');
    mkdirSync(data);
    const holder = spawn(process.execPath, ['-e', `
      const { DuckDBInstance } = require('@duckdb/node-api');
      DuckDBInstance.create(${JSON.stringify(join(data, 'analysis.duckdb'))}).then(() => { console.log('LOCKED'); setInterval(() => {}, 1000); });
    `], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => holder.stdout.on('data', (c: Buffer) => c.toString().includes('LOCKED') && resolve()));
      const t0 = Date.now();
      await assert.rejects(attach(data), (e: unknown) => {
        assert.ok(e instanceof ServiceStartError, String(e));
        assert.match(e.message, /is in use by another program/);
        assert.match(e.message, new RegExp(`pid ${holder.pid}`));
        assert.match(e.message, /choose another data folder/);
        return true;
      });
      console.log(`      refused in ${Date.now() - t0} ms`);
      assert.equal((await readDiscovery(data)), undefined, 'no service is left behind');
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('a data folder written by a newer build is refused with a way forward, and left as it was', async () => {
    const data = join(dir, 'newer');
    mkdirSync(join(data, 'service'), { recursive: true });
    writeFileSync(join(data, 'service', 'format.json'), JSON.stringify({ dataFormat: 99 }));
    await assert.rejects(attach(data), /written by a newer Team Data \(data format 99.*Update this client/);
  });

  it('a running service of another version is used, with a note; a discovery file others may read is ignored', async () => {
    const data = join(dir, 'versions');
    const first = await attach(data);
    const notes: string[] = [];
    const other = await attach(data, { version: 'other', onNote: (m) => notes.push(m) });
    assert.equal(other.discovery.pid, first.discovery.pid);
    assert.match(notes.join('\n'), /already running on .* is version test; this client is version other/);
    chmodSync(discoveryFile(data), 0o644);
    const read = await readDiscovery(data);
    assert.ok(read && !read.ok && /can be read by others/.test(read.why));
  });
});
