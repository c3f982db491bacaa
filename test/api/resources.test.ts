/**
 * Every endpoint's wire shape (method, path, query, body) against a scripted server, decoding of
 * its answer, paging iterators, argument checks that stop bad calls before sending, and polling a
 * data source until it is synched.
 */
import { strict as assert } from 'node:assert';
import { TeamDataClient, TeamDataError } from '../../src/api/index';
import { FaultServer, ok, sendEnvelope, type RecordedRequest } from '../helpers/faultServer';
import { API_KEY, rejection, USER_ID } from './support';

const ds = (id: string, status: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id, datasetId: 'set-1', name: `${id}.csv`, fileName: `${id}.csv`, type: 'FILE', status, ...extra,
});

function wire(r: RecordedRequest | undefined): { method: string; path: string; query: Record<string, string>; body: unknown } {
  assert.ok(r, 'no request recorded');
  const text = r.body.toString();
  return { method: r.method, path: r.path, query: Object.fromEntries(r.query), body: text === '' ? undefined : JSON.parse(text) };
}

async function code(p: Promise<unknown>): Promise<unknown> {
  const err = await rejection(p);
  assert.ok(err instanceof TeamDataError, String(err));
  return err.code;
}

describe('api resources on the wire', function () {
  let server: FaultServer;
  let client: TeamDataClient;

  beforeEach(async () => {
    server = await FaultServer.start();
    client = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, userId: USER_ID });
  });
  afterEach(() => server.close());

  it('datasets: create, modify, list, delete, status, overview', async () => {
    server.enqueue(
      ok({ id: 'set-1' }),
      ok(null),
      ok({ total: 1, pageNumber: 2, pageSize: 5, records: [{ id: 'set-1', name: 'Sales', description: 'Q3' }] }),
      ok(null),
      ok({ datasetId: 'set-1', total: 3, synched: 1, synching: 1, invalid: 1 }),
      ok({ dataset: { id: 'set-1', name: 'Sales', description: 'Q3' }, dataSourceCount: 3, totalBytes: 1234, statuses: { total: 3, synched: 3 } }),
    );
    assert.deepEqual(await client.datasets.create({ name: 'Sales', description: 'Q3' }), { id: 'set-1' });
    await client.datasets.modify('set-1', { name: 'Sales 2', description: '' });
    const page = await client.datasets.list({ keyword: 'Sal', pageNumber: 2, pageSize: 5 });
    await client.datasets.delete('set-1');
    const status = await client.datasets.status('set-1');
    const overview = await client.datasets.overview('set-1');
    assert.deepEqual(page, { total: 1, pageNumber: 2, pageSize: 5, records: [{ id: 'set-1', name: 'Sales', description: 'Q3' }] });
    assert.deepEqual(status, { datasetId: 'set-1', total: 3, synched: 1, synching: 1, invalid: 1 });
    assert.equal(overview.totalBytes, 1234);
    assert.equal(overview.statuses.synched, 3);
    assert.deepEqual(server.requests.map(wire), [
      { method: 'POST', path: '/v1/team/datasets', query: {}, body: { name: 'Sales', description: 'Q3' } },
      { method: 'POST', path: '/v1/team/datasets/set-1', query: { userId: USER_ID }, body: { name: 'Sales 2', description: '' } },
      { method: 'GET', path: '/v1/team/datasets', query: { pageNumber: '2', pageSize: '5', name: 'Sal' }, body: undefined },
      { method: 'DELETE', path: '/v1/team/datasets/set-1', query: { userId: USER_ID }, body: undefined },
      { method: 'GET', path: '/v1/team/datasets/set-1/status', query: {}, body: undefined },
      { method: 'GET', path: '/v1/team/datasets/set-1/overview', query: {}, body: undefined },
    ]);
  });

  it('iterates every page, and stops on a service that ignores the page number', async () => {
    const records = Array.from({ length: 5 }, (_, i) => ({ id: `d${i}`, name: `n${i}`, description: '' }));
    server.otherwise((req, res) => {
      const n = Number(req.query.get('pageNumber'));
      const size = Number(req.query.get('pageSize'));
      sendEnvelope(res, 200, 0, { total: 5, pageNumber: n, pageSize: size, records: records.slice((n - 1) * size, n * size) });
    });
    const ids: string[] = [];
    for await (const d of client.datasets.iterate({ pageSize: 2 })) ids.push(d.id);
    assert.deepEqual(ids, ['d0', 'd1', 'd2', 'd3', 'd4']);
    assert.deepEqual(server.requests.map((r) => r.query.get('pageNumber')), ['1', '2', '3']);

    server.otherwise(ok({ total: 4, pageNumber: 1, pageSize: 2, records: records.slice(0, 2) }));
    let count = 0;
    for await (const _d of client.datasets.iterate({ pageSize: 2 })) count++;
    assert.equal(count, 4);
  });

  it('data sources: create (userId in query and body), without dataset, list by status, get, delete, presign', async () => {
    server.enqueue(
      ok(ds('ds-1', 'pending')),
      ok(ds('ds-2', 'synching', { datasetId: 'auto-9' })),
      ok({ total: 1, pageNumber: 1, pageSize: 10, records: [ds('ds-1', 'synched')] }),
      ok(ds('ds-1', 'synched', { size: 42 })),
      ok(null),
      ok({ url: 'https://files.example.test/x.csv?sig=1', expiredAt: '2026-11-21T12:00:00Z' }),
    );
    const created = await client.dataSources.create('set-1', { fileName: 'sales.csv', fileKey: 'uploads/k' });
    assert.equal(created.status, 'invalid', 'the contract example status "pending" means awaiting processing');
    assert.equal((await client.dataSources.createWithoutDataset({ fileName: 'a.csv', url: 'https://example.test/a.csv' })).datasetId, 'auto-9');
    assert.equal((await client.dataSources.list('set-1', { statuses: ['synching', 'synched'] })).records[0]?.status, 'synched');
    assert.equal((await client.dataSources.get('set-1', 'ds-1')).size, 42);
    await client.dataSources.delete('set-1', 'ds-1');
    assert.deepEqual(await client.dataSources.presign('set-1', 'ds-1'), { url: 'https://files.example.test/x.csv?sig=1', expiredAt: '2026-11-21T12:00:00Z' });
    assert.deepEqual(server.requests.map(wire), [
      { method: 'POST', path: '/v1/team/datasets/set-1/datasources', query: { userId: USER_ID }, body: { fileName: 'sales.csv', type: 'FILE', fileKey: 'uploads/k', userId: USER_ID } },
      { method: 'POST', path: '/v1/team/datasources', query: { userId: USER_ID }, body: { fileName: 'a.csv', type: 'FILE', url: 'https://example.test/a.csv', userId: USER_ID } },
      { method: 'GET', path: '/v1/team/datasets/set-1/datasources', query: { status: 'synching,synched' }, body: undefined },
      { method: 'GET', path: '/v1/team/datasets/set-1/datasources/ds-1', query: {}, body: undefined },
      { method: 'DELETE', path: '/v1/team/datasets/set-1/datasources/ds-1', query: { userId: USER_ID }, body: undefined },
      { method: 'POST', path: '/v1/team/datasets/set-1/datasources/ds-1/presign', query: {}, body: {} },
    ]);
  });

  it('sessions: create (agent, user), modify, get, list by title, delete, history pages', async () => {
    const session = { id: 's1', title: 'Sales', languageType: 'EN', jobMode: 'AUTO', maxMessagesInContext: 5, agentId: 'DATA_ANALYSIS_AGENT', userId: USER_ID };
    const record = { jobId: 'j1', question: { blocks: [{ type: 'MESSAGE', content: 'why?' }] }, answer: { blocks: [{ type: 'TABLE', content: 'https://f.example.test/t.csv?X-Amz-Expires=600', groupId: 'g', groupName: 'Conclusions', stage: 'Respond' }] } };
    server.enqueue(
      ok({ id: 's1' }),
      ok(null),
      ok(session),
      ok({ total: 1, pageNumber: 1, pageSize: 10, records: [session] }),
      ok(null),
      ok({ total: 1, pageNumber: 1, pageSize: 100, records: [record] }),
    );
    assert.deepEqual(await client.sessions.create({ title: 'Sales', languageType: 'EN', maxMessagesInContext: 5 }), { id: 's1' });
    await client.sessions.modify('s1', { title: 'Renamed' });
    assert.deepEqual(await client.sessions.get('s1'), session);
    assert.equal((await client.sessions.list({ keyword: 'Sal' })).records[0]?.title, 'Sales');
    await client.sessions.delete('s1');
    const history = [];
    for await (const h of client.sessions.iterateHistory('s1')) history.push(h);
    assert.equal(history.length, 1);
    const table = history[0]?.answer.blocks[0];
    assert.equal(table?.type === 'TABLE' ? table.content.name : undefined, 't.csv');
    assert.deepEqual(server.requests.map(wire), [
      { method: 'POST', path: '/v1/team/sessions', query: {}, body: { title: 'Sales', languageType: 'EN', maxMessagesInContext: 5, agentId: 'DATA_ANALYSIS_AGENT', userId: USER_ID } },
      { method: 'POST', path: '/v1/team/sessions/s1', query: { userId: USER_ID }, body: { title: 'Renamed' } },
      { method: 'GET', path: '/v1/team/sessions/s1', query: { userId: USER_ID }, body: undefined },
      { method: 'GET', path: '/v1/team/sessions', query: { title: 'Sal', userId: USER_ID }, body: undefined },
      { method: 'DELETE', path: '/v1/team/sessions/s1', query: { userId: USER_ID }, body: undefined },
      { method: 'GET', path: '/v1/team/sessions/s1/history', query: { pageNumber: '1', pageSize: '100', userId: USER_ID }, body: undefined },
    ]);
  });

  it('the session limit (300009) surfaces with its actionable message', async () => {
    server.enqueue((_req, res) => sendEnvelope(res, 200, 300009, null, 'session limit'));
    const err = await rejection(client.sessions.create({ title: 'one too many' }));
    assert.ok(err instanceof TeamDataError);
    assert.equal(err.code, 300009);
    assert.equal(err.message, 'session limit reached: delete sessions first');
    assert.equal(err.serviceMessage, 'session limit');
    assert.equal(err.httpStatus, 200);
  });

  it('encodes ids into paths instead of letting them change the route', async () => {
    server.enqueue(ok({ id: 'a/b?c', title: '' }));
    await client.sessions.get('a/b?c');
    assert.equal(server.requests[0]?.target.split('?')[0], '/v1/team/sessions/a%2Fb%3Fc');
  });

  it('rejects bad arguments before sending anything', async () => {
    const noUser = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY });
    const calls: Array<() => Promise<unknown>> = [
      () => client.dataSources.create('set-1', { fileName: 'a.csv', url: 'https://x.test/a.csv', fileKey: 'k' }),
      () => client.dataSources.create('set-1', { fileName: 'a.csv' }),
      () => client.dataSources.create('set-1', { fileName: '', url: 'https://x.test/a.csv' }),
      () => noUser.dataSources.create('set-1', { fileName: 'a.csv', url: 'https://x.test/a.csv' }),
      () => client.dataSources.list('set-1', { statuses: ['done'] }),
      () => client.datasets.delete(''),
      () => client.datasets.create({ name: ' ', description: '' }),
      () => client.datasets.list({ pageSize: 0 }),
      () => client.sessions.create({ maxMessagesInContext: 11 }),
      () => client.jobs.run({ sessionId: '', question: 'q' }),
      () => client.jobs.run({ sessionId: 's', question: '  ' }),
      async () => {
        for await (const _s of client.dataSources.iterate('', {})) assert.fail('no records expected');
      },
    ];
    for (const call of calls) assert.equal(await code(call()), 'INVALID_ARGUMENT');
    assert.throws(() => client.jobs.stream({ sessionId: 's', question: '' }), TeamDataError);
    assert.equal(server.requests.length, 0);
  });

  it('waitUntilSynched polls through invalid and synching to synched, reporting each state', async () => {
    server.enqueue(ok(ds('ds-1', 'invalid')), ok(ds('ds-1', 'synching')), ok(ds('ds-1', 'synching')), ok(ds('ds-1', 'synched')));
    const seen: string[] = [];
    const done = await client.dataSources.waitUntilSynched('set-1', 'ds-1', { intervalMs: 1, onStatus: (s) => seen.push(s.status) });
    assert.equal(done.status, 'synched');
    assert.deepEqual(seen, ['invalid', 'synching', 'synching', 'synched']);
  });

  it('waitUntilSynched rejects with the reason when processing fails', async () => {
    server.enqueue(ok(ds('ds-1', 'synching')), ok(ds('ds-1', 'invalid', { error: 'not a CSV: binary content' })));
    const err = await rejection(client.dataSources.waitUntilSynched('set-1', 'ds-1', { intervalMs: 1 }));
    assert.ok(err instanceof TeamDataError);
    assert.equal(err.code, 'DATASOURCE_INVALID');
    assert.equal(err.serviceMessage, 'not a CSV: binary content');
    assert.match(err.message, /ds-1\.csv could not be processed: not a CSV/);

    server.enqueue(ok(ds('ds-2', 'synching')), ok(ds('ds-2', 'invalid')));
    assert.equal(await code(client.dataSources.waitUntilSynched('set-1', 'ds-2', { intervalMs: 1 })), 'DATASOURCE_INVALID');
  });

  it('waitUntilSynched times out and aborts', async () => {
    server.otherwise(ok(ds('ds-1', 'synching')));
    assert.equal(await code(client.dataSources.waitUntilSynched('set-1', 'ds-1', { intervalMs: 5, timeoutMs: 40 })), 'TIMEOUT');
    const ac = new AbortController();
    const waiting = client.dataSources.waitUntilSynched('set-1', 'ds-1', { intervalMs: 60_000, signal: ac.signal, onStatus: () => ac.abort() });
    assert.equal(await code(waiting), 'ABORTED');
  });
});
