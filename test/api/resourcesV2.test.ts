/**
 * Every endpoint's wire shape under `apiVersion: 'v2'`, recorded by a scripted server: `/v2/team`
 * paths, snake_case, and the caller's `user_id` where the hosted v2 API wants it (the query of
 * every GET, the JSON body of every POST and DELETE, a form field beside an uploaded file). The
 * local service accepts the user id in either place, so only a recording shows the placement.
 */
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient, TeamDataError } from '../../src/api/index';
import { v1Codec } from '../../src/shared/codecV1';
import { v2Codec } from '../../src/shared/codecV2';
import { FaultServer, ok, type RecordedRequest } from '../helpers/faultServer';
import { API_KEY, USER_ID } from './support';

function wire(r: RecordedRequest | undefined): { method: string; path: string; query: Record<string, string>; body: unknown } {
  assert.ok(r, 'no request recorded');
  const text = r.body.toString();
  return { method: r.method, path: r.path, query: Object.fromEntries(r.query), body: text === '' ? undefined : JSON.parse(text) };
}

const source = (id: string, status: string): Record<string, unknown> => ({ id, dataset_id: 'set-1', name: `${id}.csv`, type: 'FILE', status, size: 10 });
const session = { id: 's1', name: 'Sales', output_language: 'EN', job_mode: 'AUTO', max_contextual_job_history: 5, agent_id: 'DATA_ANALYSIS_AGENT', user_id: USER_ID };
const page = (records: unknown[], pageSize = 10): Record<string, unknown> => ({ total_items: records.length, page_number: 1, page_size: pageSize, records });

