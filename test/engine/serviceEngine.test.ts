/**
 * The engine inside the real local service, driven over HTTP + SSE by the real client: event order
 * of a streamed answer, stream/non-stream equivalence, files behind the links, follow-ups through
 * the session's history, document retrieval (markdown and PDF), job modes, and suggested questions
 * that the engine itself can answer.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient } from '../../src/api/index';
import { answerBlocks } from '../../src/shared/answerFold';
import type { Answer, Block, JobEvent, JobMode } from '../../src/shared/domain';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { LocalAnalysisEngine } from '../../src/server/engine/localEngine';
import { startLocalService, type LocalService } from '../../src/server/localService';
import { makeSales, salesCsv } from './datasets';
import { makePdf } from './documents';
import { groupBy } from './expect';

const GUIDE = `# Onboarding guide

## Equipment
New hires receive a laptop and a badge on their first day.

## Refunds
Customers can ask for a refund within 30 days of delivery. Refunds are paid back to the original payment method within 5 business days.

## Travel
Book travel through the portal; economy class for flights under six hours.
`;

describe('engine in the local service (HTTP + SSE, real client)', function () {
  this.timeout(120_000);
  let dir: string;
  let store: DuckDbStore;
  let svc: LocalService;
  let client: TeamDataClient;
  let datasetId: string;
  const ids: Record<string, string> = {};
  const sales = makeSales(400);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-svc-engine-'));
    store = await DuckDbStore.open(join(dir, 'data'));
    svc = await startLocalService({ dataDir: join(dir, 'data'), apiKey: 'engine-test-key-123', store, engine: new LocalAnalysisEngine(store, { llm: null }) });
    client = new TeamDataClient({ baseUrl: svc.baseUrl, apiKey: svc.apiKey, userId: 'u1' });
    datasetId = (await client.datasets.create({ name: 'engine', description: 'engine test' })).id;
    const files: Record<string, string | Buffer> = {
      'sales.csv': salesCsv(sales), 'guide.md': GUIDE,
      'policy.pdf': makePdf([['Expense policy'], ['Meals are reimbursed up to 40 euros per day when travelling.']]),
    };
    for (const [name, contents] of Object.entries(files)) {
      const path = join(dir, name);
      await writeFile(path, contents);
      const { fileKey } = await client.files.upload(path);
      const ds = await client.dataSources.create(datasetId, { fileName: name, fileKey });
      const done = await client.dataSources.waitUntilSynched(datasetId, ds.id, { intervalMs: 100 });
      assert.equal(done.status, 'synched', `${name} should be synched (${done.error ?? ''})`);
      ids[name] = ds.id;
    }
  });
  after(async () => {
    await svc?.close();
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function session(jobMode: JobMode = 'AUTO'): Promise<string> {
    return (await client.sessions.create({ title: 'engine', jobMode })).id;
  }

  async function streamed(sessionId: string, question: string, files: string[]): Promise<{ events: JobEvent[]; answer: Answer }> {
    const stream = client.jobs.stream({ sessionId, question, datasetId, datasourceIdList: files.map((f) => ids[f] ?? '') });
    const events: JobEvent[] = [];
    for await (const e of stream) events.push(e);
    return { events, answer: await stream.done };
  }

  const text = (blocks: Block[]): string => blocks.filter((b) => b.type === 'MESSAGE').map((b) => b.content).join('');
  async function csvOf(blocks: Block[]): Promise<string> {
    const t = blocks.find((b) => b.type === 'TABLE');
    assert.ok(t && t.type === 'TABLE', 'a TABLE block');
    const res = await fetch(t.content.url);
    assert.equal(res.status, 200);
    return res.text();
  }

  it('streams Analyze steps with CODE, then the Respond group: MESSAGE fragments, the result TABLE and IMAGE, QUESTIONS and SOURCES', async () => {
    const { events, answer } = await streamed(await session(), 'Total revenue by region', ['sales.csv']);
    const kinds = events.map((e) => (e.kind === 'BLOCK' ? e.block.type : e.kind === 'TASK' ? `TASK:${e.task.stage}:${e.task.status}` : e.kind));
    const first = (k: string): number => kinds.indexOf(k);
    assert.equal(kinds[0], 'JOB_ID');
    assert.ok(first('TASK:Analyze:running') < first('CODE') && first('CODE') < first('TASK:Respond:running'));
    assert.ok(first('TASK:Respond:running') < first('MESSAGE') && first('MESSAGE') < first('TABLE') && first('TABLE') < first('IMAGE'));
    assert.ok(first('IMAGE') < first('QUESTIONS') && first('QUESTIONS') < first('SOURCES'));
    assert.ok(kinds.filter((k) => k === 'MESSAGE').length >= 2, 'the message arrives in several fragments');
    assert.equal(answer.state, 'done');
    const blocks = answerBlocks(answer);
    // The result is main content: panels collapse the Analyze steps once the answer is done.
    assert.ok(blocks.filter((b) => b.type === 'TABLE' || b.type === 'IMAGE').every((b) => b.stage === 'Respond'));
    const csv = await csvOf(blocks);
    const expected = groupBy(sales, (x) => x.region, (x) => x.revenue, 'sum');
    const rows = csv.trim().split(/\r?\n/).slice(1).map((l) => l.split(','));
    assert.equal(rows.length, Object.keys(expected).length);
    for (const [k, v] of rows) assert.ok(Math.abs(Number(v) - (expected[k ?? ''] ?? NaN)) < 1e-6, `region ${k}`);
    const img = blocks.find((b) => b.type === 'IMAGE');
    assert.ok(img && img.type === 'IMAGE');
    const svgRes = await fetch(img.content.url);
    assert.match(svgRes.headers.get('content-type') ?? '', /image\/svg\+xml/);
    assert.match(await svgRes.text(), /^<svg[\s\S]*<\/svg>$/);
    const src = blocks.find((b) => b.type === 'SOURCES');
    assert.ok(src && src.type === 'SOURCES' && src.content[0]?.source === 'sales.csv' && src.content[0].fileType === 'csv');
  });

  it('gives the same blocks streamed and non-streamed', async () => {
    const q = 'average revenue by channel';
    const s = await streamed(await session(), q, ['sales.csv']);
    const n = await client.jobs.run({ sessionId: await session(), question: q, datasetId, datasourceIdList: [ids['sales.csv'] ?? ''] });
    const shape = (bs: Block[]): string[] => bs.map((b) => `${b.type}:${b.groupId}:${b.type === 'MESSAGE' || b.type === 'CODE' ? b.content : b.type === 'QUESTIONS' ? b.content.join('|') : ''}`);
    assert.deepEqual(shape(answerBlocks(n)), shape(answerBlocks(s.answer)));
  });

  it('answers follow-ups from the session history', async () => {
    const sid = await session();
    await streamed(sid, 'Total revenue by region', ['sales.csv']);
    const { answer } = await streamed(sid, 'now only for 2024', ['sales.csv']);
    const csv = await csvOf(answerBlocks(answer));
    const expected = groupBy(sales.filter((x) => x.order_date.startsWith('2024')), (x) => x.region, (x) => x.revenue, 'sum');
    for (const line of csv.trim().split(/\r?\n/).slice(1)) {
      const [k, v] = line.split(',');
      assert.ok(Math.abs(Number(v) - (expected[k ?? ''] ?? NaN)) < 1e-6, `2024 revenue of ${k}`);
    }
    const third = await streamed(sid, 'and by channel?', ['sales.csv']);
    assert.match((await csvOf(answerBlocks(third.answer))).split(/\r?\n/)[0] ?? '', /^region,channel,total_revenue$/);
  });

  it('every suggested follow-up question is one the engine answers', async () => {
    const sid = await session();
    const first = await streamed(sid, 'Total revenue by region', ['sales.csv']);
    const q = answerBlocks(first.answer).find((b) => b.type === 'QUESTIONS');
    assert.ok(q && q.type === 'QUESTIONS' && q.content.length === 3);
    for (const question of q.content) {
      const r = await streamed(sid, question, ['sales.csv']);
      assert.doesNotMatch(text(answerBlocks(r.answer)), /can't answer/, question);
      assert.ok(answerBlocks(r.answer).some((b) => b.type === 'TABLE'), `${question} has a table`);
    }
  });

  it('retrieves quoted passages from markdown and PDF documents in AUTO mode', async () => {
    const sid = await session();
    const md = await streamed(sid, 'what does the onboarding guide say about refunds?', ['guide.md', 'policy.pdf']);
    const blocks = answerBlocks(md.answer);
    assert.match(text(blocks), /guide\.md/);
    assert.match(text(blocks), /> Customers can ask for a refund within 30 days/);
    const src = blocks.find((b) => b.type === 'SOURCES');
    assert.ok(src && src.type === 'SOURCES' && src.content[0]?.source === 'guide.md');
    const pdf = await streamed(sid, 'how much are meals reimbursed?', ['guide.md', 'policy.pdf']);
    const pb = answerBlocks(pdf.answer);
    assert.match(text(pb), /policy\.pdf, page 2/);
    const ps = pb.find((b) => b.type === 'SOURCES');
    assert.ok(ps && ps.type === 'SOURCES' && ps.content[0]?.pageNo === 2);
    const none = await streamed(sid, 'what is the parental leave policy for astronauts?', ['guide.md']);
    assert.match(text(answerBlocks(none.answer)), /found nothing/);
  });

  it('picks retrieval or analysis in AUTO mode with both kinds selected; DATA_ANALYTICS refuses documents only', async () => {
    const sid = await session();
    const both = ['sales.csv', 'guide.md'];
    const a = await streamed(sid, 'total revenue in 2024', both);
    assert.ok(answerBlocks(a.answer).some((b) => b.type === 'TABLE'));
    const r = await streamed(sid, 'what does the guide say about travel?', both);
    assert.match(text(answerBlocks(r.answer)), /> Book travel through the portal/);
    const analytics = await session('DATA_ANALYTICS');
    const d = await streamed(analytics, 'what does the guide say about travel?', ['guide.md']);
    assert.match(text(answerBlocks(d.answer)), /Data analysis needs a table/);
  });

  it('says plainly when a question cannot be answered, listing the columns', async () => {
    const { answer } = await streamed(await session(), 'average profit by salesperson', ['sales.csv']);
    const blocks = answerBlocks(answer);
    assert.match(text(blocks), /I can't answer that from sales\.csv/);
    assert.match(text(blocks), /`revenue` \(number\)/);
    assert.ok(!blocks.some((b) => b.type === 'TABLE'));
    assert.ok(blocks.some((b) => b.type === 'QUESTIONS'));
  });
});
