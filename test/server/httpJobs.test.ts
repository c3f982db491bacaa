/**
 * Jobs over HTTP on real data (DuckDB store + profile engine): the SSE wire format and event order,
 * stream/non-stream/history parity, titles, history paging and context, file links and their
 * expiry, disconnects, keep-alives and engine failures.
 */
import { strict as assert } from 'node:assert';
import { AnswerBuilder, answerBlocks, answerFromResult } from '../../src/shared/answerFold';
import { decodeBlocks, decodeEvent } from '../../src/shared/blockCodecV1';
import type { Answer, Block } from '../../src/shared/domain';
import type { AnalysisEngine } from '../../src/server/engine';
import { eventually, newSession, seedDataset, startHarness, streamJob, USER, type Harness, type SseCapture } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;

/** 40 deterministic rows: known count, sum and distinct values to check answers against. */
const ORDERS = `order_id,region,amount,shipped\n${Array.from({ length: 40 }, (_, i) => `${i + 1},${['north', 'south', 'east', 'west'][i % 4] as string},${(i + 1) * 5},${i % 3 === 0 ? 'true' : 'false'}`).join('\n')}\n`;

function fold(capture: SseCapture): { blocks: Block[]; state: string; jobId: string; title?: string; error?: string } {
  const b = new AnswerBuilder();
  for (const e of capture.events) b.push(decodeEvent(e.event ?? 'message', e.data));
  const a = b.snapshot();
  const out: { blocks: Block[]; state: string; jobId: string; title?: string; error?: string } = { blocks: answerBlocks(a), state: a.state, jobId: a.jobId };
  if (a.title !== undefined) out.title = a.title;
  if (a.error !== undefined) out.error = a.error.message;
  return out;
}

/** Blocks with file links reduced to their path (same file) or dropped entirely (any file). */
function normalise(blocks: Block[], keepPath: boolean): unknown[] {
  return blocks.map((b) => {
    if (b.type !== 'TABLE' && b.type !== 'IMAGE') return b;
    return { ...b, content: { name: b.content.name, url: keepPath ? new URL(b.content.url).pathname : '' } };
  });
}

async function historyOf(h: Harness, sessionId: string, query = ''): Promise<Rec> {
  const r = await h.call('GET', `/v1/team/sessions/${sessionId}/history?userId=${USER}${query}`);
  assert.equal(r.json?.code, 0, r.text);
  return r.json?.data as Rec;
}

