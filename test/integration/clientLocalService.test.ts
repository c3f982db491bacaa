/**
 * Every endpoint through the real client against the real local service (port 0, temp data dir):
 * the two halves of the foundation checked against each other, including the error paths a user
 * meets (bad key, bad parameters, unknown ids, limits, unsynched sources, aborts). Once per API
 * version: the local service speaks both over one state.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { TeamDataClient, TeamDataError, downloadFile, type Answer } from '../../src/api/index';
import { answerBlocks } from '../../src/shared/answerFold';
import { MAX_SESSIONS } from '../../src/shared/domain';
import { startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';

const CSV = 'region,revenue,units\nEurope,120.5,3\nAsia,80,2\nEurope,40,1\nAmericas,300.25,7\n';

async function rejectsWith(p: Promise<unknown>, code: TeamDataError['code'], re?: RegExp): Promise<TeamDataError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof TeamDataError, `expected TeamDataError, got ${String(err)}`);
    assert.equal(err.code, code, `code: ${err.message}`);
    if (re) assert.match(err.message, re);
    assert.ok(!err.message.includes(TEST_KEY), 'the key leaked into an error');
    return err;
  }
  assert.fail(`expected a ${String(code)} error`);
}

/** Everything but file URLs (they are minted per response, with a fresh expiry and token). */
function comparable(a: Answer): unknown {
  return answerBlocks(a).map((b) => (b.type === 'TABLE' || b.type === 'IMAGE' ? { ...b, content: { name: b.content.name } } : b));
}