describe('api resources on the wire, v2', function () {
  let server: FaultServer;
  let client: TeamDataClient;

  beforeEach(async () => {
    server = await FaultServer.start();
    client = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, userId: USER_ID, apiVersion: 'v2' });
  });
  afterEach(() => server.close());

  it('apiVersion picks the codec; a contradicting codec or an unknown version is refused', () => {
    const options = { baseUrl: 'http://127.0.0.1:1', apiKey: API_KEY };
    assert.throws(() => new TeamDataClient({ ...options, apiVersion: 'v2', codec: v1Codec }), (e: unknown) => e instanceof TeamDataError && e.code === 'INVALID_ARGUMENT');
    assert.throws(() => new TeamDataClient({ ...options, apiVersion: 'v3' as 'v2' }), /apiVersion "v3"/);
    assert.doesNotThrow(() => new TeamDataClient({ ...options, apiVersion: 'v2', codec: v2Codec }));
  });

  it('datasets and data sources: user_id in GET queries and in POST and DELETE bodies', async () => {
    server.enqueue(
      ok({ id: 'set-1' }), ok(null), ok(page([{ id: 'set-1', name: 'Sales', description: 'Q3' }], 5)), ok({ synched_count: 1, synching_count: 0, invalid_count: 0 }),
      ok({ id: 'set-1', name: 'Sales', description: 'Q3', summary: 's', exploration_questions: ['q?'], keywords: ['k'] }),
      ok(source('ds-1', 'synching')), ok(page([source('ds-1', 'synched')])), ok(source('ds-1', 'synched')),
      ok({ presigned_url: 'https://files.example.test/x.csv?sig=1', expires_at: '2026-11-21T12:00:00Z' }), ok(null), ok(null),
    );
    assert.deepEqual(await client.datasets.create({ name: 'Sales', description: 'Q3' }), { id: 'set-1' });
    await client.datasets.modify('set-1', { name: 'Sales 2', description: '' });
    assert.equal((await client.datasets.list({ keyword: 'Sal', pageNumber: 1, pageSize: 5 })).records[0]?.name, 'Sales');
    assert.equal((await client.datasets.status('set-1')).synched, 1);
    assert.deepEqual((await client.datasets.overview('set-1')).explorationQuestions, ['q?']);
    assert.equal((await client.dataSources.create('set-1', { fileName: 'sales.csv', fileKey: 'uploads/k' })).status, 'synching');
    assert.equal((await client.dataSources.list('set-1', { statuses: ['synched'] })).total, 1);
    assert.equal((await client.dataSources.get('set-1', 'ds-1')).fileName, 'ds-1.csv');
    assert.equal((await client.dataSources.presign('set-1', 'ds-1')).expiredAt, '2026-11-21T12:00:00Z');
    await client.dataSources.delete('set-1', 'ds-1');
    await client.datasets.delete('set-1');
    const u = { user_id: USER_ID };
    assert.deepEqual(server.requests.map(wire), [
      { method: 'POST', path: '/v2/team/datasets', query: {}, body: { name: 'Sales', description: 'Q3', ...u } },
      { method: 'POST', path: '/v2/team/datasets/set-1', query: {}, body: { name: 'Sales 2', description: '', ...u } },
      { method: 'GET', path: '/v2/team/datasets', query: { page_number: '1', page_size: '5', search: 'Sal', ...u }, body: undefined },
      { method: 'GET', path: '/v2/team/datasets/set-1/status', query: u, body: undefined },
      { method: 'GET', path: '/v2/team/datasets/set-1/overview', query: u, body: undefined },
      { method: 'POST', path: '/v2/team/datasets/set-1/datasources', query: {}, body: { name: 'sales.csv', type: 'FILE', file_object_key: 'uploads/k', ...u } },
      { method: 'GET', path: '/v2/team/datasets/set-1/datasources', query: { status: 'synched', ...u }, body: undefined },
      { method: 'GET', path: '/v2/team/datasets/set-1/datasources/ds-1', query: u, body: undefined },
      { method: 'POST', path: '/v2/team/datasets/set-1/datasources/ds-1/presign', query: {}, body: u },
      { method: 'DELETE', path: '/v2/team/datasets/set-1/datasources/ds-1', query: {}, body: u },
      { method: 'DELETE', path: '/v2/team/datasets/set-1', query: {}, body: u },
    ]);
    for (const r of server.requests) {
      assert.equal(r.headers['x-pd-api-agent-id'], undefined, 'v2 drops the agent header');
      if (r.method !== 'GET') assert.match(String(r.headers['content-type']), /^application\/json/);
    }
  });

  it('sessions, history and jobs: the same placement; a call may name another user', async () => {
    server.enqueue(
      ok({ id: 's1' }), ok(null), ok(session), ok(page([session])), ok(page([])), ok(null),
      ok({ job_id: 'j1', blocks: [{ type: 'MESSAGE', content: 'hi', stage: 'Respond', group_id: 'g', group_name: 'Answer' }] }),
    );
    await client.sessions.create({ title: 'Sales', languageType: 'EN', maxMessagesInContext: 5 });
    await client.sessions.modify('s1', { title: 'Renamed' });
    assert.equal((await client.sessions.get('s1')).title, 'Sales');
    assert.equal((await client.sessions.list({ keyword: 'Sal' })).records[0]?.maxMessagesInContext, 5);
    assert.equal((await client.sessions.history('s1', { pageSize: 20 })).total, 0);
    await client.sessions.delete('s1', { userId: 'someone-else' });
    assert.equal((await client.jobs.run({ sessionId: 's1', datasetId: 'set-1', datasourceIdList: ['ds-1'], question: 'why?' })).jobId, 'j1');
    const u = { user_id: USER_ID };
    assert.deepEqual(server.requests.map(wire), [
      { method: 'POST', path: '/v2/team/sessions', query: {}, body: { name: 'Sales', output_language: 'EN', max_contextual_job_history: 5, agent_id: 'DATA_ANALYSIS_AGENT', ...u } },
      { method: 'POST', path: '/v2/team/sessions/s1', query: {}, body: { name: 'Renamed', ...u } },
      { method: 'GET', path: '/v2/team/sessions/s1', query: u, body: undefined },
      { method: 'GET', path: '/v2/team/sessions', query: { search: 'Sal', ...u }, body: undefined },
      { method: 'GET', path: '/v2/team/sessions/s1/history', query: { page_size: '20', ...u }, body: undefined },
      { method: 'DELETE', path: '/v2/team/sessions/s1', query: {}, body: { user_id: 'someone-else' } },
      { method: 'POST', path: '/v2/team/jobs', query: {}, body: { session_id: 's1', question: 'why?', stream: false, dataset_id: 'set-1', datasource_ids: ['ds-1'], ...u } },
    ]);
  });

  it('a small file goes to upload-datasource as a form with user_id beside the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'team-data-v2-upload-'));
    try {
      const path = join(dir, 'sales.csv');
      await writeFile(path, 'a,b\n1,2\n');
      server.enqueue(ok({ file_object_key: 'uploads/k.csv' }));
      assert.deepEqual(await client.files.upload(path), { fileKey: 'uploads/k.csv' });
      const r = server.requests[0];
      assert.deepEqual([r?.method, r?.path, Object.fromEntries(r?.query ?? [])], ['POST', '/v2/team/file/upload-datasource', {}]);
      assert.deepEqual(r?.fields, [['user_id', USER_ID]]);
      assert.deepEqual(r?.files.map((f) => [f.field, f.fileName, f.bytes]), [['file', 'sales.csv', 8]]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
