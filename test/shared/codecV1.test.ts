import { strict as assert } from 'node:assert';
import { decodeBlocks, decodeEvent, encodeEvent, formatSseFrame } from '../../src/shared/blockCodecV1';
import { v1Codec } from '../../src/shared/codecV1';
import { answerBlocks, answerFromResult, foldEvents } from '../../src/shared/answerFold';
import type { JobEvent } from '../../src/shared/domain';

describe('v1 codec', () => {
  it('decodes the contract example status "pending" as awaiting processing', () => {
    const ds = v1Codec.decodeDataSource({ id: 'd1', datasetId: 'x', name: 'a', fileName: 'a.csv', type: 'FILE', status: 'pending' });
    assert.equal(ds.status, 'invalid');
  });

  it('accepts history TABLE content as a bare presigned URL and names it from the path', () => {
    const [b] = decodeBlocks([{ type: 'TABLE', content: 'https://s3.example/x/result%201.csv?X-Amz-Expires=600', groupId: 'g', stage: 'Respond' }]);
    assert.deepEqual(b, { type: 'TABLE', content: { url: 'https://s3.example/x/result%201.csv?X-Amz-Expires=600', name: 'result 1.csv' }, groupId: 'g', stage: 'Respond' });
  });

  it('normalises expires_at, snake_case sources and the fixed group ids', () => {
    const blocks = decodeBlocks([
      { type: 'IMAGE', content: { url: 'http://h/a.png', name: 'a.png', expires_at: '2026-01-01T00:00:00Z' }, groupId: 'r', groupName: 'Conclusions', stage: 'Respond' },
      { type: 'SOURCES', content: [{ id: 's', source: 'a.csv', datasource_id: 'd', dataset_id: 'k', file_type: 'csv', external_id: '' }], groupId: '-1', stage: 'Respond' },
      { type: 'QUESTIONS', content: ['q1', 7, 'q2'], groupId: 'zz', groupName: 'x', stage: 'Respond' },
      { type: 'FUTURE_KIND', content: 1 },
    ]);
    assert.equal(blocks.length, 3);
    assert.deepEqual(blocks[0]!.content, { url: 'http://h/a.png', name: 'a.png', expiredAt: '2026-01-01T00:00:00Z' });
    assert.equal(blocks[1]!.groupId, '');
    assert.deepEqual(blocks[1]!.content, [{ id: 's', source: 'a.csv', datasourceId: 'd', datasetId: 'k', fileType: 'csv', externalId: '' }]);
    assert.equal(blocks[2]!.groupId, '-1');
    assert.equal(blocks[2]!.groupName, undefined);
    assert.deepEqual(blocks[2]!.content, ['q1', 'q2']);
  });

  it('carries a cancelled or failed job in history both ways; a record without a status is finished', () => {
    const blocks = [{ type: 'MESSAGE' as const, content: 'Partial', groupId: 'g', groupName: 'Respond', stage: 'Respond' as const }];
    for (const state of ['cancelled', 'error'] as const) {
      const wire = v1Codec.encodeHistoryRecord({ jobId: 'j1', question: { blocks: [{ type: 'MESSAGE', content: 'q' }] }, answer: { blocks, state } });
      assert.equal((wire['answer'] as Record<string, unknown>)['status'], state.toUpperCase());
      assert.equal(v1Codec.decodeHistoryRecord(JSON.parse(JSON.stringify(wire))).answer.state, state);
    }
    assert.equal(v1Codec.decodeHistoryRecord({ jobId: 'j2', question: { blocks: [] }, answer: { blocks: [] } }).answer.state, undefined);
  });

  it('rejects malformed blocks with the field named', () => {
    assert.throws(() => decodeBlocks([{ type: 'MESSAGE', content: { no: 1 }, groupId: 'g', stage: 'Respond' }]), /blocks\[0\]\.content: expected a string/);
    assert.throws(() => decodeEvent('MESSAGE', '{not json'), /MESSAGE data: expected JSON/);
  });

  it('encodes events as the real service frames them and decodes them back', () => {
    const events: JobEvent[] = [
      { kind: 'JOB_ID', jobId: 'j1' },
      { kind: 'TITLE_GENERATION', title: 'Sales\nreview' },
      { kind: 'TASK', place: { groupId: 'g1', groupName: 'Load', stage: 'Analyze' }, task: { id: 'g1', name: 'Load', status: 'running', stage: 'Analyze' } },
      { kind: 'BLOCK', block: { type: 'CODE', content: '```sql\nSELECT 1\n```', groupId: 'g1', groupName: 'Load', stage: 'Analyze' } },
      { kind: 'TASK', place: { groupId: 'g1', groupName: 'Load', stage: 'Analyze' }, task: { id: 'g1', name: 'Load', status: 'done', stage: 'Analyze' } },
      { kind: 'BLOCK', block: { type: 'MESSAGE', content: 'Hello ', groupId: 'r', groupName: 'Conclusions', stage: 'Respond' } },
      { kind: 'BLOCK', block: { type: 'MESSAGE', content: 'wörld 📈', groupId: 'r', groupName: 'Conclusions', stage: 'Respond' } },
      { kind: 'BLOCK', block: { type: 'QUESTIONS', content: ['next?'], groupId: '-1', stage: 'Respond' } },
      { kind: 'BLOCK', block: { type: 'SOURCES', content: [{ source: 'a.csv', datasourceId: 'd', datasetId: 'k', fileType: 'csv', externalId: '' }], groupId: '', stage: 'Respond' } },
      { kind: 'END', ok: true },
    ];
    const text = events.map((e) => formatSseFrame(encodeEvent(e, 1700000000)!)).join('');
    assert.match(text, /^event:JOB_ID\ndata:j1\n\n/);
    assert.match(text, /\nid:-1\nevent:SOURCES\n/);
    assert.doesNotMatch(text, /^(id|event|data): /m);
    const decoded = text.split('\n\n').filter(Boolean).map((frame) => {
      const lines = frame.split('\n');
      const ev = lines.find((l) => l.startsWith('event:'))!.slice(6);
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n');
      return decodeEvent(ev, data);
    });
    const streamed = foldEvents(decoded);
    assert.equal(streamed.title, 'Sales\nreview');
    assert.equal(streamed.state, 'done');
    const nonStream = answerFromResult({ jobId: 'j1', blocks: answerBlocks(foldEvents(events)) });
    assert.deepEqual(answerBlocks(streamed), answerBlocks(nonStream));
    assert.equal(answerBlocks(streamed).find((b) => b.type === 'MESSAGE')!.content, 'Hello wörld 📈');
  });
});
