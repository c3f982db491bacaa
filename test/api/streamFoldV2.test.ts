/**
 * The recorded streams in v2 spelling (test/fixtures/streams/v2) through the same decoder and fold,
 * with the v2 codec's `decodeEvent`: whole, split at every byte offset, at many random offsets and
 * byte by byte. Each must give the identical Answer, match the v2 non-stream response, and equal
 * the Answer of the same stream in v1 spelling.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobEventDecoder } from '../../src/api/sseDecoder';
import { AnswerBuilder, answerFromResult } from '../../src/shared/answerFold';
import { v1Codec } from '../../src/shared/codecV1';
import { v2Codec } from '../../src/shared/codecV2';
import type { WireCodec } from '../../src/shared/codec';
import type { Answer } from '../../src/shared/domain';
import { comparableBlocks, comparableGroups, FIXTURE_NAMES, FIXTURES, fixtureBytes, prng, randomSplit } from './support';

function fold(chunks: readonly Uint8Array[], codec: WireCodec): { answer: Answer; bad: string[] } {
  const builder = new AnswerBuilder();
  const bad: string[] = [];
  const decoder = new JobEventDecoder(
    { event: (e) => builder.push(e), badFrame: (event, err) => bad.push(`${event}: ${err.message}`), fatal: (m) => bad.push(`fatal: ${m}`) },
    undefined,
    (kind, data) => codec.decodeEvent(kind, data),
  );
  for (const c of chunks) decoder.feed(c);
  decoder.end();
  return { answer: builder.snapshot(), bad };
}

const v2Bytes = (name: string): Buffer => readFileSync(join(FIXTURES, 'v2', `${name}.sse`));
const v2Envelope = (name: string): { data: unknown } => JSON.parse(readFileSync(join(FIXTURES, 'v2', `${name}.json`), 'utf8')) as { data: unknown };

describe('v2 stream spelling through the decoder and the fold', () => {
  for (const name of FIXTURE_NAMES) {
    describe(name, () => {
      const bytes = v2Bytes(name);
      const whole = fold([bytes], v2Codec);
      const expected = JSON.stringify(whole.answer);
      const same = (answer: Answer, what: string): void => {
        if (JSON.stringify(answer) !== expected) assert.deepEqual(answer, whole.answer, what);
      };

      it('is really spelled the v2 way (fixture sanity)', () => {
        const text = bytes.toString('utf8');
        assert.ok(text.includes('"group_id":') && !text.includes('"groupId":') && !text.includes('"expiredAt":'));
      });

      it('decodes without bad frames into the same done answer as the v1 spelling of the stream', () => {
        assert.deepEqual(whole.bad, []);
        assert.equal(whole.answer.state, 'done');
        assert.deepEqual(whole.answer, fold([fixtureBytes(name)], v1Codec).answer);
      });

      it('matches the v2 non-stream response block for block', () => {
        const ns = answerFromResult(v2Codec.decodeJobResult(v2Envelope(name).data));
        assert.deepEqual(comparableBlocks(whole.answer), comparableBlocks(ns));
        assert.deepEqual(comparableGroups(whole.answer), comparableGroups(ns));
        assert.equal(whole.answer.jobId, ns.jobId);
      });

      it('gives the identical answer split at every byte offset, at random offsets and byte by byte', () => {
        for (let at = 1; at < bytes.length; at++) {
          const { answer, bad } = fold([bytes.subarray(0, at), bytes.subarray(at)], v2Codec);
          assert.deepEqual(bad, [], `split at ${at}`);
          same(answer, `split at ${at}`);
        }
        const random = prng(0xbeef + name.length);
        for (let run = 0; run < 200; run++) {
          const { answer, bad } = fold(randomSplit(bytes, 2 + Math.floor(random() * 300), random), v2Codec);
          assert.deepEqual(bad, [], `run ${run}`);
          same(answer, `run ${run}`);
        }
        same(fold(Array.from(bytes, (_b, i) => bytes.subarray(i, i + 1)), v2Codec).answer, 'one-byte chunks');
      });
    });
  }
});
