/**
 * Recorded streams through the decoder and the fold: whole, split at every single byte offset, and
 * split at many seeded random offsets (inside multi-byte characters and inside CRLFs included).
 * Every split must give the identical Answer, and the Answer must match the non-stream response.
 */
import { strict as assert } from 'node:assert';
import { JobEventDecoder } from '../../src/api/sseDecoder';
import { AnswerBuilder } from '../../src/shared/answerFold';
import type { Answer, JobEvent } from '../../src/shared/domain';
import {
  comparableBlocks, comparableGroups, FIXTURE_NAMES, fixtureBytes, nonStreamAnswer, prng, randomSplit, trickyOffsets,
} from './support';

function fold(chunks: readonly Uint8Array[]): { answer: Answer; events: JobEvent[]; bad: string[] } {
  const builder = new AnswerBuilder();
  const events: JobEvent[] = [];
  const bad: string[] = [];
  const decoder = new JobEventDecoder({
    event: (e) => {
      events.push(e);
      builder.push(e);
    },
    badFrame: (event, err) => bad.push(`${event}: ${err.message}`),
    fatal: (m) => bad.push(`fatal: ${m}`),
  });
  for (const c of chunks) decoder.feed(c);
  decoder.end();
  return { answer: builder.snapshot(), events, bad };
}

