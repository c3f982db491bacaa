/**
 * Wire-level checks of the local service's resource endpoints: envelope, paging, keyword and status
 * filters, contract rules (title truncation, context range, enums, session limit) and the codes
 * and HTTP statuses of the real service for bad input.
 */
import { strict as assert } from 'node:assert';
import { startHarness, USER, type Harness } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;
const data = (r: { json?: { data: unknown } }): Rec => r.json?.data as Rec;

describe('local service: resources over HTTP', function () {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.stop();
  });

  async function createDataset(name: string, description = ''): Promise<string> {
    const r = await h.call('POST', '/v1/team/datasets', { name, description });
    assert.equal(r.json?.code, 0, r.text);
    return data(r)['id'] as string;
  }

  async function expectError(method: string, path: string, body: unknown, code: number, msgPart: string, status = 200): Promise<void> {
    const r = await h.call(method, path, body);
    assert.equal(r.status, status, r.text);
    assert.equal(r.json?.code, code, r.text);
    assert.ok(typeof r.json?.msg === 'string' && r.json.msg.includes(msgPart), `msg ${r.json?.msg} should mention ${msgPart}`);
    assert.equal(r.json?.data, null);
    assert.ok(r.headers.get('x-pd-trace-id'));
  }

  describe('datasets', () => {
    it('creates, lists (paged, newest first) and filters by name or description', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await createDataset(`Sales ${i}`, i === 3 ? 'quarterly REVENUE' : 'misc'));
      const p1 = await h.call('GET', '/v1/team/datasets');
      assert.deepEqual(p1.json && { code: p1.json.code, msg: p1.json.msg }, { code: 0, msg: null });
      const page = data(p1);
      assert.equal(page['total'], 12);
      assert.equal(page['pageNumber'], 1);
      assert.equal(page['pageSize'], 10);
      const records = page['records'] as Rec[];
      assert.equal(records.length, 10);
      assert.deepEqual(Object.keys(records[0] as Rec).sort(), ['description', 'id', 'name']);
      assert.equal((records[0] as Rec)['id'], ids[11]);
      const p2 = data(await h.call('GET', '/v1/team/datasets?pageNumber=2&pageSize=10'));
      assert.deepEqual((p2['records'] as Rec[]).map((r) => r['id']), [ids[1], ids[0]]);
      const byName = data(await h.call('GET', `/v1/team/datasets?name=${encodeURIComponent('sales 1')}`));
      assert.deepEqual((byName['records'] as Rec[]).map((r) => r['name']).sort(), ['Sales 1', 'Sales 10', 'Sales 11']);
      const byDesc = data(await h.call('GET', '/v1/team/datasets?name=revenue'));
      assert.deepEqual((byDesc['records'] as Rec[]).map((r) => r['id']), [ids[3]]);
      const beyond = data(await h.call('GET', '/v1/team/datasets?pageNumber=99'));
      assert.equal(beyond['total'], 12);
      assert.deepEqual(beyond['records'], []);
    });

    it('modifies and deletes a dataset; unknown ids are 300003', async () => {
      const id = await createDataset('Before', 'old');
      const m = await h.call('POST', `/v1/team/datasets/${id}?userId=${USER}`, { name: 'After' });
      assert.deepEqual(m.json, { code: 0, msg: null, data: null });
      const list = data(await h.call('GET', '/v1/team/datasets?name=After'));
      assert.deepEqual(list['records'], [{ id, name: 'After', description: 'old' }]);
      const st = data(await h.call('GET', `/v1/team/datasets/${id}/status`));
      assert.deepEqual(st, { datasetId: id, total: 0, synched: 0, synching: 0, invalid: 0 });
      const ov = data(await h.call('GET', `/v1/team/datasets/${id}/overview`));
      assert.deepEqual(ov['dataset'], { id, name: 'After', description: 'old' });
      assert.equal(ov['dataSourceCount'], 0);
      const d = await h.call('DELETE', `/v1/team/datasets/${id}?userId=${USER}`);
      assert.equal(d.json?.code, 0);
      await expectError('DELETE', `/v1/team/datasets/${id}`, undefined, 300003, 'not found');
      await expectError('POST', '/v1/team/datasets/nope', { name: 'x' }, 300003, 'not found');
      await expectError('GET', '/v1/team/datasets/nope/status', undefined, 300003, 'not found');
      await expectError('GET', '/v1/team/datasets/nope/overview', undefined, 300003, 'not found');
    });

    it('rejects bad dataset input with code 100 naming the field', async () => {
      await expectError('POST', '/v1/team/datasets', {}, 100, 'name: required');
      await expectError('POST', '/v1/team/datasets', { name: 42 }, 100, 'name: expected a string');
      await expectError('POST', '/v1/team/datasets', { name: 'x'.repeat(129) }, 100, 'name: at most 128');
      await expectError('POST', '/v1/team/datasets', { name: 'ok', description: ['no'] }, 100, 'description');
      await expectError('POST', '/v1/team/datasets', '[1,2]', 100, 'body: expected a JSON object');
      await expectError('POST', '/v1/team/datasets', '{"name":', 100, 'body: invalid JSON');
      await expectError('GET', '/v1/team/datasets?pageSize=0', undefined, 100, 'pageSize');
      await expectError('GET', '/v1/team/datasets?pageNumber=-1', undefined, 100, 'pageNumber');
      await expectError('GET', '/v1/team/datasets?pageSize=abc', undefined, 100, 'pageSize');
      await expectError('GET', '/v1/team/datasets?pageSize=100000', undefined, 100, 'pageSize: at most');
    });
  });

  describe('sessions', () => {
    it('creates with defaults, truncates titles to 128 and lists the caller\'s sessions by title', async () => {
      const long = `${'é'.repeat(100)}${'x'.repeat(100)}`;
      const a = data(await h.call('POST', '/v1/team/sessions', { title: long, userId: USER, languageType: 'ZH-CN', jobMode: 'DATA_ANALYTICS', maxMessagesInContext: 0 }));
      const b = data(await h.call('POST', '/v1/team/sessions', { title: 'Churn study', userId: USER }));
      const other = data(await h.call('POST', '/v1/team/sessions', { title: 'Churn elsewhere', userId: 'someone-else' }));
      const sa = data(await h.call('GET', `/v1/team/sessions/${a['id'] as string}?userId=${USER}`));
      assert.equal(sa['title'], long.slice(0, 128));
      assert.equal(sa['languageType'], 'ZH-CN');
      assert.equal(sa['jobMode'], 'DATA_ANALYTICS');
      assert.equal(sa['maxMessagesInContext'], 0);
      assert.equal(sa['agentId'], 'DATA_ANALYSIS_AGENT');
      assert.equal(sa['userId'], USER);
      const sb = data(await h.call('GET', `/v1/team/sessions/${b['id'] as string}`));
      assert.equal(sb['maxMessagesInContext'], 10);
      assert.equal(sb['languageType'], 'AUTO');
      const mine = data(await h.call('GET', `/v1/team/sessions?userId=${USER}&title=churn`));
      assert.deepEqual((mine['records'] as Rec[]).map((r) => r['id']), [b['id']]);
      const all = data(await h.call('GET', `/v1/team/sessions?userId=${USER}`));
      assert.ok(!(all['records'] as Rec[]).some((r) => r['id'] === other['id']));
      // Another user's session reads as not found.
      const foreign = await h.call('GET', `/v1/team/sessions/${other['id'] as string}?userId=${USER}`);
      assert.equal(foreign.json?.code, 300003);
    });

    it('modifies and deletes sessions', async () => {
      const s = data(await h.call('POST', '/v1/team/sessions', { userId: USER }));
      const id = s['id'] as string;
      const m = await h.call('POST', `/v1/team/sessions/${id}`, { title: 'Renamed', maxMessagesInContext: 3, userId: USER });
      assert.deepEqual(m.json, { code: 0, msg: null, data: null });
      const got = data(await h.call('GET', `/v1/team/sessions/${id}?userId=${USER}`));
      assert.equal(got['title'], 'Renamed');
      assert.equal(got['maxMessagesInContext'], 3);
      await expectError('POST', `/v1/team/sessions/${id}`, { maxMessagesInContext: 11 }, 100, 'maxMessagesInContext');
      assert.equal((await h.call('DELETE', `/v1/team/sessions/${id}?userId=${USER}`)).json?.code, 0);
      await expectError('GET', `/v1/team/sessions/${id}`, undefined, 300003, 'not found');
      await expectError('GET', `/v1/team/sessions/${id}/history`, undefined, 300003, 'not found');
    });

    it('validates session fields: enums, 0..10 context, types', async () => {
      await expectError('POST', '/v1/team/sessions', { languageType: 'KLINGON' }, 100, 'languageType: expected one of');
      await expectError('POST', '/v1/team/sessions', { jobMode: 'DATA_ANALYSIS' }, 100, 'jobMode: expected one of AUTO, DATA_ANALYTICS');
      await expectError('POST', '/v1/team/sessions', { maxMessagesInContext: -1 }, 100, 'maxMessagesInContext');
      await expectError('POST', '/v1/team/sessions', { maxMessagesInContext: 2.5 }, 100, 'maxMessagesInContext');
      await expectError('POST', '/v1/team/sessions', { title: { a: 1 } }, 100, 'title: expected a string');
    });

    it('allows 150 sessions at once and answers the 151st with 300009', async () => {
      const existing = data(await h.call('GET', '/v1/team/sessions?pageSize=1'))['total'] as number;
      for (let i = existing; i < 150; i++) {
        const r = await h.call('POST', '/v1/team/sessions', { title: `s${i}`, userId: 'bulk' });
        assert.equal(r.json?.code, 0, r.text);
      }
      const over = await h.call('POST', '/v1/team/sessions', { title: 'one too many', userId: 'bulk' });
      assert.equal(over.status, 200);
      assert.equal(over.json?.code, 300009);
      assert.match(over.json?.msg ?? '', /session limit/);
      // Deleting one makes room again.
      const one = data(await h.call('GET', '/v1/team/sessions?userId=bulk&pageSize=1'));
      const victim = (one['records'] as Rec[])[0]?.['id'] as string;
      assert.equal((await h.call('DELETE', `/v1/team/sessions/${victim}`)).json?.code, 0);
      assert.equal((await h.call('POST', '/v1/team/sessions', { userId: 'bulk' })).json?.code, 0);
    });
  });

  describe('data sources (validation)', () => {
    let ds: string;
    before(async () => {
      ds = await createDataset('Sources');
    });
    const path = (): string => `/v1/team/datasets/${ds}/datasources?userId=${USER}`;

    it('requires userId, fileName, type FILE and exactly one of url/fileKey', async () => {
      await expectError('POST', `/v1/team/datasets/${ds}/datasources`, { fileName: 'a.csv', type: 'FILE', url: 'http://127.0.0.1:9/a.csv' }, 100, 'userId: required');
      await expectError('POST', path(), { type: 'FILE', url: 'http://127.0.0.1:9/a.csv' }, 100, 'fileName: required');
      await expectError('POST', path(), { fileName: 'a.csv', url: 'http://127.0.0.1:9/a.csv' }, 100, 'type: required');
      await expectError('POST', path(), { fileName: 'a.csv', type: 'URL', url: 'http://127.0.0.1:9/a.csv' }, 100, 'type: expected FILE');
      await expectError('POST', path(), { fileName: 'a.csv', type: 'FILE' }, 100, 'exactly one of url and fileKey');
      await expectError('POST', path(), { fileName: 'a.csv', type: 'FILE', url: 'http://127.0.0.1:9/a.csv', fileKey: 'k' }, 100, 'exactly one of url and fileKey');
      await expectError('POST', path(), { fileName: 'a.csv', type: 'FILE', url: 'ftp://example/a.csv' }, 100, 'url: only http and https');
      await expectError('POST', path(), { fileName: 'a.csv', type: 'FILE', url: 'not a url' }, 100, 'url:');
      await expectError('POST', path(), { fileName: 'a.csv', type: 'FILE', fileKey: 'uploads/nothing.csv' }, 300003, 'fileKey');
      await expectError('POST', path(), { fileName: 'a.exe', type: 'FILE', url: 'http://127.0.0.1:9/a.exe' }, 300004, 'unsupported file extension');
      await expectError('POST', `/v1/team/datasets/nope/datasources?userId=${USER}`, { fileName: 'a.csv', type: 'FILE', url: 'http://127.0.0.1:9/a.csv' }, 300003, 'dataset');
    });

    it('lists with a validated status filter; unknown sources are 300003', async () => {
      await expectError('GET', `/v1/team/datasets/${ds}/datasources?status=pending`, undefined, 100, 'status: expected a comma-separated list');
      const empty = data(await h.call('GET', `/v1/team/datasets/${ds}/datasources?status=synched,invalid`));
      assert.deepEqual(empty, { total: 0, pageNumber: 1, pageSize: 10, records: [] });
      await expectError('GET', `/v1/team/datasets/${ds}/datasources/nope`, undefined, 300003, 'data source');
      await expectError('DELETE', `/v1/team/datasets/${ds}/datasources/nope`, undefined, 300003, 'data source');
      await expectError('POST', `/v1/team/datasets/${ds}/datasources/nope/presign`, undefined, 300003, 'data source');
    });
  });

  describe('jobs (validation)', () => {
    it('rejects bad job requests with the real codes', async () => {
      await expectError('POST', '/v1/team/jobs', { question: 'hi' }, 100, 'sessionId: required');
      await expectError('POST', '/v1/team/jobs', { sessionId: 'nope', question: 'hi' }, 300003, 'session');
      const free = data(await h.call('GET', '/v1/team/sessions?userId=bulk&pageSize=1'));
      const sid = ((free['records'] as Rec[])[0] as Rec)['id'] as string;
      await expectError('POST', '/v1/team/jobs', { sessionId: sid }, 100, 'question: required');
      await expectError('POST', '/v1/team/jobs', { sessionId: sid, question: '   ' }, 100, 'question: must not be empty');
      await expectError('POST', '/v1/team/jobs', { sessionId: sid, question: 'q', stream: 'yes' }, 100, 'stream');
      await expectError('POST', '/v1/team/jobs', { sessionId: sid, question: 'q', languageType: 'xx' }, 100, 'languageType');
      await expectError('POST', '/v1/team/jobs', { sessionId: sid, question: 'q', datasourceIdList: 'a' }, 100, 'datasourceIdList');
      await expectError('POST', '/v1/team/jobs', { sessionId: sid, question: 'x'.repeat(6001) }, 210022, 'question', 400);
      await expectError('POST', '/v1/job', { sessionId: sid, question: 'x'.repeat(6001) }, 210022, 'question', 400);
      await expectError('POST', '/v1/team/jobs', { sessionId: sid, question: 'q', datasetId: 'nope' }, 300003, 'dataset');
      await expectError('POST', '/v1/team/jobs', { sessionId: sid, question: 'q', datasourceIdList: ['nope'] }, 300003, 'data source');
      const many = Array.from({ length: 1001 }, (_, i) => `id${i}`);
      await expectError('POST', '/v1/team/jobs', { sessionId: sid, question: 'q', datasourceIdList: many }, 210025, 'at most 1000', 400);
    });
  });
});
