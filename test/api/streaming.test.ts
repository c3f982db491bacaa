/**
 * The real client streaming recorded jobs from a local HTTP server that writes them in random
 * chunks: same Answer as decoding the whole stream, same as the non-stream response, and the
 * events come out of the iterator as they arrive.
 */
import { strict as assert } from 'node:assert';
import { TeamDataClient } from '../../src/api/index';
import { foldEvents } from '../../src/shared/answerFold';
import type { Answer, JobEvent } from '../../src/shared/domain';
import { FaultServer, sendEnvelope, writeChunks } from '../helpers/faultServer';
import {
  API_KEY, comparableBlocks, comparableGroups, FIXTURE_NAMES, fixtureBytes, fixtureEnvelope, nonStreamAnswer, prng, randomSplit,
  USER_ID,
} from './support';

const REQ = { sessionId: 'sess-1', question: 'Give me an overview of this data' };

describe('api/jobs over HTTP with recorded streams', function () {
  let server: FaultServer;
  let client: TeamDataClient;

  before(async () => {
    server = await FaultServer.start();
    client = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, userId: USER_ID });
  });
  after(() => server.close());

  for (const name of FIXTURE_NAMES) {
    describe(name, () => {
      const bytes = fixtureBytes(name);
      let reference: Answer;

      it('streams the whole recording into a done answer equal to the non-stream one', async () => {
        server.enqueue((_req, res) => writeChunks(res, [bytes]));
        const job = client.jobs.stream(REQ);
        const events: JobEvent[] = [];
        for await (const e of job) events.push(e);
        reference = await job.done;
        assert.equal(reference.state, 'done');
        assert.deepEqual(job.snapshot(), reference);
        assert.equal(events[0]?.kind, 'JOB_ID');
        assert.equal(events[events.length - 1]?.kind, 'END');
        // The yielded events are exactly what the answer is made of: no unknown kinds, no re-sent files.
        assert.deepEqual(foldEvents(events), reference);
        assert.ok(!events.some((e) => e.kind === 'UNKNOWN'));
        const files = events.filter((e) => e.kind === 'BLOCK' && (e.block.type === 'TABLE' || e.block.type === 'IMAGE'));
        assert.equal(files.length, 2);
        const ns = nonStreamAnswer(name);
        assert.deepEqual(comparableBlocks(reference), comparableBlocks(ns));
        assert.deepEqual(comparableGroups(reference), comparableGroups(ns));
      });

      it('gives the identical answer for many seeded random chunkings', async () => {
        const random = prng(7 + name.length);
        for (let run = 0; run < 12; run++) {
          const chunks = randomSplit(bytes, 2 + Math.floor(random() * 60), random);
          server.enqueue((_req, res) => writeChunks(res, chunks));
          const answer = await client.jobs.stream(REQ).done;
          assert.deepEqual(answer, reference, `run ${run}`);
        }
      });

      it('runs the same job without streaming into the same blocks', async () => {
        server.enqueue((_req, res) => sendEnvelope(res, 200, 0, fixtureEnvelope(name).data));
        const answer = await client.jobs.run(REQ);
        assert.equal(answer.state, 'done');
        assert.deepEqual(comparableBlocks(answer), comparableBlocks(reference));
        const sent = server.requests[server.requests.length - 1];
        assert.equal(JSON.parse(sent?.body.toString() ?? '{}').stream, false);
      });
    });
  }

  it('yields events while the stream is still open (not only at the end)', async () => {
    const bytes = fixtureBytes('sales-overview');
    const cut = bytes.indexOf('event:TITLE_GENERATION');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.enqueue(async (_req, res) => {
      await writeChunks(res, [bytes.subarray(0, cut)], { end: false });
      await gate;
      await writeChunks(res, [bytes.subarray(cut)]);
    });
    const job = client.jobs.stream(REQ);
    const it = job[Symbol.asyncIterator]();
    const first = await it.next();
    assert.deepEqual(first.value, { kind: 'JOB_ID', jobId: 'job-7f3a9c' });
    assert.equal(job.snapshot().state, 'streaming');
    assert.equal(job.snapshot().jobId, 'job-7f3a9c');
    release();
    let last: JobEvent | undefined;
    for (let r = await it.next(); !r.done; r = await it.next()) last = r.value;
    assert.deepEqual(last, { kind: 'END', ok: true });
    assert.equal((await job.done).state, 'done');
  });

  it('sends stream:true, accepts text/event-stream and reports the service trace id', async () => {
    server.enqueue((_req, res) => writeChunks(res, [fixtureBytes('regional-zh')]));
    const job = client.jobs.stream({ ...REQ, datasetId: 'set-9', datasourceIdList: ['ds-77'], languageType: 'ZH-CN' });
    await job.done;
    const sent = server.requests[server.requests.length - 1];
    assert.equal(sent?.method, 'POST');
    assert.equal(sent?.path, '/v1/team/jobs');
    assert.equal(sent?.headers['accept'], 'text/event-stream');
    assert.deepEqual(JSON.parse(sent?.body.toString() ?? '{}'), {
      sessionId: 'sess-1', question: REQ.question, stream: true, datasetId: 'set-9', datasourceIdList: ['ds-77'], languageType: 'ZH-CN',
    });
    assert.equal(job.traceId, 'svc-trace-sse');
  });

  it('logs unknown event kinds at debug and never the key', async () => {
    const lines: string[] = [];
    const logged = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, logger: (level, m) => lines.push(`${level} ${m}`) });
    server.enqueue((_req, res) => writeChunks(res, [fixtureBytes('sales-overview')]));
    await logged.jobs.stream(REQ).done;
    assert.ok(lines.includes('debug POST /v1/team/jobs: ignoring unknown stream event "PROGRESS"'), lines.join('\n'));
    assert.ok(lines.some((l) => /^debug <- 200 POST \/v1\/team\/jobs in \d+ ms \(service trace svc-trace-sse\)$/.test(l)), lines.join('\n'));
    assert.ok(lines.every((l) => !l.includes(API_KEY)));
  });

  it('accepts a service that ignores stream:true and answers with one JSON result', async () => {
    server.enqueue((_req, res) => sendEnvelope(res, 200, 0, fixtureEnvelope('sales-overview').data));
    const job = client.jobs.stream(REQ);
    const kinds: string[] = [];
    for await (const e of job) kinds.push(e.kind);
    const answer = await job.done;
    assert.equal(kinds[0], 'JOB_ID');
    assert.equal(kinds[kinds.length - 1], 'END');
    assert.deepEqual(comparableBlocks(answer), comparableBlocks(nonStreamAnswer('sales-overview')));
  });

  it('applies backpressure to a slow consumer without losing or reordering events', async () => {
    // Many small frames, far more than the iterator buffers before it stops reading.
    let text = 'event:JOB_ID\ndata:j-bp\n\n';
    for (let i = 0; i < 3000; i++) {
      text += `event:MESSAGE\ndata:{"choices":[{"delta":{"content":"${i},"}}],"groupId":"r","groupName":"R","stage":"Respond"}\n\n`;
    }
    text += 'event:END_MARK\ndata:[DONE]\n\n';
    const bytes = Buffer.from(text);
    server.enqueue((_req, res) => writeChunks(res, randomSplit(bytes, 40, prng(3))));
    const job = client.jobs.stream(REQ);
    let expected = 0;
    for await (const e of job) {
      if (e.kind !== 'BLOCK') continue;
      assert.equal(e.block.content, `${expected},`);
      expected++;
      if (expected % 500 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal(expected, 3000);
    const answer = await job.done;
    assert.equal(String(answer.groups[0]?.blocks[0]?.content).split(',').length - 1, 3000);
  });
});