describe('api/sseDecoder + answerFold on recorded streams', () => {
  for (const name of FIXTURE_NAMES) {
    describe(name, () => {
      const bytes = fixtureBytes(name);
      const whole = fold([bytes]);
      const expected = JSON.stringify(whole.answer);
      // Comparing serialisations keeps thousands of checks fast; deepEqual explains a mismatch.
      const same = (answer: Answer, what: string): void => {
        if (JSON.stringify(answer) !== expected) assert.deepEqual(answer, whole.answer, what);
      };

      it('decodes the whole stream without bad frames into a done answer', () => {
        assert.deepEqual(whole.bad, []);
        assert.equal(whole.answer.state, 'done');
        assert.ok(whole.answer.jobId.startsWith('job-'));
        assert.ok(whole.answer.title && whole.answer.title.length > 0);
      });

      it('matches the non-stream response block for block (stream/non-stream parity)', () => {
        const ns = nonStreamAnswer(name);
        assert.deepEqual(comparableBlocks(whole.answer), comparableBlocks(ns));
        assert.deepEqual(comparableGroups(whole.answer), comparableGroups(ns));
        assert.equal(whole.answer.jobId, ns.jobId);
      });

      it('gives the identical answer when split at every single byte offset', () => {
        for (let at = 1; at < bytes.length; at++) {
          const { answer, bad } = fold([bytes.subarray(0, at), bytes.subarray(at)]);
          assert.deepEqual(bad, [], `split at ${at}`);
          same(answer, `split at ${at}`);
        }
      });

      it('gives the identical answer when split at many random offsets', () => {
        const random = prng(0xc0ffee + name.length);
        for (let run = 0; run < 200; run++) {
          const chunks = randomSplit(bytes, 2 + Math.floor(random() * 300), random);
          const { answer, bad } = fold(chunks);
          assert.deepEqual(bad, [], `run ${run}`);
          same(answer, `run ${run}`);
        }
      });

      it('survives one-byte chunks', () => {
        const chunks = Array.from(bytes, (_b, i) => bytes.subarray(i, i + 1));
        assert.deepEqual(fold(chunks).answer, whole.answer);
      });

      it('has split points inside multi-byte characters to test (fixture sanity)', () => {
        const tricky = trickyOffsets(bytes);
        if (name === 'regional-zh') assert.ok(tricky.length > 100, `only ${tricky.length} tricky offsets`);
        for (const at of tricky) {
          same(fold([bytes.subarray(0, at), bytes.subarray(at)]).answer, `split at ${at}`);
        }
      });
    });
  }

  describe('quirks', () => {
    const sales = fold([fixtureBytes('sales-overview')]).answer;
    const zh = fold([fixtureBytes('regional-zh')]).answer;

    it('counts a TASK error followed by running as a retry and ends done', () => {
      const g = sales.groups.find((x) => x.name === 'Aggregate revenue by region');
      assert.equal(g?.status, 'done');
      assert.equal(g?.errors, 1);
    });

    it('keeps TABLE/IMAGE re-sent in the Respond group once (URLs differing only in the query)', () => {
      for (const a of [sales, zh]) {
        const files = a.groups.flatMap((g) => g.blocks).filter((b) => b.type === 'TABLE' || b.type === 'IMAGE');
        assert.equal(files.length, 2);
        assert.ok(files.every((b) => b.stage === 'Analyze'));
      }
    });

    it('joins hundreds of fragments exactly, across interleaved groups, a block in between and snapshots taken mid-stream', () => {
      const b = new AnswerBuilder();
      // The plain model of the fold: a MESSAGE extends its group's last block when that is a MESSAGE.
      const model = new Map<string, Array<{ type: string; content: string }>>();
      const add = (groupId: string, type: 'MESSAGE' | 'CODE', content: string): void => {
        b.push({ kind: 'BLOCK', block: { groupId, groupName: groupId, stage: 'Respond', type, content } });
        const blocks = model.get(groupId) ?? [];
        model.set(groupId, blocks);
        const last = blocks[blocks.length - 1];
        if (type === 'MESSAGE' && last?.type === 'MESSAGE') last.content += content;
        else blocks.push({ type, content });
      };
      const seen = (): unknown => b.snapshot().groups.map((g) => g.blocks.map((k) => ({ type: k.type, content: k.content })));
      let seed = 7;
      for (let i = 0; i < 1000; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        if (i === 500) add('a', 'CODE', '```sql\nSELECT 1\n```');
        add(seed % 3 === 0 ? 'b' : 'a', 'MESSAGE', `${i}${seed % 5 === 0 ? '🚀' : ''} `);
        if (i % 97 === 0) assert.deepEqual(seen(), [...model.values()], `after fragment ${i}`);
      }
      assert.deepEqual(seen(), [...model.values()]);
      assert.deepEqual(model.get('a')?.map((k) => k.type), ['MESSAGE', 'CODE', 'MESSAGE']);
      assert.deepEqual(model.get('b')?.map((k) => k.type), ['MESSAGE']);
    });

    it('joins MESSAGE fragments, including CJK and emoji, into one text', () => {
      const respond = zh.groups.find((g) => g.name === '结论');
      assert.equal(respond?.blocks.length, 1);
      const text = respond?.blocks[0]?.content;
      assert.equal(typeof text, 'string');
      assert.ok(String(text).includes('华东地区销售额最高 🚀，占总额的 38%。'));
      assert.ok(String(text).includes('十二月达到峰值 🎄🎉'));
      assert.equal(zh.title, '各地区销售分析 📊');
    });

    it('normalises expires_at to expiredAt and SOURCES -1 / snake_case items', () => {
      const table = zh.groups.flatMap((g) => g.blocks).find((b) => b.type === 'TABLE');
      assert.equal(table?.type === 'TABLE' ? table.content.expiredAt : undefined, '2026-11-21T13:10:00Z');
      const sources = zh.groups.flatMap((g) => g.blocks).find((b) => b.type === 'SOURCES');
      assert.equal(sources?.groupId, '');
      assert.deepEqual(sources?.type === 'SOURCES' ? sources.content[0] : undefined, {
        id: '9001', source: '销售.xlsx', datasourceId: 'ds-77', datasetId: 'set-9', fileType: 'xlsx', externalId: '', pageNo: 1,
        content: '地区,销售额',
      });
    });

    it('surfaces unknown event kinds as UNKNOWN events that change nothing, and keeps TRIGGERs', () => {
      const { events } = fold([fixtureBytes('sales-overview')]);
      assert.deepEqual(events.filter((e) => e.kind === 'UNKNOWN').map((e) => (e.kind === 'UNKNOWN' ? e.event : '')), ['PROGRESS']);
      assert.deepEqual(sales.triggers, [{ name: 'open_chart', arguments: { file: 'revenue_by_region.png', kind: 'bar' } }]);
    });

    it('dispatches a last frame whose lines ended but whose blank line is missing', () => {
      const text = 'event:JOB_ID\ndata:j1\n\nevent:END_MARK\ndata:[DONE]\n';
      assert.equal(fold([Buffer.from(text)]).answer.state, 'done');
    });

    it('drops a last frame cut inside a line (a truncated [DONE] is not an end)', () => {
      const text = 'event:JOB_ID\ndata:j1\n\nevent:END_MARK\ndata:[DO';
      assert.equal(fold([Buffer.from(text)]).answer.state, 'streaming');
    });

    it('reports malformed JSON as a bad frame and keeps decoding the rest', () => {
      const text = 'event:JOB_ID\ndata:j1\n\nevent:MESSAGE\ndata:{"choices":[{"delta":{"content":"a"\n\nevent:END_MARK\ndata:[DONE]\n\n';
      const r = fold([Buffer.from(text)]);
      assert.equal(r.bad.length, 1);
      assert.match(r.bad[0] ?? '', /^MESSAGE: /);
      assert.equal(r.answer.state, 'done');
    });

    it('decodes an ERROR event and an [ERROR] end mark', () => {
      const err = 'event:ERROR\ndata:{"choices":[{"delta":{"content":{"code":"quota exhausted"}},"index":0}],"groupId":"-1","stage":"Respond"}\n\n';
      const r = fold([Buffer.from(`event:JOB_ID\ndata:j1\n\n${err}event:END_MARK\ndata:[ERROR]\n\n`)]);
      assert.equal(r.answer.state, 'error');
      assert.deepEqual(r.answer.error, { message: 'quota exhausted' });
    });

    it('drops a leading byte order mark, also when it arrives split across chunks', () => {
      const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('event:JOB_ID\ndata:j1\n\nevent:END_MARK\ndata:[DONE]\n\n')]);
      for (const at of [1, 2, 3, 4]) {
        const r = fold([bytes.subarray(0, at), bytes.subarray(at)]);
        assert.equal(r.answer.jobId, 'j1', `split at ${at}`);
        assert.equal(r.answer.state, 'done');
      }
    });

    it('notes unknown fields and bad retry values without failing the stream', () => {
      const notes: string[] = [];
      const events: JobEvent[] = [];
      const d = new JobEventDecoder({ event: (e) => events.push(e), badFrame: () => undefined, fatal: () => undefined, note: (m) => notes.push(m) });
      d.feed(Buffer.from('foo:bar\nretry:soon\nevent:JOB_ID\ndata:j1\n\n: keep-alive\n\n'));
      d.end();
      assert.deepEqual(events, [{ kind: 'JOB_ID', jobId: 'j1' }]);
      assert.deepEqual(notes, ['ignored stream line: unknown field "foo"', 'ignored stream line: invalid retry value "soon"']);
    });

    it('reports a frame larger than the limit as fatal instead of buffering without bound', () => {
      const bad: string[] = [];
      const d = new JobEventDecoder({ event: () => undefined, badFrame: () => undefined, fatal: (m) => bad.push(m) }, 1000);
      d.feed(Buffer.from(`event:MESSAGE\ndata:${'x'.repeat(5000)}`));
      d.feed(Buffer.from('more'));
      d.end();
      assert.equal(bad.length, 1);
    });
  });
});
