/**
 * The local service's v2 API end to end, at the wire level, on a real service (DuckDB store, local
 * engine): snake_case bodies and the v2 page envelope, one state shared with v1, data sources from
 * an uploaded file, the dataset overview made from the data, sessions, non-stream and streamed
 * jobs in v2 spelling, deletes with a JSON body, and presigned download links.
 */
import { strict as assert } from 'node:assert';
import { createParser } from 'eventsource-parser';
import { AnswerBuilder, answerBlocks, answerFromResult } from '../../src/shared/answerFold';
import { v2Codec } from '../../src/shared/codecV2';
import type { Block } from '../../src/shared/domain';
import { startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';
import { SALES, uploadV2, waitSynched } from '../helpers/v2Wire';

type Rec = Record<string, unknown>;
const data = (r: { json?: { data: unknown } | undefined }): Rec => r.json?.data as Rec;

async function streamV2(h: Harness, body: Rec): Promise<{ raw: string; events: Array<{ id?: string | undefined; event?: string | undefined; data: string }> }> {
  const res = await fetch(`${h.baseUrl}/v2/team/jobs`, {
    method: 'POST', headers: { 'x-pd-api-key': TEST_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ ...body, stream: true }),
  });
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const raw = await res.text();
  const events: Array<{ id?: string | undefined; event?: string | undefined; data: string }> = [];
  const parser = createParser({ onEvent: (e) => events.push({ id: e.id, event: e.event, data: e.data }) });
  parser.feed(raw);
  return { raw, events };
}

/** Blocks with file links reduced to their names: two runs of one question publish two files. */
function withoutLinks(blocks: Block[]): unknown[] {
  return blocks.map((b) => (b.type === 'TABLE' || b.type === 'IMAGE' ? { ...b, content: { name: b.content.name } } : b));
}