for (const apiVersion of ['v1', 'v2'] as const) describe(`client against the local service (${apiVersion})`, function () {
  this.timeout(120_000);
  let h: Harness;
  let client: TeamDataClient;
  let dir: string;
  let csvPath: string;
  /** Every request the client sent (`METHOD /path`), from its debug log. */
  const sent: string[] = [];

  before(async () => {
    // URL sources below are served from 127.0.0.1, which needs the private-network opt-in.
    h = await startHarness({ allowPrivateNetworks: true });
    const logger = (_level: string, line: string): void => {
      const m = /^-> (\S+ \S+)/.exec(line);
      if (m) sent.push(m[1] as string);
    };
    client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER, apiVersion, logger });
    dir = await mkdtemp(join(tmpdir(), 'client-it-'));
    csvPath = join(dir, 'sales.csv');
    await writeFile(csvPath, CSV);
  });
  after(async () => {
    await h.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function syncedSource(datasetId: string, path = csvPath): Promise<string> {
    const { fileKey } = await client.files.upload(path);
    const ds = await client.dataSources.create(datasetId, { fileName: path.split('/').pop() as string, fileKey });
    assert.equal(ds.status, 'invalid', 'a new source awaits processing');
    const done = await client.dataSources.waitUntilSynched(datasetId, ds.id, { intervalMs: 50 });
    assert.equal(done.status, 'synched');
    return ds.id;
  }

  it('datasets: create, get via list and keyword, modify, status, overview, iterate, delete', async () => {
    const { id } = await client.datasets.create({ name: 'Quarterly sales', description: 'EU and Asia' });
    await client.datasets.create({ name: 'Other', description: 'unrelated' });
    const byName = await client.datasets.list({ keyword: 'Quarterly' });
    assert.deepEqual(byName.records.map((d) => d.id), [id]);
    const byDescription = await client.datasets.list({ keyword: 'Asia' });
    assert.deepEqual(byDescription.records.map((d) => d.id), [id]);
    await client.datasets.modify(id, { name: 'Quarterly sales 2024', description: 'EU, Asia' });
    const page = await client.datasets.list({ pageNumber: 1, pageSize: 1 });
    assert.equal(page.pageSize, 1);
    assert.equal(page.records.length, 1);
    assert.ok(page.total >= 2);
    const all: string[] = [];
    for await (const d of client.datasets.iterate({ pageSize: 1 })) all.push(d.name);
    assert.ok(all.includes('Quarterly sales 2024') && all.includes('Other'), all.join());
    await syncedSource(id);
    const status = await client.datasets.status(id);
    assert.deepEqual({ total: status.total, synched: status.synched }, { total: 1, synched: 1 });
    const overview = await client.datasets.overview(id);
    assert.equal(overview.dataset.name, 'Quarterly sales 2024');
    assert.equal(overview.dataSourceCount, 1);
    assert.equal(overview.totalBytes, Buffer.byteLength(CSV));
    await client.datasets.delete(id);
    await rejectsWith(client.datasets.status(id), 300003, /not found/);
  });

  it('data sources: upload, create, list with status filter, get, presign, delete', async () => {
    const { id: datasetId } = await client.datasets.create({ name: 'ds-test', description: '' });
    const good = await syncedSource(datasetId);
    const badPath = join(dir, 'broken.csv');
    await writeFile(badPath, Buffer.from([0, 159, 146, 150, 0, 0, 1, 2, 3, 255, 254, 0]));
    const { fileKey } = await client.files.upload(badPath);
    const bad = await client.dataSources.create(datasetId, { fileName: 'broken.csv', fileKey });
    const failed = await rejectsWith(client.dataSources.waitUntilSynched(datasetId, bad.id, { intervalMs: 50 }), 'DATASOURCE_INVALID');
    assert.ok(failed.message.length > 10, failed.message);
    const got = await client.dataSources.get(datasetId, bad.id);
    assert.equal(got.status, 'invalid');
    assert.ok(got.error && got.error.length > 0, 'a failed source says why');
    const synched = await client.dataSources.list(datasetId, { statuses: ['synched'] });
    assert.deepEqual(synched.records.map((s) => s.id), [good]);
    const either = await client.dataSources.list(datasetId, { statuses: ['synched', 'invalid'] });
    assert.equal(either.total, 2);
    const link = await client.dataSources.presign(datasetId, good);
    const saved = await downloadFile(link.url, join(dir, 'presigned'));
    assert.equal(await readFile(saved.path, 'utf8'), CSV);
    await client.dataSources.delete(datasetId, bad.id);
    await rejectsWith(client.dataSources.get(datasetId, bad.id), 300003);
    await rejectsWith(client.dataSources.create(datasetId, { fileName: 'x.csv', fileKey: 'k', url: 'http://127.0.0.1/x.csv' }), 'INVALID_ARGUMENT');
  });

  it('data sources from a URL, with and without a dataset', async () => {
    const server: Server = createServer((req, res) => {
      res.writeHead(req.url === '/data/cities.csv' ? 200 : 404, { 'content-type': 'text/csv' });
      res.end(req.url === '/data/cities.csv' ? 'city,pop\nLyon,522000\nOsaka,2750000\n' : '');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data/cities.csv`;
      const created = await client.dataSources.createWithoutDataset({ fileName: 'cities.csv', url });
      assert.ok(created.datasetId, 'the service makes a default dataset');
      const done = await client.dataSources.waitUntilSynched(created.datasetId, created.id, { intervalMs: 50 });
      assert.equal(done.status, 'synched');
      const missing = await client.dataSources.create(created.datasetId, { fileName: 'gone.csv', url: url.replace('cities', 'gone') });
      await rejectsWith(client.dataSources.waitUntilSynched(created.datasetId, missing.id, { intervalMs: 50 }), 'DATASOURCE_INVALID');
    } finally {
      server.close();
    }
  });

  it('upload refuses unsupported and empty files before sending', async () => {
    const exe = join(dir, 'tool.exe');
    const empty = join(dir, 'empty.csv');
    await writeFile(exe, 'MZ');
    await writeFile(empty, '');
    await rejectsWith(client.files.upload(exe), 'UNSUPPORTED_FILE');
    await rejectsWith(client.files.upload(empty), 'EMPTY_FILE');
  });

  it('sessions: create (title truncated), get, list by keyword, modify, delete; bad parameters name the field', async () => {
    const long = 'T'.repeat(200);
    const { id } = await client.sessions.create({ title: long, languageType: 'DE', jobMode: 'DATA_ANALYTICS', maxMessagesInContext: 3 });
    const s = await client.sessions.get(id);
    assert.equal(s.title.length, 128);
    assert.deepEqual([s.languageType, s.jobMode, s.maxMessagesInContext], ['DE', 'DATA_ANALYTICS', 3]);
    await client.sessions.modify(id, { title: 'Revenue questions' });
    const found = await client.sessions.list({ keyword: 'Revenue' });
    assert.deepEqual(found.records.map((r) => r.id), [id]);
    // The client checks ranges before sending; the service's own check (code 100, msg naming the
    // field) is covered at the wire level in test/server/httpResources.test.ts.
    await rejectsWith(client.sessions.create({ maxMessagesInContext: 11 }), 'INVALID_ARGUMENT', /maxMessagesInContext/);
    await client.sessions.delete(id);
    await rejectsWith(client.sessions.get(id), 300003);
  });

  it('jobs: stream and non-stream give the same answer; history holds both, newest first', async () => {
    const { id: datasetId } = await client.datasets.create({ name: 'jobs', description: '' });
    const source = await syncedSource(datasetId);
    const { id: sessionId } = await client.sessions.create({ title: 'parity' });
    const req = { sessionId, datasetId, datasourceIdList: [source], question: 'average revenue by region' };
    const stream = client.jobs.stream(req);
    const kinds = new Set<string>();
    for await (const e of stream) kinds.add(e.kind);
    const streamed = await stream.done;
    const whole = await client.jobs.run(req);
    assert.equal(streamed.state, 'done');
    assert.ok(kinds.has('JOB_ID') && kinds.has('TASK') && kinds.has('BLOCK'), [...kinds].join());
    assert.deepEqual(comparable(streamed), comparable(whole));
    const types = new Set(answerBlocks(whole).map((b) => b.type));
    for (const t of ['MESSAGE', 'CODE', 'TABLE', 'SOURCES', 'QUESTIONS']) assert.ok(types.has(t as never), `missing ${t}`);
    const table = answerBlocks(whole).find((b) => b.type === 'TABLE');
    assert.ok(table && table.type === 'TABLE');
    const file = await downloadFile(table.content.url, join(dir, 'tables'));
    assert.ok((await readFile(file.path, 'utf8')).includes(','));
    const history = await client.sessions.history(sessionId);
    assert.equal(history.total, 2);
    assert.deepEqual(history.records.map((r) => r.jobId), [whole.jobId, streamed.jobId]);
    assert.equal(history.records[0]!.question.blocks[0]!.content, req.question);
    const second = await client.sessions.history(sessionId, { pageNumber: 2, pageSize: 1 });
    assert.deepEqual([second.total, second.pageNumber, second.pageSize, second.records.map((r) => r.jobId)], [2, 2, 1, [streamed.jobId]]);
    const paged: string[] = [];
    for await (const r of client.sessions.iterateHistory(sessionId, { pageSize: 1 })) paged.push(r.jobId);
    assert.deepEqual(paged, [whole.jobId, streamed.jobId]);
    const session = await client.sessions.get(sessionId);
    assert.ok(session.title.length > 0);
  });

  it('jobs: question too long, unsynched sources, unknown session', async () => {
    const { id: datasetId } = await client.datasets.create({ name: 'errors', description: '' });
    const { id: sessionId } = await client.sessions.create({ title: 'errors' });
    await rejectsWith(client.jobs.run({ sessionId, question: 'q'.repeat(6001) }), 210022, /6000/);
    const badPath = join(dir, 'junk.csv');
    await writeFile(badPath, Buffer.from([0, 1, 2, 3, 0, 0, 0, 255]));
    const { fileKey } = await client.files.upload(badPath);
    const bad = await client.dataSources.create(datasetId, { fileName: 'junk.csv', fileKey });
    await client.dataSources.waitUntilSynched(datasetId, bad.id, { intervalMs: 50 }).catch(() => undefined);
    await rejectsWith(client.jobs.run({ sessionId, datasetId, datasourceIdList: [bad.id], question: 'hi' }), 210023, /not synched/);
    const s = client.jobs.stream({ sessionId: 'no-such-session', question: 'hi' });
    await rejectsWith(s.done, 300003);
  });

  it('a wrong key is refused with 403 / 1004 and the key is never echoed', async () => {
    const wrong = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: 'wrong-key-abcdef', userId: USER, apiVersion });
    const err = await rejectsWith(wrong.sessions.list(), 1004, /credentials/);
    assert.equal(err.httpStatus, 403);
    assert.ok(err.traceId, 'the trace id is kept for support');
    assert.ok(!err.message.includes('wrong-key-abcdef'));
  });

  it('aborting a stream keeps the partial answer, and the job lands in history (cancelled unless it had finished)', async () => {
    const { id: datasetId } = await client.datasets.create({ name: 'abort', description: '' });
    const source = await syncedSource(datasetId);
    const { id: sessionId } = await client.sessions.create({ title: 'abort' });
    const controller = new AbortController();
    const stream = client.jobs.stream({ sessionId, datasetId, datasourceIdList: [source], question: 'overview' }, { signal: controller.signal });
    try {
      for await (const e of stream) {
        if (e.kind === 'JOB_ID') controller.abort();
      }
    } catch (err) {
      assert.ok(err instanceof TeamDataError && err.code === 'ABORTED', String(err));
    }
    const outcome = await stream.done.then((a) => a, (e: unknown) => e);
    const partial = outcome instanceof TeamDataError ? outcome.partial : (outcome as Answer);
    assert.ok(partial && partial.jobId, 'the job id that had arrived is kept');
    const deadline = Date.now() + 30_000;
    let records = 0;
    while (Date.now() < deadline) {
      records = (await client.sessions.history(sessionId)).total;
      if (records === 1) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(records, 1, 'the job is in history after the client left');
    const rec = (await client.sessions.history(sessionId)).records[0];
    // The service stops the job when the client leaves; an overview this small may finish first.
    assert.ok(rec?.answer.state === 'cancelled' || (rec?.answer.state === undefined && (rec?.answer.blocks.length ?? 0) > 0), JSON.stringify(rec?.answer.state));
  });

  it('the session limit is reported as 300009 with what to do', async () => {
    const existing = (await client.sessions.list({ pageSize: 1 })).total;
    for (let i = existing; i < MAX_SESSIONS; i++) await client.sessions.create({ title: `s${i}` });
    const err = await rejectsWith(client.sessions.create({ title: 'one too many' }), 300009, /session limit reached: delete sessions first/);
    assert.equal(err.httpStatus, 200);
  });

  it(`spoke ${apiVersion} only`, () => {
    assert.ok(sent.length > 100, `${sent.length} requests`);
    const other = sent.filter((r) => !r.includes(` /${apiVersion}/team/`));
    assert.deepEqual(other, []);
    for (const m of ['GET', 'POST', 'DELETE']) assert.ok(sent.some((r) => r.startsWith(`${m} `)), m);
  });
});

describe('client error text for parameter errors', function () {
  this.timeout(60_000);
  it('keeps the field the service named', async () => {
    const h = await startHarness();
    try {
      const res = await h.call('POST', '/v1/team/sessions', { maxMessagesInContext: 42 });
      assert.equal(res.json?.code, 100);
      const err = new TeamDataError(100, { serviceMessage: res.json?.msg ?? '' });
      assert.match(err.message, /^bad request: check the parameters: .*maxMessagesInContext/);
    } finally {
      await h.stop();
    }
  });
});
