/**
 * The requests the official MCP server (powerdrillai/powerdrill-mcp: src/utils/powerdrillClient.ts,
 * src/index.ts) makes, written out as it sends them (base URL `.../v2/team`, `x-pd-api-key`,
 * `user_id` in the query of GETs and in every body, query strings built by hand), against the real
 * local service; each answer is checked for every field the MCP server reads from it. Not a copy of
 * its code: its request sequence, replayed with fetch.
 */
import { strict as assert } from 'node:assert';
import { startHarness, TEST_KEY, type Harness } from '../helpers/serverHarness';
import { SALES } from '../helpers/v2Wire';

type Rec = Record<string, unknown>;
const USER_ID = 'tmm-local-user';

describe('local service: the official MCP server request sequence (v2)', function () {
  this.timeout(60_000);
  let h: Harness;
  let api: string;
  before(async () => {
    h = await startHarness();
    api = `${h.baseUrl}/v2/team`;
  });
  after(async () => {
    await h.stop();
  });

  /** What the MCP server's axios client does: JSON, the key header, and `code === 0` checked. */
  async function send(method: string, path: string, body?: Rec): Promise<Rec> {
    const r = await fetch(`${api}${path}`, {
      method, headers: { 'Content-Type': 'application/json', 'x-pd-api-key': TEST_KEY }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    assert.ok(r.status >= 200 && r.status < 300, `${method} ${path}: HTTP ${r.status}`);
    const json = (await r.json()) as { code: number; data: Rec };
    assert.equal(json.code, 0, `${method} ${path}: ${JSON.stringify(json)}`);
    assert.ok(json.data !== undefined && json.data !== null, `${method} ${path}: data`);
    return json.data;
  }

  it('creates a dataset, uploads a file in parts, makes a data source, then lists, reads, asks and lists sessions', async () => {
    const dataset = await send('POST', '/datasets', { name: 'MCP dataset', description: 'from the MCP flow', user_id: USER_ID });
    const datasetId = dataset['id'] as string;
    assert.equal(typeof datasetId, 'string');

    // create_data_source_from_local_file: init, PUT each part to its URL (ETag header), complete.
    const bytes = Buffer.from(SALES);
    const init = await send('POST', '/file/init-multipart-upload', { file_name: 'sales.csv', file_size: bytes.length, user_id: USER_ID });
    const parts = init['part_items'] as Array<{ number: number; size: number; upload_url: string }>;
    const etags: Array<{ number: number; etag: string }> = [];
    let offset = 0;
    for (const p of parts) {
      const r = await fetch(p.upload_url, { method: 'PUT', body: new Uint8Array(bytes.subarray(offset, offset + p.size)), headers: { 'Content-Type': 'application/octet-stream' } });
      offset += p.size;
      assert.equal(r.status, 200);
      etags.push({ number: p.number, etag: (r.headers.get('etag') ?? '').replace(/"/g, '') });
    }
    const done = await send('POST', '/file/complete-multipart-upload', { file_object_key: init['file_object_key'], upload_id: init['upload_id'], part_etags: etags, user_id: USER_ID });
    const created = await send('POST', `/datasets/${datasetId}/datasources`, { name: 'sales.csv', type: 'FILE', file_object_key: done['file_object_key'], user_id: USER_ID });
    const sourceId = created['id'] as string;

    // It polls the data source until synched.
    let status = created['status'];
    for (let i = 0; i < 200 && status !== 'synched'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await send('GET', `/datasets/${datasetId}/datasources/${sourceId}?user_id=${USER_ID}`))['status'];
    }
    assert.equal(status, 'synched');

    // mcp_powerdrill_list_datasets reads data.records[].{id,name,description} and data.total_items.
    const datasets = await send('GET', `/datasets?user_id=${USER_ID}`);
    assert.equal(datasets['total_items'], 1);
    const first = (datasets['records'] as Rec[])[0] as Rec;
    assert.deepEqual([first['id'], first['name'], first['description']], [datasetId, 'MCP dataset', 'from the MCP flow']);

    // mcp_powerdrill_get_dataset_overview reads id, name, description, summary, exploration_questions, keywords.
    const overview = await send('GET', `/datasets/${datasetId}/overview?user_id=${USER_ID}`);
    for (const k of ['id', 'name', 'description', 'summary', 'exploration_questions', 'keywords']) assert.ok(overview[k] !== undefined, k);

    // mcp_powerdrill_list_data_sources: page_number, page_size, status; reads records[].{id,name,type,status,size,dataset_id}.
    const sources = await send('GET', `/datasets/${datasetId}/datasources?user_id=${USER_ID}&page_number=1&page_size=10&status=synched`);
    for (const k of ['total_items', 'page_number', 'page_size', 'records']) assert.ok(sources[k] !== undefined, k);
    const src = (sources['records'] as Rec[])[0] as Rec;
    for (const k of ['id', 'name', 'type', 'status', 'size', 'dataset_id']) assert.ok(src[k] !== undefined, `data source ${k}`);

    // mcp_powerdrill_create_session (its defaults) reads data.id.
    const session = await send('POST', '/sessions', { name: 'MCP session', output_language: 'AUTO', job_mode: 'AUTO', max_contextual_job_history: 10, agent_id: 'DATA_ANALYSIS_AGENT', user_id: USER_ID });
    const sessionId = session['id'] as string;

    // mcp_powerdrill_create_job (stream false by default) reads job_id and blocks[].{type,content,stage}, TABLE/IMAGE content.{url,name,expires_at}.
    const job = await send('POST', '/jobs', { question: 'Total revenue by region', dataset_id: datasetId, session_id: sessionId, stream: false, output_language: 'AUTO', job_mode: 'AUTO', user_id: USER_ID });
    assert.equal(typeof job['job_id'], 'string');
    const blocks = job['blocks'] as Rec[];
    assert.ok(blocks.length > 0);
    for (const b of blocks) {
      assert.ok(b['type'] !== undefined && b['content'] !== undefined && b['stage'] !== undefined);
      if (b['type'] === 'TABLE' || b['type'] === 'IMAGE') for (const k of ['url', 'name', 'expires_at']) assert.ok((b['content'] as Rec)[k] !== undefined, `${String(b['type'])} ${k}`);
    }
    assert.ok(blocks.some((b) => b['type'] === 'TABLE'));

    // mcp_powerdrill_list_sessions: page_number, page_size, search; reads the page and records[].{id,name,output_language,job_mode,max_contextual_job_history,agent_id}.
    const list = await send('GET', `/sessions?user_id=${USER_ID}&page_number=1&page_size=10&search=${encodeURIComponent('MCP')}`);
    for (const k of ['page_number', 'page_size', 'total_items']) assert.ok(list[k] !== undefined, k);
    const s = (list['records'] as Rec[])[0] as Rec;
    assert.deepEqual(
      [s['id'], s['name'], s['output_language'], s['job_mode'], s['max_contextual_job_history'], s['agent_id']],
      [sessionId, 'MCP session', 'AUTO', 'AUTO', 10, 'DATA_ANALYSIS_AGENT'],
    );
  });
});