describe('local service: v2 API over HTTP', function () {
  this.timeout(60_000);
  let h: Harness;
  let datasetId: string;
  let sourceId: string;
  let fileKey: string;

  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.stop();
  });

  it('shares one state with v1: a dataset made through either version is listed through the other', async () => {
    const v1 = data(await h.call('POST', '/v1/team/datasets', { name: 'Made in v1', description: 'one' }))['id'] as string;
    const v2 = await h.call('POST', '/v2/team/datasets', { name: 'Made in v2', description: 'two', user_id: USER });
    assert.equal(v2.json?.code, 0, v2.text);
    const v2Id = data(v2)['id'] as string;
    const page = data(await h.call('GET', `/v2/team/datasets?user_id=${USER}`));
    assert.deepEqual(Object.keys(page).sort(), ['page_number', 'page_size', 'records', 'total_items']);
    assert.equal(page['total_items'], 2);
    assert.deepEqual((page['records'] as Rec[]).map((r) => r['id']), [v2Id, v1]);
    const v1Page = data(await h.call('GET', '/v1/team/datasets'));
    assert.deepEqual((v1Page['records'] as Rec[]).map((r) => r['name']), ['Made in v2', 'Made in v1']);
    const searched = data(await h.call('GET', `/v2/team/datasets?user_id=${USER}&search=${encodeURIComponent('IN V1')}&page_size=5`));
    assert.deepEqual((searched['records'] as Rec[]).map((r) => r['id']), [v1]);
    assert.equal(searched['page_size'], 5);
    // Modify through v2 (user_id in the body), read through v1.
    assert.equal((await h.call('POST', `/v2/team/datasets/${v1}`, { name: 'Renamed', user_id: USER })).json?.code, 0);
    assert.equal((data(await h.call('GET', '/v1/team/datasets?name=renamed'))['records'] as Rec[]).length, 1);
    // Delete through v2 with the caller in a JSON body; v1 no longer lists it.
    assert.equal((await h.call('DELETE', `/v2/team/datasets/${v1}`, { user_id: USER })).json?.code, 0);
    assert.deepEqual((data(await h.call('GET', '/v1/team/datasets'))['records'] as Rec[]).map((r) => r['id']), [v2Id]);
    datasetId = v2Id;
  });

  it('uploads a file (file + user_id), makes a data source from file_object_key and processes it', async () => {
    fileKey = await uploadV2(h, 'sales.csv', SALES);
    const r = await h.call('POST', `/v2/team/datasets/${datasetId}/datasources`, { name: 'sales.csv', type: 'FILE', file_object_key: fileKey, user_id: USER });
    assert.equal(r.json?.code, 0, r.text);
    const created = data(r);
    for (const k of ['id', 'dataset_id', 'name', 'type', 'status']) assert.ok(k in created, `${k} in ${r.text}`);
    assert.equal(created['dataset_id'], datasetId);
    assert.equal(created['name'], 'sales.csv');
    assert.equal(created['type'], 'FILE');
    assert.ok(!('datasetId' in created) && !('fileName' in created));
    sourceId = created['id'] as string;
    const ready = await waitSynched(h, datasetId, sourceId);
    assert.equal(ready['size'], Buffer.byteLength(SALES));
    const list = data(await h.call('GET', `/v2/team/datasets/${datasetId}/datasources?user_id=${USER}&status=synched,synching&page_number=1&page_size=10`));
    assert.equal(list['total_items'], 1);
    assert.equal(((list['records'] as Rec[])[0] as Rec)['id'], sourceId);
    assert.equal(data(await h.call('GET', `/v2/team/datasets/${datasetId}/datasources?user_id=${USER}&status=invalid`))['total_items'], 0);
    assert.deepEqual(data(await h.call('GET', `/v2/team/datasets/${datasetId}/status?user_id=${USER}`)), { synched_count: 1, synching_count: 0, invalid_count: 0 });
    // The same source through v1, in v1 spelling.
    const v1 = data(await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${sourceId}`));
    assert.equal(v1['datasetId'], datasetId);
    assert.equal(v1['fileName'], 'sales.csv');
  });

  it('answers the dataset overview with a summary, exploration questions and keywords made from the data', async () => {
    const o = data(await h.call('GET', `/v2/team/datasets/${datasetId}/overview?user_id=${USER}`));
    for (const k of ['id', 'name', 'description', 'summary', 'exploration_questions', 'keywords']) assert.ok(k in o, k);
    assert.equal(o['id'], datasetId);
    assert.match(o['summary'] as string, /sales\.csv, 48 rows and 3 columns: region, month, revenue/);
    const questions = o['exploration_questions'] as string[];
    assert.ok(questions.length >= 2, JSON.stringify(questions));
    assert.ok(questions.some((q) => /revenue/i.test(q)), JSON.stringify(questions));
    assert.deepEqual(o['keywords'], ['region', 'month', 'revenue']);
    // The local engine answers its own suggestions.
    const session = data(await h.call('POST', '/v2/team/sessions', { name: 'overview check', user_id: USER }))['id'] as string;
    const job = await h.call('POST', '/v2/team/jobs', { session_id: session, question: questions[0], dataset_id: datasetId, user_id: USER });
    assert.equal(job.json?.code, 0, job.text);
    const text = (data(job)['blocks'] as Rec[]).filter((b) => b['type'] === 'MESSAGE' && b['stage'] === 'Respond').map((b) => b['content']).join('');
    assert.doesNotMatch(text, /can't answer/i);
  });

  it('creates, reads, searches, modifies and deletes sessions in v2 spelling, shared with v1', async () => {
    const r = await h.call('POST', '/v2/team/sessions', {
      name: 'Quarterly review', output_language: 'FR', job_mode: 'DATA_ANALYSIS', max_contextual_job_history: 3, agent_id: 'DATA_ANALYSIS_AGENT', user_id: USER,
    });
    assert.equal(r.json?.code, 0, r.text);
    const id = data(r)['id'] as string;
    const got = data(await h.call('GET', `/v2/team/sessions/${id}?user_id=${USER}`));
    assert.deepEqual(got, {
      id, name: 'Quarterly review', output_language: 'FR', job_mode: 'DATA_ANALYTICS', max_contextual_job_history: 3, agent_id: 'DATA_ANALYSIS_AGENT', user_id: USER,
    });
    const found = data(await h.call('GET', `/v2/team/sessions?user_id=${USER}&search=quarterly`));
    assert.deepEqual((found['records'] as Rec[]).map((s) => s['id']), [id]);
    assert.equal((await h.call('POST', `/v2/team/sessions/${id}`, { name: 'Renamed review', max_contextual_job_history: 0, user_id: USER })).json?.code, 0);
    const v1 = data(await h.call('GET', `/v1/team/sessions/${id}?userId=${USER}`));
    assert.equal(v1['title'], 'Renamed review');
    assert.equal(v1['maxMessagesInContext'], 0);
    // Another user's delete does not reach it; the owner's does.
    assert.equal((await h.call('DELETE', `/v2/team/sessions/${id}`, { user_id: 'someone-else' })).json?.code, 300003);
    assert.equal((await h.call('DELETE', `/v2/team/sessions/${id}`, { user_id: USER })).json?.code, 0);
    assert.equal((await h.call('GET', `/v1/team/sessions/${id}`)).json?.code, 300003);
  });

  it('answers a job without streaming in v2 spelling, and its history reads the same', async () => {
    const session = data(await h.call('POST', '/v2/team/sessions', { name: 'jobs', user_id: USER }))['id'] as string;
    const r = await h.call('POST', '/v2/team/jobs', {
      session_id: session, question: 'Total revenue by region', dataset_id: datasetId, datasource_ids: [sourceId], output_language: 'AUTO', job_mode: 'AUTO',
      custom_options: { with_citation: false }, user_id: USER, stream: false,
    });
    assert.equal(r.json?.code, 0, r.text);
    const d = data(r);
    assert.deepEqual(Object.keys(d).sort(), ['blocks', 'job_id']);
    const blocks = d['blocks'] as Rec[];
    for (const b of blocks) {
      assert.deepEqual(Object.keys(b).sort(), ['content', 'group_id', 'group_name', 'stage', 'type'], JSON.stringify(b));
    }
    const table = blocks.find((b) => b['type'] === 'TABLE');
    assert.ok(table, 'a TABLE block');
    assert.deepEqual(Object.keys(table['content'] as Rec).sort(), ['expires_at', 'name', 'url']);
    const csv = await (await fetch((table['content'] as Rec)['url'] as string)).text();
    assert.match(csv, /north/);
    const history = data(await h.call('GET', `/v2/team/sessions/${session}/history?user_id=${USER}&page_size=100`));
    assert.equal(history['total_items'], 1);
    const rec = (history['records'] as Rec[])[0] as Rec;
    assert.equal(rec['job_id'], d['job_id']);
    assert.deepEqual(rec['question'], { blocks: [{ type: 'MESSAGE', content: 'Total revenue by region' }] });
    const answered = answerFromResult(v2Codec.decodeJobResult(d));
    // Folded, as clients read it: history's step markers (steps without blocks) add no block.
    const stored = answerBlocks(answerFromResult({ jobId: String(rec['job_id']), blocks: v2Codec.decodeHistoryRecord(rec).answer.blocks }));
    assert.deepEqual(withoutLinks(stored), withoutLinks(answerBlocks(answered)));
  });

  it('streams a job in v2 spelling that folds into the same answer as the non-stream response', async () => {
    const session = data(await h.call('POST', '/v2/team/sessions', { name: 'stream', user_id: USER }))['id'] as string;
    const question = 'Total revenue by region';
    const { raw, events } = await streamV2(h, { session_id: session, question, dataset_id: datasetId, user_id: USER });
    assert.ok(raw.endsWith('event:END_MARK\ndata:[DONE]\n\n'));
    assert.equal(events[0]?.event, 'JOB_ID');
    const framed = events.filter((e) => e.event !== 'JOB_ID' && e.event !== 'TITLE_GENERATION' && e.event !== 'END_MARK');
    assert.ok(framed.length > 3);
    for (const e of framed) {
      const o = JSON.parse(e.data) as Rec;
      assert.ok('group_id' in o && 'group_name' in o && 'stage' in o, e.data.slice(0, 200));
      assert.ok(!('groupId' in o) && !('groupName' in o), e.data.slice(0, 200));
    }
    const files = framed.filter((e) => e.event === 'TABLE' || e.event === 'IMAGE');
    assert.ok(files.length > 0, events.map((e) => e.event).join(' '));
    for (const f of files) assert.ok('expires_at' in ((JSON.parse(f.data) as { choices: Array<{ delta: { content: Rec } }> }).choices[0]?.delta.content ?? {}));
    const b = new AnswerBuilder();
    for (const e of events) b.push(v2Codec.decodeEvent(e.event ?? 'message', e.data));
    const streamed = b.snapshot();
    assert.equal(streamed.state, 'done');
    const plain = await h.call('POST', '/v2/team/jobs', { session_id: session, question, dataset_id: datasetId, user_id: USER });
    const once = answerFromResult(v2Codec.decodeJobResult(data(plain)));
    assert.deepEqual(withoutLinks(answerBlocks(streamed)), withoutLinks(answerBlocks(once)));
  });

  it('presigns a download of the data source (expires_in, presigned_url, expires_at) that returns the uploaded bytes', async () => {
    const r = await h.call('POST', `/v2/team/datasets/${datasetId}/datasources/${sourceId}/presign`, { expires_in: 120, user_id: USER });
    assert.equal(r.json?.code, 0, r.text);
    const p = data(r);
    assert.deepEqual(Object.keys(p).sort(), ['expires_at', 'presigned_url']);
    const left = Date.parse(p['expires_at'] as string) - Date.now();
    assert.ok(left > 60_000 && left <= 120_000, `expires in ${left} ms`);
    assert.equal(await (await fetch(p['presigned_url'] as string)).text(), SALES);
    const tooShort = await h.call('POST', `/v2/team/datasets/${datasetId}/datasources/${sourceId}/presign`, { expires_in: 10, user_id: USER });
    assert.equal(tooShort.status, 400);
    assert.equal(tooShort.json?.code, 300001);
    assert.match(tooShort.json?.msg ?? '', /expires_in/);
  });

  it('names v2 fields in its refusals (300001, HTTP 400)', async () => {
    const cases: Array<[string, string, Rec, RegExp]> = [
      ['POST', '/v2/team/datasets', { description: 'x', user_id: USER }, /^name: required/],
      ['POST', `/v2/team/datasets/${datasetId}/datasources`, { name: 'a.csv', type: 'FILE', user_id: USER }, /url, file_object_key/],
      ['POST', '/v2/team/sessions', { name: 's', max_contextual_job_history: 11, user_id: USER }, /max_contextual_job_history/],
      ['POST', '/v2/team/jobs', { question: 'q', user_id: USER }, /session_id: required/],
      ['POST', '/v2/team/jobs', { session_id: 'x', question: 'q', datasource_ids: 'ds', user_id: USER }, /datasource_ids/],
      ['POST', '/v2/team/jobs', { session_id: 'x', question: 'q', custom_options: { with_citation: 'no' }, user_id: USER }, /with_citation/],
    ];
    for (const [method, path, body, msg] of cases) {
      const r = await h.call(method, path, body);
      // v2 has no code 100: invalid parameters are 300001 with HTTP 400.
      assert.equal(r.status, 400, `${path} ${r.text}`);
      assert.equal(r.json?.code, 300001, `${path} ${r.text}`);
      assert.match(r.json?.msg ?? '', msg);
    }
    const list = await h.call('GET', `/v2/team/datasets?user_id=${USER}&page_size=0`);
    assert.match(list.json?.msg ?? '', /page_size/);
  });

  it('deletes a data source with a JSON body and the dataset empties for both versions', async () => {
    assert.equal((await h.call('DELETE', `/v2/team/datasets/${datasetId}/datasources/${sourceId}`, { user_id: USER })).json?.code, 0);
    assert.equal(data(await h.call('GET', `/v1/team/datasets/${datasetId}/datasources`))['total'], 0);
    const o = data(await h.call('GET', `/v2/team/datasets/${datasetId}/overview?user_id=${USER}`));
    assert.equal(o['summary'], 'This dataset has no data sources yet.');
    assert.deepEqual(o['exploration_questions'], []);
  });
});
