/**
 * Headers and secrecy: the key on every call and nowhere else (not in URLs, errors, causes or
 * logs, even when the server echoes it back), a fresh trace id per call, the caller's trace id
 * checked, the GENERAL agent header where the contract sends it, and option validation.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { TeamDataClient, TeamDataError } from '../../src/api/index';
import { FaultServer, ok, sendEnvelope, writeChunks, writeThenCut } from '../helpers/faultServer';
import { API_KEY, captureLog, fixtureBytes, rejection, USER_ID } from './support';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REQ = { sessionId: 's1', question: 'q' };

describe('api headers and secrecy', function () {
  let server: FaultServer;
  let client: TeamDataClient;
  let log: ReturnType<typeof captureLog>;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-headers-'));
    await writeFile(join(dir, 'a.csv'), 'x,y\n1,2\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  beforeEach(async () => {
    server = await FaultServer.start();
    log = captureLog();
    client = new TeamDataClient({ baseUrl: `${server.baseUrl}/`, apiKey: API_KEY, userId: USER_ID, logger: log.logger, retry: { baseDelayMs: 1 } });
  });
  afterEach(() => server.close());

  it('sends a local lease only when one is given, read at each call, and never a malformed one', async () => {
    let lease: string | undefined = 'lease-1';
    const local = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, userId: USER_ID, localLease: () => lease, retry: { baseDelayMs: 1 } });
    server.enqueue(ok({ id: 'd1' }), ok({ id: 'd2' }), ok({ id: 'd3' }), ok({ id: 'd4' }));
    await local.datasets.create({ name: 'n', description: 'd' });
    lease = 'lease-2';
    await local.datasets.create({ name: 'n', description: 'd' });
    lease = 'bad\r\nx-injected: 1';
    await local.datasets.create({ name: 'n', description: 'd' });
    await client.datasets.create({ name: 'n', description: 'd' });
    assert.deepEqual(server.requests.map((r) => r.headers['x-team-data-lease']), ['lease-1', 'lease-2', undefined, undefined]);
  });

  it('sends the key and a fresh UUID trace id on every kind of call, never the key in the URL', async () => {
    server.enqueue(
      ok({ id: 'd1' }),
      ok({ total: 0, pageNumber: 1, pageSize: 10, records: [] }),
      ok(null),
      ok({ fileKey: 'k' }),
      (_req, res) => writeChunks(res, [fixtureBytes('sales-overview')]),
      ok({ jobId: 'j', blocks: [] }),
    );
    await client.datasets.create({ name: 'n', description: 'd' });
    await client.datasets.list();
    await client.datasets.delete('d1');
    await client.files.upload(join(dir, 'a.csv'));
    await client.jobs.stream(REQ).done;
    await client.jobs.run(REQ);
    assert.equal(server.requests.length, 6);
    const traceIds = server.requests.map((r) => String(r.headers['x-pd-external-trace-id']));
    for (const r of server.requests) {
      assert.equal(r.headers['x-pd-api-key'], API_KEY);
      assert.ok(!r.target.includes(API_KEY));
    }
    for (const id of traceIds) assert.match(id, UUID);
    assert.equal(new Set(traceIds).size, traceIds.length, 'a fresh trace id per call');
  });

  it('passes the caller trace id through, and refuses one over 128 characters without sending', async () => {
    server.enqueue(ok({ id: 'd1' }));
    await client.datasets.create({ name: 'n', description: '' }, { traceId: 'my-trace-1' });
    assert.equal(server.requests[0]?.headers['x-pd-external-trace-id'], 'my-trace-1');
    const long = 'x'.repeat(129);
    const err = await rejection(client.datasets.create({ name: 'n', description: '' }, { traceId: long }));
    assert.ok(err instanceof TeamDataError);
    assert.equal(err.code, 'INVALID_ARGUMENT');
    assert.throws(() => client.jobs.stream(REQ, { traceId: long }), (e: unknown) => e instanceof TeamDataError && e.code === 'INVALID_ARGUMENT');
    assert.equal((await rejection(client.datasets.list({}, { traceId: 'bad\nvalue' })) as TeamDataError).code, 'INVALID_ARGUMENT');
    server.enqueue(ok({ id: 'd2' }));
    await client.datasets.create({ name: 'n', description: '' }, { traceId: 'y'.repeat(128) });
    assert.equal(server.requests.length, 2);
  });

  it('sends x-pd-api-agent-id: GENERAL on jobs and session creation only', async () => {
    server.enqueue(
      ok({ jobId: 'j', blocks: [] }),
      (_req, res) => writeChunks(res, [fixtureBytes('sales-overview')]),
      ok({ id: 's1' }),
      ok({ id: 's1', title: 't' }),
      ok({ id: 'd1' }),
    );
    await client.jobs.run(REQ);
    await client.jobs.stream(REQ).done;
    await client.sessions.create({ title: 't' });
    await client.sessions.get('s1');
    await client.datasets.create({ name: 'n', description: '' });
    assert.deepEqual(server.requests.map((r) => r.headers['x-pd-api-agent-id']), ['GENERAL', 'GENERAL', 'GENERAL', undefined, undefined]);
  });

  it('never puts the key into errors, causes or log lines, even when the server echoes it', async () => {
    const echo = `invalid key ${API_KEY}`;
    server.enqueue(
      (_req, res) => sendEnvelope(res, 403, 1004, null, echo),
      (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`proxy error for x-pd-api-key: ${API_KEY}`);
      },
      (_req, res) => writeThenCut(res, [fixtureBytes('sales-overview').subarray(0, 2000)]),
      (_req, res) => writeChunks(res, [Buffer.from(`event:ERROR\ndata:${echo}\n\nevent:END_MARK\ndata:[ERROR]\n\n`)]),
    );
    const errors: unknown[] = [];
    errors.push(await rejection(client.datasets.list()));
    errors.push(await rejection(client.sessions.get('s1')));
    errors.push(await rejection(client.jobs.stream(REQ).done));
    errors.push(await rejection(client.jobs.stream(REQ).done));
    const dead = new TeamDataClient({ baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY, logger: log.logger, retry: { attempts: 1 } });
    errors.push(await rejection(dead.datasets.list()));
    server.otherwise(() => undefined);
    errors.push(await rejection(new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, timeoutMs: 50 }).datasets.list()));
    const codes = errors.map((e) => (e as TeamDataError).code);
    assert.deepEqual(codes, [1004, 'PROTOCOL', 'STREAM_INCOMPLETE', 'JOB_ERROR', 'NETWORK', 'TIMEOUT']);
    for (const e of errors) {
      assert.ok(!inspect(e, { depth: 10 }).includes(API_KEY), inspect(e));
      assert.ok(!JSON.stringify(e).includes(API_KEY));
    }
    assert.equal((errors[0] as TeamDataError).serviceMessage, 'invalid key ***');
    assert.equal((errors[0] as TeamDataError).message, 'bad credentials: check the API key and sign in again');
    assert.ok(log.lines.length > 5);
    for (const line of log.lines) assert.ok(!line.includes(API_KEY), line);
  });

  it('validates options before any request', () => {
    const bad = (o: Partial<ConstructorParameters<typeof TeamDataClient>[0]>): string => {
      try {
        new TeamDataClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', ...o });
      } catch (err) {
        assert.ok(err instanceof TeamDataError);
        assert.ok(!err.message.includes('s3cret'));
        return String(err.code);
      }
      return 'accepted';
    };
    assert.equal(bad({ baseUrl: 'not a url' }), 'INVALID_ARGUMENT');
    assert.equal(bad({ baseUrl: 'ftp://host/x' }), 'INVALID_ARGUMENT');
    assert.equal(bad({ baseUrl: 'https://user:s3cret@host/api' }), 'INVALID_ARGUMENT');
    assert.equal(bad({ baseUrl: 'https://host/api?key=s3cret' }), 'INVALID_ARGUMENT');
    assert.equal(bad({ apiKey: '' }), 'INVALID_ARGUMENT');
    assert.equal(bad({ apiKey: 's3cret\r\nx-evil: 1' }), 'INVALID_ARGUMENT');
    assert.equal(bad({ timeoutMs: -1 }), 'INVALID_ARGUMENT');
    assert.equal(bad({ baseUrl: 'https://ai.data.cloud/api/' }), 'accepted');
    assert.equal(new TeamDataClient({ baseUrl: 'https://ai.data.cloud/api/', apiKey: 'k' }).baseUrl, 'https://ai.data.cloud/api');
  });
});
