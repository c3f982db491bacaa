/**
 * The requests the official web client (powerdrillai/powerdrill-flow, the Next.js app: lib/api/
 * serverApiClient.ts, services/powerdrill/*.service.ts, hooks/useMultipartUpload.ts,
 * hooks/usePowerdrillChat.ts and the components that call them) makes, in the order a user's
 * session makes them, replayed against the real local service; every answer is checked for each
 * field the web client reads, with the type it expects. Not a copy of its code: its request
 * sequence, written with fetch.
 *
 * How it talks: its server side (Next.js actions, in Node) calls `${API_BASE_URL}` (`.../v2/team`)
 * with `Content-Type: application/json` and `x-pd-api-key`; GETs get `user_id` set in the query
 * (after any query it built, sometimes an empty one: `/datasources?`), POST and DELETE bodies get
 * `user_id` added; an answer counts when HTTP is ok and `code === 0`, then `data` is read. Its
 * browser side PUTs upload parts straight to `upload_url` (fixed 5 MB slices, part i to part
 * number i, ETag read from the response with quotes removed) and fetches TABLE and IMAGE `url`s
 * itself (a CSV parsed with a header row; an image read as a blob), so those two answer
 * cross-origin.
 */
import { strict as assert } from 'node:assert';
import { createParser } from 'eventsource-parser';
import { rawRequest, startHarness, TEST_KEY, type Harness } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;
const USER_ID = 'flow-local-user';
/** Where the web client's pages are served from (its dev server). */
const ORIGIN = 'http://localhost:3000';
/** useMultipartUpload's default chunk size. */
const CHUNK = 5 * 1024 * 1024;
const TASK_STATUSES = ['running', 'done', 'error'];

