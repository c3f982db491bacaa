/**
 * Shared bits of the client tests: recorded fixtures, a seeded PRNG, byte splitting, a capturing
 * logger, and the normalisation the stream-vs-non-stream comparison needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerBlocks, answerFromResult } from '../../src/shared/answerFold';
import { v1Codec } from '../../src/shared/codecV1';
import type { Answer, Block } from '../../src/shared/domain';
import { seededRandom } from '../helpers/seededRandom';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'streams');
export const FIXTURE_NAMES = ['sales-overview', 'regional-zh'] as const;
export const API_KEY = 'sk-test-SECRET-4f9c2e7a1b';
export const USER_ID = 'user-42';

export function fixtureBytes(name: string): Buffer {
  return readFileSync(join(FIXTURES, `${name}.sse`));
}

export function fixtureEnvelope(name: string): { code: number; msg: null; data: unknown } {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as { code: number; msg: null; data: unknown };
}

/** The non-stream answer of a fixture, through the codec and the same fold. */
export function nonStreamAnswer(name: string): Answer {
  return answerFromResult(v1Codec.decodeJobResult(fixtureEnvelope(name).data));
}

export const prng = seededRandom;

/** Splits at `count - 1` distinct random byte offsets (so inside characters and CRLFs too). */
export function randomSplit(bytes: Uint8Array, count: number, random: () => number): Uint8Array[] {
  const cuts = new Set<number>();
  while (cuts.size < Math.min(count - 1, bytes.length - 1)) cuts.add(1 + Math.floor(random() * (bytes.length - 1)));
  const sorted = [...cuts].sort((x, y) => x - y);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const at of [...sorted, bytes.length]) {
    out.push(bytes.subarray(from, at));
    from = at;
  }
  return out;
}

/** Offsets that fall inside a multi-byte UTF-8 sequence or between a CR and its LF. */
export function trickyOffsets(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if ((b & 0xc0) === 0x80 || (b === 0x0a && bytes[i - 1] === 0x0d)) out.push(i);
  }
  return out;
}

/**
 * Blocks for the stream-vs-non-stream comparison. The contract says only streamed SOURCES items
 * carry an `id`, so that one field is dropped; everything else must match exactly.
 */
export function comparableBlocks(answer: Answer): Block[] {
  return answerBlocks(answer).map((b) =>
    b.type === 'SOURCES' ? { ...b, content: b.content.map(({ id: _id, ...rest }) => rest) } : b,
  );
}

/** Groups without the task bookkeeping that only a stream has. */
export function comparableGroups(answer: Answer): Array<{ id: string; name: string; stage: string; blocks: Block[] }> {
  return answer.groups
    .filter((g) => g.blocks.length > 0)
    .map((g) => ({ id: g.id, name: g.name, stage: g.stage, blocks: comparableBlocks({ ...answer, groups: [g] }) }));
}

export interface CapturedLog {
  lines: string[];
  logger: (level: string, message: string) => void;
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  return { lines, logger: (level, message) => lines.push(`${level} ${message}`) };
}

/** Resolves with the rejection of `p` (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}
