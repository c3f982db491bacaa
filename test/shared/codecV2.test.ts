/**
 * The v2 codec against the v2 OpenAPI's own examples (test/fixtures/v2openapi/examples.json), both
 * directions: the client decoders read every response example, the server's request decoders read
 * every request example, and every domain object survives encode -> JSON -> decode.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeEvent } from '../../src/shared/blockCodecV1';
import { encodeEventV2 } from '../../src/shared/blockCodecV2';
import { bareEtag, v2Codec, v2Multipart } from '../../src/shared/codecV2';
import type { Block, DataSource, DatasetOverview, HistoryRecord, JobEvent, Session } from '../../src/shared/domain';
import { v2RequestCodec } from '../../src/shared/requestCodecV2';

type Rec = Record<string, unknown>;
const ex = JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'v2openapi', 'examples.json'), 'utf8')) as Record<string, { data: unknown }> & { requests: Record<string, unknown> };
const roundTrip = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('v2 codec', () => {
  describe('reads the OpenAPI response examples', () => {
    it('sessions: list page and one session', () => {
      const page = v2Codec.decodePage(ex['listSessions']!.data, (r) => v2Codec.decodeSession(r));
      assert.deepEqual({ total: page.total, pageNumber: page.pageNumber, pageSize: page.pageSize }, { total: 8, pageNumber: 1, pageSize: 10 });
      assert.deepEqual(page.records[1], {
        id: '3eb5e294-11eb-4bf0-8854-7177c415d15c', title: 'trade_analyze_001', languageType: 'ZH-CN', jobMode: 'AUTO', maxMessagesInContext: 10, agentId: 'DATA_ANALYSIS_AGENT',
      });
      assert.equal(v2Codec.decodeSession(ex['getSession']!.data).languageType, 'HI');
    });

    it('history: job_id, question blocks, a bare-URL TABLE, SOURCES with group id "" and QUESTIONS with -1', () => {
      const page = v2Codec.decodePage(ex['history']!.data, (r) => v2Codec.decodeHistoryRecord(r));
      const rec = page.records[0] as HistoryRecord;
      assert.equal(rec.jobId, 'job-1dsfasddfasgddsaffds');
      assert.deepEqual(rec.answer.blocks.map((b) => b.type), ['MESSAGE', 'TABLE', 'MESSAGE', 'SOURCES', 'QUESTIONS']);
      const table = rec.answer.blocks[1] as Extract<Block, { type: 'TABLE' }>;
      assert.equal(table.content.name, 'baf7d6d1-fb81-4fdb-bcdd-32923d214c7b.csv');
      assert.equal(table.groupName, 'Identify the channels with negative sales values.');
      const sources = rec.answer.blocks[3] as Extract<Block, { type: 'SOURCES' }>;
      assert.equal(sources.content[0]?.datasourceId, 'cm2ej4wmo000001fcdkwbdrml');
      assert.equal(rec.answer.blocks[4]?.groupId, '-1');
    });

    it('overview: summary, exploration_questions and keywords (a list, though the schema says string)', () => {
      const o = v2Codec.decodeDatasetOverview(ex['overview']!.data);
      assert.equal(o.dataset.id, 'dset-cm5axptyyxxx298');
      assert.equal(o.summary, 'This dataset contains 373 travel bookings with 15 attributes.');
      assert.equal(o.explorationQuestions?.length, 2);
      assert.deepEqual(o.keywords, ['Travel Bookings', 'Booking Trends', 'Travel Agencies']);
      assert.deepEqual(v2Codec.decodeDatasetOverview({ id: 'x', keywords: 'a, b' }).keywords, ['a', 'b']);
    });

    it('datasets, data sources (size, no file_name), status counts, presign, upload', () => {
      const ds = v2Codec.decodePage(ex['listDatasets']!.data, (r) => v2Codec.decodeDataset(r));
      assert.deepEqual(ds.records, [{ id: 'dataset-dasfadsgadsgas', name: 'mysql', description: 'mysql databases' }]);
      const src = v2Codec.decodePage(ex['listDatasources']!.data, (r) => v2Codec.decodeDataSource(r)).records[0] as DataSource;
      assert.deepEqual(src, {
        id: 'ds-cm8iikpzv000b01fcq6ozrjtd', datasetId: 'dset-cm8iikpc7018f01l1b796jkgu', name: 'olist_sellers_dataset.csv', fileName: 'olist_sellers_dataset.csv', type: 'FILE', status: 'synched', size: 174703,
      });
      assert.equal(v2Codec.decodeDataSource(ex['createDatasource']!.data).status, 'synching');
      assert.deepEqual(v2Codec.decodeDatasetStatus(ex['status']!.data, 'd'), { datasetId: 'd', total: 5, synched: 5, synching: 0, invalid: 0 });
      assert.deepEqual(v2Codec.decodePresign(ex['presign']!.data), { url: 'string', expiredAt: '2024-11-13T14:15:22.123Z' });
      assert.deepEqual(v2Codec.decodeUploadResult(ex['upload']!.data), { fileKey: '/tmp/sdgsagdsgsadgasdg.csv' });
    });

    it('a non-stream job: job_id and blocks with expires_at, group_name null on QUESTIONS', () => {
      const r = v2Codec.decodeJobResult(ex['createJob']!.data);
      assert.equal(r.jobId, 'job-cm3ikdeuj02zk01l1yeuirt77');
      assert.deepEqual(r.blocks.map((b) => b.type), ['CODE', 'TABLE', 'IMAGE', 'MESSAGE', 'SOURCES', 'QUESTIONS']);
      const img = r.blocks[2] as Extract<Block, { type: 'IMAGE' }>;
      assert.equal(img.content.expiredAt, '2024-11-21T09:56:34.290544Z');
      assert.equal(r.blocks[5]?.groupName, undefined);
    });

    it('multipart init: upload_id, file_object_key and part_items', () => {
      const plan = v2Multipart.decodeInit(ex['initMultipart']!.data);
      assert.equal(plan.uploadId, '5k3EJxAYgtHW1fkbF54ppKEiTWSBeFBQ');
      assert.deepEqual(plan.parts.map((p) => [p.number, p.size]), [[1, 1024]]);
      assert.equal(bareEtag('"abc"'), 'abc');
      assert.equal(bareEtag('W/"abc"'), 'abc');
    });
  });

  describe('the server reads the OpenAPI request examples', () => {
    const req = ex.requests;
    it('sessions (DATA_ANALYSIS read as DATA_ANALYTICS), datasets, data sources, deletes, presign', () => {
      assert.deepEqual(v2RequestCodec.decodeSessionBody(req['createSession']), {
        title: 'My session', languageType: 'FR', jobMode: 'AUTO', maxMessagesInContext: 10, agentId: 'DATA_ANALYSIS_AGENT', userId: 'tmm-dafasdfasdfasdf',
      });
      assert.equal(v2RequestCodec.decodeSessionPatch(req['modifySession']).jobMode, 'DATA_ANALYTICS');
      assert.deepEqual(v2RequestCodec.decodeDatasetBody(req['createDataset']), { name: 'My dataset', description: 'my default dataset', userId: 'tmm-dafasdfasdfasdf' });
      assert.deepEqual(v2RequestCodec.decodeDataSourceBody(req['createDatasource']), {
        fileName: 'test.csv', name: 'test.csv', fileKey: '/tmp/sdgsagdsgsadgasdg', userId: 'tmm-dafasdfasdfasdf',
      });
      assert.deepEqual(v2RequestCodec.decodeDeleteBody(req['deleteSession']), { userId: 'tmm-dafasdfasdfasdf' });
      assert.deepEqual(v2RequestCodec.decodeDeleteBody(undefined), {});
      assert.deepEqual(v2RequestCodec.decodePresignBody(req['presign']), { expiresInSec: 600, userId: 'tmm-dafasdfasdfasdf' });
    });

    it('jobs, and multipart init and complete (`number` as the example sends it)', () => {
      assert.deepEqual(v2RequestCodec.decodeJobBody(req['createJob']), {
        sessionId: 'cxxdgegeegeg3433fff', question: 'Hello World', stream: true, datasetId: 'cm1gjmg8e0057r3x22v1fdu8m',
        datasourceIdList: ['cm1gjmmoo0001h0x24uk1xgu9'], languageType: 'AUTO', jobMode: 'AUTO', userId: 'tmm-dafasdfasdfasdf',
      });
      assert.deepEqual(v2RequestCodec.decodeInitMultipart(req['initMultipart']), { fileName: 'sales_data.csv', fileSize: 1024, userId: 'tmm-cm8gt41kuxxxx1l1d1n2wz8v' });
      const c = v2RequestCodec.decodeCompleteMultipart(req['completeMultipart']);
      assert.deepEqual(c.parts, [{ number: 1, etag: '124AD7DCA' }]);
      assert.deepEqual(v2RequestCodec.decodeCompleteMultipart({ ...(req['completeMultipart'] as Rec), part_etags: [{ part_number: 2, etag: 'e' }] }).parts, [{ number: 2, etag: 'e' }]);
    });
  });

  describe('round trips (client encodes, server decodes; server encodes, client decodes)', () => {
    it('session, job and data source bodies', () => {
      const body = roundTrip(v2Codec.encodeSessionBody({ title: 'T', languageType: 'DE', jobMode: 'DATA_ANALYTICS', maxMessagesInContext: 0, userId: 'u' }));
      assert.deepEqual(v2RequestCodec.decodeSessionBody(body), { title: 'T', languageType: 'DE', jobMode: 'DATA_ANALYTICS', maxMessagesInContext: 0, userId: 'u', agentId: 'DATA_ANALYSIS_AGENT' });
      const job = { sessionId: 's', question: 'q', datasetId: 'd', datasourceIdList: ['a', 'b'], languageType: 'EN' as const, jobMode: 'AUTO' as const, customOptions: { userPrompt: 'p', withCitation: false }, userId: 'u' };
      assert.deepEqual(v2RequestCodec.decodeJobBody(roundTrip(v2Codec.encodeJobBody(job, true))), { ...job, stream: true });
      const src = roundTrip(v2Codec.encodeDataSourceBody({ fileName: 'x.csv', name: 'Nice name', fileKey: 'k' }, 'u'));
      assert.deepEqual(src, { name: 'x.csv', type: 'FILE', file_object_key: 'k', user_id: 'u' });
      assert.deepEqual(roundTrip(v2Codec.encodeDeleteBody('u')), { user_id: 'u' });
      const complete = v2RequestCodec.decodeCompleteMultipart(roundTrip(v2Multipart.encodeCompleteBody({ fileKey: 'k', uploadId: 'up', parts: [{ number: 1, etag: 'e' }], userId: 'u' })));
      assert.deepEqual(complete, { fileKey: 'k', uploadId: 'up', parts: [{ number: 1, etag: 'e' }], userId: 'u' });
    });

    it('resources, pages, history, overview and status', () => {
      const session: Session = { id: 's', title: 'T', languageType: 'ZH-TW', jobMode: 'AUTO', maxMessagesInContext: 4, agentId: 'DATA_ANALYSIS_AGENT', userId: 'u' };
      assert.deepEqual(v2Codec.decodeSession(roundTrip(v2Codec.encodeSession(session))), session);
      const source: DataSource = { id: 'i', datasetId: 'd', name: 'a.csv', fileName: 'a.csv', type: 'FILE', status: 'invalid', error: 'bad', size: 3, userId: 'u' };
      assert.deepEqual(v2Codec.decodeDataSource(roundTrip(v2Codec.encodeDataSource(source))), source);
      const page = roundTrip(v2Codec.encodePage({ total: 3, pageNumber: 2, pageSize: 1, records: [source] }, v2Codec.encodeDataSource));
      assert.deepEqual(Object.keys(page).sort(), ['page_number', 'page_size', 'records', 'total_items']);
      assert.deepEqual(v2Codec.decodePage(page, (r) => v2Codec.decodeDataSource(r)), { total: 3, pageNumber: 2, pageSize: 1, records: [source] });
      const blocks: Block[] = [
        { type: 'MESSAGE', content: 'm', groupId: 'g', groupName: 'G', stage: 'Analyze' },
        { type: 'TABLE', content: { url: 'http://h/t.csv', name: 't.csv', expiredAt: '2030-01-01T00:00:00Z' }, groupId: 'g', groupName: 'G', stage: 'Analyze' },
        { type: 'SOURCES', content: [{ id: '1', source: 'a.csv', datasourceId: 'd', datasetId: 'k', fileType: 'csv', externalId: '', pageNo: 2, content: 'x' }], groupId: '', stage: 'Respond' },
        { type: 'QUESTIONS', content: ['q'], groupId: '-1', stage: 'Respond' },
      ];
      const rec: HistoryRecord = { jobId: 'j', question: { blocks: [{ type: 'MESSAGE', content: 'q?' }] }, answer: { blocks, state: 'cancelled' } };
      assert.deepEqual(v2Codec.decodeHistoryRecord(roundTrip(v2Codec.encodeHistoryRecord(rec))), rec);
      assert.deepEqual(v2Codec.decodeJobResult(roundTrip(v2Codec.encodeJobResult({ jobId: 'j', blocks }))), { jobId: 'j', blocks });
      const overview: DatasetOverview = {
        dataset: { id: 'd', name: 'n', description: 'x' }, dataSourceCount: 2, totalBytes: 10, statuses: { datasetId: 'd', total: 2, synched: 1, synching: 1, invalid: 0 },
        summary: 's', explorationQuestions: ['q'], keywords: ['k'],
      };
      assert.deepEqual(v2Codec.decodeDatasetOverview(roundTrip(v2Codec.encodeDatasetOverview(overview))), overview);
    });

    it('stream events in v2 spelling decode back to the same events', () => {
      const place = { groupId: 'g', groupName: 'G', stage: 'Analyze' as const };
      const events: JobEvent[] = [
        { kind: 'JOB_ID', jobId: 'job-1' },
        { kind: 'TITLE_GENERATION', title: 'T' },
        { kind: 'TASK', place, task: { id: 'g', name: 'G', status: 'running', stage: 'Analyze', parentId: 'p', properties: { files: 'a.csv' } } },
        { kind: 'BLOCK', block: { type: 'CODE', content: '```sql\nSELECT 1\n```', ...place } },
        { kind: 'BLOCK', block: { type: 'IMAGE', content: { url: 'http://h/c.png', name: 'c.png', expiredAt: '2030-01-01T00:00:00Z' }, ...place } },
        { kind: 'END', ok: true },
      ];
      for (const e of events) {
        const frame = encodeEventV2(e, 1);
        assert.ok(frame);
        if (e.kind !== 'JOB_ID' && e.kind !== 'TITLE_GENERATION' && e.kind !== 'END') assert.match(frame.data, /"group_id":"g","group_name":"G"/);
        assert.doesNotMatch(frame.data, /groupId|expiredAt/);
        assert.deepEqual(decodeEvent(frame.event, frame.data), e);
      }
    });
  });
});