/** A little over one chunk of invented rows, so the upload takes two parts. */
function bigCsv(): Buffer {
  const rows = ['region,month,units,revenue'];
  const regions = ['north', 'south', 'east', 'west'];
  let size = rows[0]!.length + 1;
  for (let i = 0; size < CHUNK + 300_000; i++) {
    const row = `${regions[i % 4] as string},2024-${String((i % 12) + 1).padStart(2, '0')}-01,${(i * 7) % 50},${100 + (i % 977)}`;
    rows.push(row);
    size += row.length + 1;
  }
  return Buffer.from(`${rows.join('\n')}\n`);
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrList = (v: unknown): boolean => Array.isArray(v) && v.every(isStr);

function assertPage(page: Rec, what: string): Rec[] {
  for (const k of ['page_number', 'page_size', 'total_items']) assert.equal(typeof page[k], 'number', `${what}.${k}`);
  assert.ok(Array.isArray(page['records']), `${what}.records`);
  return page['records'] as Rec[];
}

/** DataSourceRecord as the upload flow, the picker tree and DatasetInfo read it. */
function assertDataSource(d: Rec, datasetId: string): void {
  for (const k of ['id', 'name', 'type', 'status', 'dataset_id']) assert.ok(isStr(d[k]), `data source ${k}`);
  assert.equal(d['dataset_id'], datasetId);
  assert.ok(d['size'] === null || typeof d['size'] === 'number', 'data source size');
}

/** One streamed message as usePowerdrillChat handles it: JSON with choices[0].delta.content and the group fields. */
function assertStreamEvent(event: string, data: string): void {
  let parsed: Rec;
  try {
    parsed = JSON.parse(data) as Rec;
  } catch {
    assert.fail(`${event}: data is not JSON (${data.slice(0, 80)})`);
  }
  for (const k of ['group_id', 'group_name', 'stage']) assert.ok(isStr(parsed[k]), `${event}.${k}`);
  const choices = parsed['choices'] as Array<{ delta?: { content?: unknown } }>;
  const content = choices[0]?.delta?.content;
  assert.ok(content !== undefined && content !== null, `${event}: choices[0].delta.content`);
  switch (event) {
    case 'MESSAGE':
    case 'CODE':
      assert.ok(isStr(content), `${event} content`);
      break;
    case 'TABLE':
    case 'IMAGE':
      for (const k of ['name', 'url', 'expires_at']) assert.ok(isStr((content as Rec)[k]), `${event} content.${k}`);
      break;
    case 'QUESTIONS':
      assert.ok(isStrList(content), 'QUESTIONS content');
      break;
    case 'TASK': {
      const t = content as Rec;
      for (const k of ['name', 'id', 'stage']) assert.ok(isStr(t[k]), `TASK content.${k}`);
      assert.ok(TASK_STATUSES.includes(t['status'] as string), `TASK status ${String(t['status'])}`);
      assert.ok(t['parent_id'] === null || isStr(t['parent_id']), 'TASK parent_id');
      assert.equal(typeof t['properties'], 'object', 'TASK properties');
      break;
    }
  }
}

describe('local service: the official web client request sequence (v2)', function () {
  this.timeout(120_000);
  let h: Harness;
  let api: string;
  before(async () => {
    h = await startHarness();
    api = `${h.baseUrl}/v2/team`;
  });
  after(async () => {
    await h.stop();
  });

  const headers = { 'Content-Type': 'application/json', 'x-pd-api-key': TEST_KEY };
  /** The kinds of answer file the page fetched (TABLE, IMAGE). */
  const fetched = new Set<string>();

  async function envelope(r: Response, what: string): Promise<Rec> {
    assert.ok(r.ok, `${what}: HTTP ${r.status}`);
    const json = (await r.json()) as { code: number; data: Rec };
    assert.equal(json.code, 0, `${what}: ${JSON.stringify(json)}`);
    return json.data;
  }
  /** serverFetchData: the endpoint as built, then `user_id` set in the query. */
  async function get(endpoint: string): Promise<Rec> {
    const url = new URL(`${api}${endpoint}`);
    url.searchParams.set('user_id', USER_ID);
    return envelope(await fetch(url, { method: 'GET', headers }), `GET ${endpoint}`);
  }
  /** serverPostData / serverDeleteData: `user_id` added to the JSON body. */
  async function send(method: 'POST' | 'DELETE', endpoint: string, data: Rec = {}): Promise<Rec> {
    return envelope(await fetch(`${api}${endpoint}`, { method, headers, body: JSON.stringify({ ...data, user_id: USER_ID }) }), `${method} ${endpoint}`);
  }

  /** useMultipartUpload.uploadFile: init, 5 MB slices PUT from the browser, complete. */
  async function upload(name: string, bytes: Buffer): Promise<string> {
    const init = await send('POST', '/file/init-multipart-upload', { file_name: name, file_size: bytes.length });
    assert.ok(isStr(init['file_object_key']) && isStr(init['upload_id']), 'init: file_object_key, upload_id');
    const items = init['part_items'] as Array<{ number: number; size: number; upload_url: string }>;
    const chunks = Math.ceil(bytes.length / CHUNK);
    // It slices fixed 5 MB chunks and drops any chunk it has no part URL for, so fewer parts lose data.
    assert.equal(items.length, chunks, 'one part per 5 MB chunk');
    const etags: Array<{ number: number; etag: string }> = [];
    for (let i = 0; i < chunks; i++) {
      const item = items.find((p) => p.number === i + 1);
      assert.ok(item && isStr(item.upload_url), `part ${i + 1}`);
      const u = new URL(item.upload_url);
      // A cross-origin PUT is preflighted; the browser then reads ETag only if it is exposed.
      const pre = await rawRequest(h.baseUrl, 'OPTIONS', `${u.pathname}${u.search}`, { origin: ORIGIN, 'access-control-request-method': 'PUT' });
      assert.equal(pre.headers['access-control-allow-origin'], '*', 'part preflight');
      assert.match(String(pre.headers['access-control-allow-methods']), /PUT/);
      const r = await fetch(item.upload_url, { method: 'PUT', body: new Uint8Array(bytes.subarray(i * CHUNK, (i + 1) * CHUNK)), headers: { origin: ORIGIN } });
      assert.ok(r.ok, `part ${i + 1}: HTTP ${r.status}`);
      assert.equal(r.headers.get('access-control-allow-origin'), '*');
      assert.match(r.headers.get('access-control-expose-headers') ?? '', /etag/i);
      const etag = r.headers.get('etag');
      assert.ok(etag, `part ${i + 1}: ETag`);
      etags.push({ number: i + 1, etag: etag.replace(/['"]/g, '') });
    }
    const done = await send('POST', '/file/complete-multipart-upload', { file_object_key: init['file_object_key'], part_etags: etags, upload_id: init['upload_id'] });
    assert.ok(isStr(done['file_object_key']), 'complete: file_object_key');
    return done['file_object_key'];
  }

  /** The file selector's polling (every 2 s there): `/datasources?` until every record is synched. */
  async function pollSynched(datasetId: string): Promise<Rec[]> {
    for (let i = 0; i < 1200; i++) {
      const records = assertPage(await get(`/datasets/${datasetId}/datasources?`), 'datasources');
      for (const d of records) assertDataSource(d, datasetId);
      const failed = records.find((d) => d['status'] === 'invalid');
      if (failed) assert.fail(`data source failed: ${JSON.stringify(failed)}`);
      if (records.length > 0 && records.every((d) => d['status'] === 'synched')) return records;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('data sources never synched');
  }

  /**
   * app/api/chat -> createJob (stream: true), framed as any SSE parser does (fetchEventSource frames
   * the same, and also hands over `:keep-alive` comments as empty messages, which it logs and skips).
   */
  async function ask(body: Rec): Promise<Array<{ event: string; data: string }>> {
    const r = await fetch(`${api}/jobs`, { method: 'POST', headers, body: JSON.stringify({ ...body, stream: true, user_id: USER_ID }) });
    assert.ok(r.ok, `POST /jobs: HTTP ${r.status}`);
    const events: Array<{ event: string; data: string }> = [];
    const parser = createParser({ onEvent: (e) => events.push({ event: e.event ?? '', data: e.data }) });
    const decoder = new TextDecoder();
    for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    let done = false;
    for (const { event, data } of events) {
      assert.ok(!done, `${event} after [DONE]`);
      if (data === '[DONE]') done = true;
      // JOB_ID is skipped; TITLE_GENERATION is a plain title, as from the hosted service.
      else if (event !== 'JOB_ID' && event !== 'TITLE_GENERATION') assertStreamEvent(event, data);
    }
    assert.ok(done, 'the stream ends with data [DONE]');
    // TableBlockView and ImageBlockComponent fetch the url from the page's origin.
    for (const e of events.filter((x) => x.event === 'TABLE' || x.event === 'IMAGE')) {
      const { url } = (JSON.parse(e.data) as { choices: Array<{ delta: { content: { url: string } } }> }).choices[0]!.delta.content;
      const r = await fetch(url, { headers: { origin: ORIGIN } });
      assert.equal(r.status, 200, `${e.event} url`);
      assert.equal(r.headers.get('access-control-allow-origin'), '*', `${e.event} url answers cross-origin`);
      const text = await r.text();
      if (e.event === 'TABLE') assert.ok(text.split('\n')[0]!.includes(','), 'TABLE is a CSV with a header row');
      fetched.add(e.event);
    }
    return events;
  }

  it('signs in, uploads to a new dataset, picks it, asks (streamed), reads history, adds a file, deletes', async () => {
    // Setup page: the credentials are checked with GET /sessions.
    assertPage(await get('/sessions'), 'sessions');

    // Home page: a question creates a session named from its first 30 characters (only `name`).
    const question = 'Total revenue by region, highest first';
    const created = await send('POST', '/sessions', { name: `${question.slice(0, 30)}...` });
    assert.ok(isStr(created['id']), 'session id');
    const sessionId = created['id'];

    // Chat page: the session (its name is the page title) and its history (page_size 100).
    const session = await get(`/sessions/${sessionId}`);
    for (const k of ['id', 'name', 'output_language', 'job_mode', 'agent_id']) assert.ok(isStr(session[k]), `session ${k}`);
    assert.equal(typeof session['max_contextual_job_history'], 'number');
    assert.deepEqual(assertPage(await get(`/sessions/${sessionId}/history?page_size=100`), 'history'), []);

    // "Upload File to New Dataset": upload, create the dataset, then one data source per file.
    const fileKey = await upload('monthly_sales.csv', bigCsv());
    const dataset = await send('POST', '/datasets', { name: 'Dataset_20240101_120000', description: '' });
    assert.ok(isStr(dataset['id']), 'dataset id');
    const datasetId = dataset['id'];
    const source = await send('POST', `/datasets/${datasetId}/datasources`, { name: 'monthly_sales.csv', file_object_key: fileKey, type: 'FILE' });
    assertDataSource(source, datasetId);
    const [synched] = await pollSynched(datasetId);
    assert.equal(synched?.['id'], source['id']);
    assert.equal(typeof synched?.['size'], 'number', 'DatasetInfo shows the size of a synched source');

    // Home grid (page_size 9): total_items for the pages, then each dataset's overview.
    const grid = assertPage(await get('/datasets?page_number=1&page_size=9'), 'datasets');
    const card = grid.find((d) => d['id'] === datasetId) as Rec;
    for (const k of ['id', 'name', 'description']) assert.ok(isStr(card[k]), `dataset ${k}`);
    // DatasetCard looks a status up in {synched, invalid, synching}; anything else breaks the card.
    assert.ok(card['status'] === undefined || ['synched', 'invalid', 'synching'].includes(card['status'] as string), 'dataset status');
    const overview = await get(`/datasets/${datasetId}/overview`);
    assert.ok(isStr(overview['summary']) && overview['summary'] !== '', 'overview summary');
    assert.ok(isStrList(overview['exploration_questions']) && (overview['exploration_questions'] as string[]).length > 0, 'exploration_questions');
    assert.ok(isStrList(overview['keywords']), 'keywords');

    // Picking the dataset lists its data sources (page_size 100); the picker tree lists datasets too.
    const picked = assertPage(await get(`/datasets/${datasetId}/datasources?page_size=100`), 'datasources');
    assertPage(await get('/datasets?page_size=100'), 'datasets');

    // Asking: the chat route streams; every event is one usePowerdrillChat can fold.
    const events = await ask({
      question, session_id: sessionId, dataset_id: datasetId, datasource_ids: picked.map((d) => d['id']), custom_options: { with_citation: false },
    });
    assert.ok(events.some((e) => e.event === 'MESSAGE'), 'a MESSAGE');

    // A follow-up from the exploration-question chips under the input, in the same session.
    const chip = (overview['exploration_questions'] as string[])[0] as string;
    await ask({ question: chip, session_id: sessionId, dataset_id: datasetId, datasource_ids: picked.map((d) => d['id']), custom_options: { with_citation: false } });
    assert.deepEqual([...fetched].sort(), ['IMAGE', 'TABLE'], 'the answers held a table and a chart, both fetched');

    // Reopening the chat: history records the web client converts to messages. It reverses the
    // page to show them oldest first, so the newest must come first.
    const history = assertPage(await get(`/sessions/${sessionId}/history?page_size=100`), 'history');
    assert.deepEqual(history.map((r) => ((r['question'] as Rec)['blocks'] as Rec[])[0]?.['content']), [chip, question]);
    const rec = history[1] as Rec;
    assert.ok(isStr(rec['job_id']), 'history job_id');
    assert.deepEqual((rec['question'] as Rec)['blocks'], [{ type: 'MESSAGE', content: question }]);
    const blocks = (rec['answer'] as Rec)['blocks'] as Rec[];
    assert.ok(blocks.length > 0);
    for (const b of blocks) {
      assert.ok(isStr(b['type']), 'block type');
      assert.ok(b['group_id'] === undefined || isStr(b['group_id']), 'block group_id');
      assert.ok(b['group_name'] === undefined || b['group_name'] === null || isStr(b['group_name']), 'block group_name');
      if (b['type'] === 'TABLE' || b['type'] === 'IMAGE') {
        for (const k of ['name', 'url', 'expires_at']) assert.ok(isStr((b['content'] as Rec)[k]), `history ${String(b['type'])} ${k}`);
        // A reopened chat renders these too, so their (re-signed) links answer the page as well.
        const r = await fetch((b['content'] as Rec)['url'] as string, { headers: { origin: ORIGIN } });
        assert.equal(r.status, 200, 'history file url');
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
        await r.arrayBuffer();
      }
      if (b['type'] === 'MESSAGE' || b['type'] === 'CODE') assert.ok(isStr(b['content']));
    }

    // "New Chat" with nothing picked: dataset_id null and an empty datasource_ids.
    const bare = await send('POST', '/sessions', { name: 'New Chat' });
    await ask({ question: 'hello', session_id: bare['id'], dataset_id: null, datasource_ids: [], custom_options: { with_citation: false } });

    // "Upload File to This Dataset": a small file is one part; the list then holds both.
    const smallKey = await upload('targets.csv', Buffer.from('region,target\nnorth,120\nsouth,90\neast,75\nwest,60\n'));
    assertDataSource(await send('POST', `/datasets/${datasetId}/datasources`, { name: 'targets.csv', file_object_key: smallKey, type: 'FILE' }), datasetId);
    assert.equal((await pollSynched(datasetId)).length, 2);

    // Deleting the dataset from its card (the body carries user_id only).
    assert.equal(await send('DELETE', `/datasets/${datasetId}`), null);
    const after = assertPage(await get('/datasets?page_number=1&page_size=9'), 'datasets');
    assert.ok(!after.some((d) => d['id'] === datasetId));
  });

  it('gives the codes its error messages are looked up by (setup with a wrong key, a missing session)', async () => {
    // handleApiResponse: not ok -> `code` of the JSON body; ok with code != 0 -> that code. The
    // setup page shows "[code] message" from its table, e.g. 1004 "Invalid credentials".
    const wrongKey = new URL(`${api}/sessions`);
    wrongKey.searchParams.set('user_id', USER_ID);
    const r = await fetch(wrongKey, { headers: { 'Content-Type': 'application/json', 'x-pd-api-key': 'not-the-key' } });
    assert.equal(r.status, 403);
    assert.equal(((await r.json()) as { code: number }).code, 1004);
    const missing = new URL(`${api}/sessions/no-such-session`);
    missing.searchParams.set('user_id', USER_ID);
    const m = await fetch(missing, { headers });
    assert.ok(m.ok);
    assert.equal(((await m.json()) as { code: number }).code, 300003);
  });
});
