/**
 * The client under injected faults: each case checks the error code a caller switches on, and
 * that nothing that had already arrived is lost (`partial`, the iterator's events).
 */
import { strict as assert } from 'node:assert';
import { TeamDataClient, TeamDataError } from '../../src/api/index';
import type { Answer, JobEvent } from '../../src/shared/domain';
import { FaultServer, ok, sendEnvelope, writeChunks, writeThenCut } from '../helpers/faultServer';
import { API_KEY, captureLog, fixtureBytes, rejection, USER_ID } from './support';

const REQ = { sessionId: 'sess-1', question: 'What changed last quarter?' };
const SALES = fixtureBytes('sales-overview');
/** The recording up to (not including) its Respond-stage MESSAGE fragments. */
const BEFORE_RESPOND = SALES.subarray(0, SALES.indexOf('event:MESSAGE'));
const END_MARK = Buffer.from('event:END_MARK\ndata:[DONE]\n\n');

function asClientError(err: unknown): TeamDataError {
  assert.ok(err instanceof TeamDataError, `expected a TeamDataError, got ${String(err)}`);
  return err;
}

async function drain(job: AsyncIterable<JobEvent>): Promise<{ events: JobEvent[]; error: unknown }> {
  const events: JobEvent[] = [];
  try {
    for await (const e of job) events.push(e);
  } catch (error) {
    return { events, error };
  }
  return { events, error: undefined };
}

function codeBlocks(a: Answer | undefined): number {
  return (a?.groups ?? []).flatMap((g) => g.blocks).filter((b) => b.type === 'CODE').length;
}