describe('local service: jobs over HTTP', function () {
  this.timeout(60_000);
  let h: Harness;
  let datasetId: string;
  let sourceIds: string[];

  before(async () => {
    h = await startHarness();
    ({ datasetId, sourceIds } = await seedDataset(h, { 'orders.csv': ORDERS }));
  });
  after(async () => {
    await h.stop();
  });

  it('streams the exact wire format in the contract order', async () => {
    const sessionId = await newSession(h);
    const cap = await streamJob(h.baseUrl, { sessionId, question: 'Give me an overview of this data', datasetId, datasourceIdList: sourceIds });
    assert.equal(cap.status, 200);
    assert.match(cap.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.ok(cap.headers.get('x-pd-trace-id'));
    assert.equal(cap.headers.get('access-control-allow-origin'), null);
    // Frames: lines of id:/event:/data: with no space after the colon, separated by one blank line.
    const frames = cap.raw.split('\n\n').filter((f) => f !== '');
    for (const f of frames) {
      for (const line of f.split('\n')) assert.match(line, /^(?:(?:id|event|data):(?! )|:keep-alive$)/, `line ${JSON.stringify(line.slice(0, 80))}`);
    }
    assert.ok(cap.raw.endsWith('event:END_MARK\ndata:[DONE]\n\n'));
    const kinds = cap.events.map((e) => e.event);
    assert.equal(kinds[0], 'JOB_ID');
    assert.equal(kinds[1], 'TITLE_GENERATION');
    assert.equal(kinds[2], 'TASK');
    assert.equal(kinds[kinds.length - 1], 'END_MARK');
    assert.equal(kinds.filter((k) => k === 'END_MARK').length, 1);
    // Analyze-stage events all come before Respond-stage events.
    const stages = cap.events.slice(2, -1).map((e) => (JSON.parse(e.data) as { stage: string }).stage);
    assert.ok(stages.includes('Analyze') && stages.includes('Respond'));
    assert.equal(stages.indexOf('Respond') > stages.lastIndexOf('Analyze'), true, stages.join(','));
    // Every Analyze step runs then finishes; every task ends done.
    const tasks = new Map<string, { stage: string; statuses: string[] }>();
    for (const e of cap.events.filter((x) => x.event === 'TASK')) {
      const c = (JSON.parse(e.data) as { choices: Array<{ delta: { content: { id: string; status: string; stage: string } } }> }).choices[0]?.delta.content;
      if (c) tasks.set(c.id, { stage: c.stage, statuses: [...(tasks.get(c.id)?.statuses ?? []), c.status] });
    }
    assert.ok([...tasks.values()].some((t) => t.stage === 'Analyze'));
    for (const [id, t] of tasks) {
      assert.equal(t.statuses[t.statuses.length - 1], 'done', id);
      if (t.stage === 'Analyze') assert.equal(t.statuses[0], 'running', id);
    }
    const a = fold(cap);
    assert.equal(a.state, 'done');
    assert.equal(a.jobId, cap.events[0]?.data);
    const types = new Set(a.blocks.map((b) => b.type));
    for (const t of ['CODE', 'TABLE', 'MESSAGE', 'SOURCES', 'QUESTIONS'] as const) assert.ok(types.has(t), `answer has ${t}`);
    const sources = a.blocks.find((b) => b.type === 'SOURCES');
    assert.ok(sources?.type === 'SOURCES' && sources.content.some((s) => s.datasourceId === sourceIds[0] && s.datasetId === datasetId));
  });

  it('gives the same blocks streamed, non-streamed and in history', async () => {
    const s1 = await newSession(h);
    const s2 = await newSession(h);
    const body = { question: 'Summarise the orders', datasetId, datasourceIdList: sourceIds };
    const streamed = fold(await streamJob(h.baseUrl, { sessionId: s1, ...body }));
    const plain = await h.call('POST', '/v1/team/jobs', { sessionId: s2, ...body, stream: false });
    assert.equal(plain.json?.code, 0, plain.text);
    assert.equal(plain.json?.msg, null);
    const data = plain.json?.data as Rec;
    const plainBlocks = decodeBlocks(data['blocks']);
    assert.deepEqual(normalise(plainBlocks, false), normalise(streamed.blocks, false));
    // History holds the same blocks, with fresh links to the same files.
    for (const [sid, jobId, blocks] of [[s1, streamed.jobId, streamed.blocks], [s2, data['jobId'], plainBlocks]] as const) {
      const hist = await eventually(async () => {
        const page = await historyOf(h, sid);
        return (page['records'] as Rec[]).length > 0 ? page : undefined;
      }, 'history record');
      const rec = (hist['records'] as Rec[])[0] as Rec;
      assert.equal(rec['jobId'], jobId);
      assert.deepEqual(rec['question'], { blocks: [{ type: 'MESSAGE', content: body.question }] });
      const histBlocks = decodeBlocks((rec['answer'] as Rec)['blocks']);
      assert.deepEqual(normalise(histBlocks, true), normalise(blocks as Block[], true));
    }
  });

  it('keeps every step in history, also the steps without blocks ("Read the question as: …")', async () => {
    // Defect (issue 24): after a reload "3 steps" became "1 step"; the reading of the question was gone.
    const sid = await newSession(h);
    const cap = await streamJob(h.baseUrl, { sessionId: sid, question: 'total amount by region', datasetId, datasourceIdList: sourceIds });
    const b = new AnswerBuilder();
    for (const e of cap.events) b.push(decodeEvent(e.event ?? 'message', e.data));
    const live = b.snapshot();
    const steps = (a: Answer): string[] => a.groups.filter((g) => g.stage === 'Analyze').map((g) => g.name);
    assert.ok(steps(live).some((n) => n.startsWith('Read the question as:')), JSON.stringify(steps(live)));
    const rec = ((await historyOf(h, sid))['records'] as Rec[])[0] as Rec;
    const restored = answerFromResult({ jobId: String(rec['jobId']), blocks: decodeBlocks((rec['answer'] as Rec)['blocks']) });
    assert.deepEqual(steps(restored), steps(live));
    // The same blocks as streamed: a step marker adds a step, never an (empty) block.
    assert.deepEqual(normalise(answerBlocks(restored), true), normalise(answerBlocks(live), true));
  });

  it('lists a streamed job in history the moment its stream ends, and keeps it across a restart', async () => {
    const sid = await newSession(h);
    const streamed = fold(await streamJob(h.baseUrl, { sessionId: sid, question: 'Summarise the orders', datasetId, datasourceIdList: sourceIds }));
    assert.equal(streamed.state, 'done');
    // No waiting: the stream ends only once the job is in history.
    const records = (await historyOf(h, sid))['records'] as Rec[];
    assert.deepEqual(records.map((r) => r['jobId']), [streamed.jobId]);
    await h.restart();
    const after = (await historyOf(h, sid))['records'] as Rec[];
    assert.deepEqual(after.map((r) => r['jobId']), [streamed.jobId]);
  });

  it('serves TABLE files with the right type and a safe name', async () => {
    const sessionId = await newSession(h);
    const a = fold(await streamJob(h.baseUrl, { sessionId, question: 'Profile it', datasetId }));
    const table = a.blocks.find((b) => b.type === 'TABLE');
    assert.ok(table?.type === 'TABLE');
    assert.ok(Date.parse(table.content.expiredAt ?? '') > Date.now());
    const res = await fetch(table.content.url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="[^"/\\]+\.csv"/);
    assert.ok(res.headers.get('x-pd-trace-id'));
    const csv = await res.text();
    assert.ok(csv.split('\n').length > 1);
    // A tampered token or id is refused.
    const u = new URL(table.content.url);
    u.searchParams.set('token', `${u.searchParams.get('token') ?? ''}x`);
    assert.equal((await fetch(u)).status, 403);
  });

  it('titles a session from its first question only, keeping explicit titles', async () => {
    const auto = await newSession(h);
    const first = await streamJob(h.baseUrl, { sessionId: auto, question: 'Which   region sells the most?', datasetId });
    assert.equal(first.events[1]?.event, 'TITLE_GENERATION');
    assert.equal(first.events[1]?.data, 'Which region sells the most?');
    const s = (await h.call('GET', `/v1/team/sessions/${auto}`)).json?.data as Rec;
    assert.equal(s['title'], 'Which region sells the most?');
    const second = await streamJob(h.baseUrl, { sessionId: auto, question: 'And the least?', datasetId });
    assert.ok(!second.events.some((e) => e.event === 'TITLE_GENERATION'));
    const named = await newSession(h, { title: 'My analysis' });
    const kept = await streamJob(h.baseUrl, { sessionId: named, question: 'Anything odd?', datasetId });
    assert.equal(kept.events[1]?.event, 'TITLE_GENERATION');
    assert.equal(kept.events[1]?.data, 'My analysis');
    assert.equal(((await h.call('GET', `/v1/team/sessions/${named}`)).json?.data as Rec)['title'], 'My analysis');
    // History: newest first, paged.
    const page = await historyOf(h, auto, '&pageSize=1');
    assert.equal(page['total'], 2);
    assert.equal(((page['records'] as Rec[])[0]?.['question'] as Rec)['blocks'] instanceof Array, true);
    assert.deepEqual((((page['records'] as Rec[])[0] as Rec)['question'] as Rec)['blocks'], [{ type: 'MESSAGE', content: 'And the least?' }]);
    const p2 = await historyOf(h, auto, '&pageSize=1&pageNumber=2');
    assert.deepEqual((((p2['records'] as Rec[])[0] as Rec)['question'] as Rec)['blocks'], [{ type: 'MESSAGE', content: 'Which   region sells the most?' }]);
  });

  it('refuses sources that are not synched (210023, HTTP 400)', async () => {
    const bad = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: 'gone.csv', type: 'FILE', url: 'http://127.0.0.1:1/gone.csv' });
    const id = (bad.json?.data as Rec)['id'] as string;
    await eventually(async () => (((await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${id}`)).json?.data as Rec)['error'] ? true : undefined), 'failed source');
    const sessionId = await newSession(h);
    const r = await h.call('POST', '/v1/team/jobs', { sessionId, question: 'q', datasetId, datasourceIdList: [id], stream: true });
    assert.equal(r.status, 400);
    assert.equal(r.json?.code, 210023);
    assert.match(r.json?.msg ?? '', /gone\.csv/);
    // Without a list, the dataset's synched sources are used and the failed one is skipped.
    const ok = await h.call('POST', '/v1/team/jobs', { sessionId, question: 'q', datasetId, stream: false });
    assert.equal(ok.json?.code, 0, ok.text);
  });
});

describe('local service: jobs under faults', function () {
  this.timeout(60_000);

  const delayed = (ms: number) => (inner: AnalysisEngine): AnalysisEngine => ({
    async answer(ctx) {
      await new Promise((r) => setTimeout(r, ms));
      await inner.answer(ctx);
    },
  });

  it('cancels a job whose client went away: its work stops and history records it as cancelled with what it produced', async () => {
    // Defect: "Cancelled" in the panel, yet the job ran on and history later showed it done.
    let stopped = false;
    const slow = (): AnalysisEngine => ({
      async answer(ctx) {
        ctx.emit({ kind: 'BLOCK', block: { type: 'MESSAGE', content: 'Partial finding', groupId: 'g1', groupName: 'Respond', stage: 'Respond' } });
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 20_000);
          ctx.signal.addEventListener('abort', () => {
            stopped = true;
            clearTimeout(t);
            resolve();
          }, { once: true });
        });
        ctx.signal.throwIfAborted();
        ctx.emit({ kind: 'BLOCK', block: { type: 'MESSAGE', content: 'Finished anyway', groupId: 'g1', groupName: 'Respond', stage: 'Respond' } });
      },
    });
    const h = await startHarness({ wrapEngine: slow });
    try {
      const { datasetId } = await seedDataset(h, { 'orders.csv': ORDERS });
      const sessionId = await newSession(h);
      // JOB_ID, TITLE_GENERATION and the partial MESSAGE, then the client goes away.
      const cut = await streamJob(h.baseUrl, { sessionId, question: 'Overview please', datasetId }, 3);
      assert.equal(cut.events[0]?.event, 'JOB_ID');
      assert.ok(!cut.raw.includes('END_MARK'));
      const jobId = cut.events[0]?.data;
      const page = await eventually(async () => {
        const p = await historyOf(h, sessionId);
        return (p['records'] as Rec[]).length > 0 ? p : undefined;
      }, 'the cancelled job in history');
      assert.equal(stopped, true, 'the engine saw the cancellation');
      const rec = (page['records'] as Rec[])[0] as Rec;
      assert.equal(rec['jobId'], jobId);
      assert.equal((rec['answer'] as Rec)['status'], 'CANCELLED');
      const blocks = decodeBlocks((rec['answer'] as Rec)['blocks']);
      assert.deepEqual(blocks.map((b) => b.content), ['Partial finding']);
    } finally {
      await h.stop();
    }
  });

  it('sends :keep-alive comments while a step runs, invisible to SSE parsers', async () => {
    const h = await startHarness({ wrapEngine: delayed(600), keepAliveMs: 25 });
    try {
      const { datasetId } = await seedDataset(h, { 'orders.csv': ORDERS });
      const cap = await streamJob(h.baseUrl, { sessionId: await newSession(h), question: 'Overview', datasetId });
      assert.match(cap.raw, /\n:keep-alive\n/);
      assert.ok(cap.events.every((e) => e.event !== undefined));
      assert.equal(fold(cap).state, 'done');
    } finally {
      await h.stop();
    }
  });

  it('reports an engine failure as ERROR + [ERROR] (stream) or 210020 (non-stream), details only in the log', async () => {
    const failing = (): AnalysisEngine => ({
      async answer(ctx) {
        ctx.emit({ kind: 'TASK', place: { groupId: 'g1', groupName: 'Reading', stage: 'Analyze' }, task: { id: 'g1', name: 'Reading', status: 'running', stage: 'Analyze' } });
        throw new Error('boom-internal-detail');
      },
    });
    const h = await startHarness({ wrapEngine: failing });
    try {
      const sessionId = await newSession(h);
      const cap = await streamJob(h.baseUrl, { sessionId, question: 'Will this work?' });
      const kinds = cap.events.map((e) => e.event);
      assert.deepEqual(kinds, ['JOB_ID', 'TITLE_GENERATION', 'TASK', 'ERROR', 'END_MARK']);
      assert.equal(cap.events[4]?.data, '[ERROR]');
      assert.ok(!cap.raw.includes('boom-internal-detail'));
      const a = fold(cap);
      assert.equal(a.state, 'error');
      const plain = await h.call('POST', '/v1/team/jobs', { sessionId, question: 'Again?', stream: false });
      assert.equal(plain.status, 400);
      assert.equal(plain.json?.code, 210020);
      assert.ok(!plain.text.includes('boom-internal-detail'));
      assert.ok(h.logs.some((l) => l.includes('boom-internal-detail')));
    } finally {
      await h.stop();
    }
  });

  it('passes at most maxMessagesInContext earlier turns to the engine', async () => {
    const seen: number[] = [];
    const recording = (inner: AnalysisEngine): AnalysisEngine => ({
      async answer(ctx) {
        seen.push(ctx.history.length);
        if (ctx.history.length > 0) assert.equal(typeof ctx.history[0]?.question, 'string');
        await inner.answer(ctx);
      },
    });
    const h = await startHarness({ wrapEngine: recording });
    try {
      const { datasetId } = await seedDataset(h, { 'orders.csv': ORDERS });
      const two = await newSession(h, { maxMessagesInContext: 2 });
      for (let i = 0; i < 4; i++) await h.call('POST', '/v1/team/jobs', { sessionId: two, question: `q${i}`, datasetId, stream: false });
      const none = await newSession(h, { maxMessagesInContext: 0 });
      for (let i = 0; i < 2; i++) await h.call('POST', '/v1/team/jobs', { sessionId: none, question: `q${i}`, datasetId, stream: false });
      assert.deepEqual(seen, [0, 1, 2, 2, 0, 0]);
    } finally {
      await h.stop();
    }
  });

  it('expires file links at expiredAt, while history mints fresh ones', async () => {
    const h = await startHarness({ fileUrlTtlMs: 1500 });
    try {
      const { datasetId } = await seedDataset(h, { 'orders.csv': ORDERS });
      const sessionId = await newSession(h);
      const a = fold(await streamJob(h.baseUrl, { sessionId, question: 'Overview', datasetId }));
      const table = a.blocks.find((b) => b.type === 'TABLE');
      assert.ok(table?.type === 'TABLE' && table.content.expiredAt);
      const wait = Date.parse(table.content.expiredAt) - Date.now() + 50;
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const expired = await fetch(table.content.url);
      assert.equal(expired.status, 403);
      const env = (await expired.json()) as { code: number; msg: string };
      assert.equal(env.code, 300002);
      assert.match(env.msg, /expired/);
      const rec = ((await historyOf(h, sessionId))['records'] as Rec[])[0] as Rec;
      const fresh = decodeBlocks((rec['answer'] as Rec)['blocks']).find((b) => b.type === 'TABLE');
      assert.ok(fresh?.type === 'TABLE');
      assert.equal(new URL(fresh.content.url).pathname, new URL(table.content.url).pathname);
      assert.ok(Date.parse(fresh.content.expiredAt ?? '') > Date.now());
      assert.equal((await fetch(fresh.content.url)).status, 200);
    } finally {
      await h.stop();
    }
  });
});