describe('api client under faults', function () {
  let server: FaultServer;
  let client: TeamDataClient;
  let log: ReturnType<typeof captureLog>;

  beforeEach(async () => {
    server = await FaultServer.start();
    log = captureLog();
    client = new TeamDataClient({
      baseUrl: server.baseUrl, apiKey: API_KEY, userId: USER_ID, logger: log.logger, retry: { baseDelayMs: 1, maxDelayMs: 5_000 },
    });
  });
  afterEach(() => server.close());

  it('connection cut mid-stream: STREAM_INCOMPLETE with everything received kept', async () => {
    server.enqueue((_req, res) => writeThenCut(res, [BEFORE_RESPOND]));
    const job = client.jobs.stream(REQ);
    const { events, error } = await drain(job);
    const err = asClientError(error);
    assert.equal(err.code, 'STREAM_INCOMPLETE');
    assert.match(err.message, /connection failed mid-answer/);
    assert.equal(events.filter((e) => e.kind === 'BLOCK').length, 5);
    const partial = asClientError(await rejection(job.done)).partial;
    assert.equal(partial?.state, 'error');
    assert.equal(codeBlocks(partial), 3);
    assert.equal(partial?.title, 'Quarterly revenue by region');
    assert.equal(server.requests.length, 1, 'a job is never retried after a connection failure');
  });

  it('stream that ends without END_MARK: STREAM_INCOMPLETE, partial kept', async () => {
    const withoutEnd = SALES.subarray(0, SALES.lastIndexOf('event:END_MARK'));
    server.enqueue((_req, res) => writeChunks(res, [withoutEnd]));
    const err = asClientError(await rejection(client.jobs.stream(REQ).done));
    assert.equal(err.code, 'STREAM_INCOMPLETE');
    assert.match(err.message, /closed the stream before END_MARK/);
    const sources = err.partial?.groups.flatMap((g) => g.blocks).filter((b) => b.type === 'SOURCES');
    assert.equal(sources?.length, 1, 'the last frame before the close is in the partial answer');
  });

  it('429 with Retry-After, then success: waits as asked and succeeds', async () => {
    server.enqueue(
      (_req, res) => sendEnvelope(res, 429, 201, null, 'too many requests', { 'retry-after': '1' }),
      ok({ id: 'set-1' }),
    );
    const created = await client.datasets.create({ name: 'Sales', description: '' });
    assert.deepEqual(created, { id: 'set-1' });
    assert.equal(server.requests.length, 2);
    assert.ok(log.lines.some((l) => /rate limited; retrying in 1000 ms \(attempt 2 of 4\)/.test(l)), log.lines.join('\n'));
    assert.equal(server.requests[0]?.headers['x-pd-external-trace-id'], server.requests[1]?.headers['x-pd-external-trace-id']);
  });

  it('a bare 429 from a proxy (no envelope) counts as the rate limit', async () => {
    server.enqueue(
      (_req, res) => {
        res.writeHead(429, { 'content-type': 'text/plain' });
        res.end('slow down');
      },
      ok({ total: 0, pageNumber: 1, pageSize: 10, records: [] }),
    );
    assert.equal((await client.datasets.list()).total, 0);
    assert.equal(server.requests.length, 2);
  });

  it('code 201 then success: a job stream is retried because it never started', async () => {
    server.enqueue((_req, res) => sendEnvelope(res, 200, 201, null, 'frequency limit'), (_req, res) => writeChunks(res, [SALES]));
    const answer = await client.jobs.stream(REQ).done;
    assert.equal(answer.state, 'done');
    assert.equal(server.requests.length, 2);
  });

  it('gives up after the configured attempts with the rate-limit error', async () => {
    const few = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, retry: { attempts: 2, baseDelayMs: 1 } });
    server.otherwise((_req, res) => sendEnvelope(res, 429, 201, null, 'frequency limit'));
    const err = asClientError(await rejection(few.sessions.get('s1')));
    assert.equal(err.code, 201);
    assert.equal(err.httpStatus, 429);
    assert.equal(err.message, 'rate limit reached: wait a moment and try again');
    assert.equal(server.requests.length, 2);
  });

  it('does not wait out a Retry-After longer than maxDelayMs', async () => {
    server.otherwise((_req, res) => sendEnvelope(res, 429, 201, null, null, { 'retry-after': '3600' }));
    const err = asClientError(await rejection(client.sessions.get('s1')));
    assert.equal(err.code, 201);
    assert.equal(err.retryAfterMs, 3_600_000);
    assert.equal(server.requests.length, 1);
  });

  it('9999 is not retried and carries code, status, service message and trace id', async () => {
    server.otherwise((_req, res) => sendEnvelope(res, 500, 9999, null, 'boom'));
    const err = asClientError(await rejection(client.datasets.create({ name: 'x', description: '' })));
    assert.equal(err.code, 9999);
    assert.equal(err.httpStatus, 500);
    assert.equal(err.serviceMessage, 'boom');
    assert.equal(err.traceId, 'svc-trace-1');
    assert.equal(err.operation, 'POST /v1/team/datasets');
    assert.equal(err.message, 'internal error in the service: try again later');
    assert.equal(server.requests.length, 1);
  });

  it('a 9999 answer to a stream request rejects done with the service code', async () => {
    server.otherwise((_req, res) => sendEnvelope(res, 500, 9999, null, 'boom'));
    const job = client.jobs.stream(REQ);
    const { events, error } = await drain(job);
    assert.deepEqual(events, []);
    assert.equal(asClientError(error).code, 9999);
    assert.equal(asClientError(await rejection(job.done)).partial?.state, 'error');
  });

  it('slow headers: TIMEOUT', async () => {
    const quick = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, timeoutMs: 150 });
    server.otherwise(() => undefined); // never answers
    const err = asClientError(await rejection(quick.datasets.list()));
    assert.equal(err.code, 'TIMEOUT');
    const streamErr = asClientError(await rejection(quick.jobs.stream(REQ).done));
    assert.equal(streamErr.code, 'TIMEOUT');
  });

  it('malformed JSON in a data line: PROTOCOL after the rest of the stream, partial kept', async () => {
    const bad = Buffer.from('id:d9a4b6c2\nevent:MESSAGE\ndata:{"choices":[{"delta":{"content":"half\n\n');
    server.enqueue((_req, res) => writeChunks(res, [BEFORE_RESPOND, bad, SALES.subarray(BEFORE_RESPOND.length)]));
    const job = client.jobs.stream(REQ);
    const { events, error } = await drain(job);
    const err = asClientError(error);
    assert.equal(err.code, 'PROTOCOL');
    assert.match(err.message, /MESSAGE frame/);
    assert.equal(events[events.length - 1]?.kind, 'END', 'frames after the bad one still arrive');
    assert.equal(err.partial?.state, 'error');
    assert.ok(err.partial?.groups.some((g) => g.name === 'Conclusions' && g.blocks.length === 1));
    assert.ok(log.lines.some((l) => l.startsWith('warn') && l.includes('undecodable MESSAGE frame')));
  });

  it('[ERROR] end mark: JOB_ERROR with the partial answer', async () => {
    server.enqueue((_req, res) => writeChunks(res, [BEFORE_RESPOND, Buffer.from('event:END_MARK\ndata:[ERROR]\n\n')]));
    const err = asClientError(await rejection(client.jobs.stream(REQ).done));
    assert.equal(err.code, 'JOB_ERROR');
    assert.equal(codeBlocks(err.partial), 3);
    assert.equal(err.partial?.error?.message, 'the service ended the answer with an error');
  });

  it('ERROR event: the service message, kept answer, numeric code when given', async () => {
    const errorFrame = (content: string): Buffer =>
      Buffer.from(`id:-1\nevent:ERROR\ndata:{"id":"-1","choices":[{"delta":{"role":null,"content":${content}},"index":0}],"groupId":"-1","stage":"Respond"}\n\n`);
    server.enqueue((_req, res) => writeChunks(res, [BEFORE_RESPOND, errorFrame('{"code":"The analysis failed: column not found"}'), END_MARK]));
    const err = asClientError(await rejection(client.jobs.stream(REQ).done));
    assert.equal(err.code, 'JOB_ERROR');
    assert.equal(err.serviceMessage, 'The analysis failed: column not found');
    assert.match(err.message, /column not found/);
    assert.equal(codeBlocks(err.partial), 3);

    server.enqueue((_req, res) => writeChunks(res, [BEFORE_RESPOND, errorFrame('{"code":"quota","errorCode":210021}')]));
    const coded = asClientError(await rejection(client.jobs.stream(REQ).done));
    assert.equal(coded.code, 210021);
    assert.equal(coded.partial?.error?.code, 210021);
  });

  it('abort mid-stream: ABORTED from done and the iterator, events so far kept', async () => {
    const ac = new AbortController();
    server.enqueue((_req, res) => writeChunks(res, [BEFORE_RESPOND], { end: false }));
    const job = client.jobs.stream(REQ, { signal: ac.signal });
    const seen: JobEvent[] = [];
    const err = asClientError(
      await rejection(
        (async () => {
          for await (const e of job) {
            seen.push(e);
            if (e.kind === 'BLOCK' && e.block.type === 'IMAGE') ac.abort();
          }
        })(),
      ),
    );
    assert.equal(err.code, 'ABORTED');
    const done = asClientError(await rejection(job.done));
    assert.equal(done.code, 'ABORTED');
    assert.equal(done.partial?.state, 'cancelled');
    assert.equal(codeBlocks(done.partial), 3);
    assert.ok(seen.length >= 10);
  });

  it('cancel() and breaking out of the loop end iteration quietly; done rejects ABORTED', async () => {
    server.enqueue((_req, res) => writeChunks(res, [BEFORE_RESPOND], { end: false }));
    const job = client.jobs.stream(REQ);
    let n = 0;
    for await (const _e of job) if (++n === 3) break;
    const err = asClientError(await rejection(job.done));
    assert.equal(err.code, 'ABORTED');
    assert.equal(err.partial?.jobId, 'job-7f3a9c');

    server.enqueue((_req, res) => writeChunks(res, [BEFORE_RESPOND], { end: false }));
    const job2 = client.jobs.stream(REQ);
    const it = job2[Symbol.asyncIterator]();
    await it.next();
    job2.cancel();
    for (let r = await it.next(); !r.done; r = await it.next()) {
      // drains what was already buffered, then ends without throwing
    }
    assert.equal(asClientError(await rejection(job2.done)).code, 'ABORTED');
  });

  it('abort during a backoff wait: ABORTED at once, no further attempt', async function () {
    // A wait that ignored the signal would sit out the full 20 s and trip this timeout.
    this.timeout(10_000);
    const ac = new AbortController();
    // Abort shortly after the client announces its backoff wait, while it is waiting.
    const waiting = new TeamDataClient({
      baseUrl: server.baseUrl, apiKey: API_KEY, retry: { baseDelayMs: 1, maxDelayMs: 30_000 },
      logger: (_level, m) => {
        if (m.includes('retrying in 20000 ms')) setTimeout(() => ac.abort(), 20);
      },
    });
    server.otherwise((_req, res) => sendEnvelope(res, 429, 201, null, null, { 'retry-after': '20' }));
    const err = asClientError(await rejection(waiting.datasets.list({}, { signal: ac.signal })));
    assert.equal(err.code, 'ABORTED');
    assert.equal(server.requests.length, 1);
    const job = client.jobs.stream(REQ, { signal: AbortSignal.abort() });
    assert.equal(asClientError(await rejection(job.done)).code, 'ABORTED');
  });

  it('a connection refused is NETWORK, and only GETs are retried on connection failures', async () => {
    const dead = await FaultServer.start();
    const url = dead.baseUrl;
    await dead.close();
    const c = new TeamDataClient({ baseUrl: url, apiKey: API_KEY, logger: log.logger, retry: { baseDelayMs: 1 } });
    const getErr = asClientError(await rejection(c.datasets.list()));
    assert.equal(getErr.code, 'NETWORK');
    assert.equal(log.lines.filter((l) => l.includes('connection failed; retrying')).length, 3);
    log.lines.length = 0;
    const postErr = asClientError(await rejection(c.datasets.create({ name: 'n', description: '' })));
    assert.equal(postErr.code, 'NETWORK');
    assert.equal(log.lines.filter((l) => l.includes('retrying')).length, 0);
    assert.ok(postErr.message.includes(new URL(url).origin));
  });

  it('non-JSON and wrong-shaped bodies are PROTOCOL errors that say what arrived', async () => {
    server.enqueue(
      (_req, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html><body>Bad gateway</body></html>');
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data":{}}');
      },
      ok({ name: 'no id' }),
    );
    const html = asClientError(await rejection(client.datasets.create({ name: 'n', description: '' })));
    assert.equal(html.code, 'PROTOCOL');
    assert.equal(html.httpStatus, 502);
    assert.match(html.message, /expected a JSON envelope, got text\/html: "<html><body>Bad gateway/);
    const noCode = asClientError(await rejection(client.datasets.create({ name: 'n', description: '' })));
    assert.match(noCode.message, /no integer "code"/);
    const shape = asClientError(await rejection(client.datasets.create({ name: 'n', description: '' })));
    assert.equal(shape.code, 'PROTOCOL');
    assert.match(shape.message, /data\.id: expected a string/);
  });
});
