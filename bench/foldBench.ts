/**
 * Streaming hot path: 100k MESSAGE events in the real wire format, fed in the same chunks (Buffers,
 * as undici delivers them) to (a) the parse floor: UTF-8 decoding, eventsource-parser and
 * JSON.parse of each frame's data, nothing else; and (b) the client's real path, the code JobStream
 * runs: JobEventDecoder (TextDecoder, eventsource-parser, the codec's decodeEvent) into
 * AnswerBuilder, ending with the final Answer. After every run of (b) the answer's text is
 * compared with the text the generator put in, fragment for fragment, so no event can be skipped.
 * Also the absolute time to decode and fold a 1 MB answer. Best of several interleaved runs in one
 * process. `npx tsx bench/foldBench.ts` prints the lines.
 */
import { createParser } from 'eventsource-parser';
import { JobEventDecoder } from '../src/api/sseDecoder';
import { AnswerBuilder } from '../src/shared/answerFold';
import type { Answer } from '../src/shared/domain';
import type { BenchResult } from './types';

const EVENTS = 100_000;
const CHUNK = 16 * 1024;
const RUNS = 15;

interface MessageStream {
  bytes: Buffer;
  /** The answer text each group must end up with: every fragment, decoded, in order. */
  texts: string[];
}

/** Wire frames as the service sends them (no space after the colon, a JSON chunk per fragment). */
export function buildMessageStream(count = EVENTS): MessageStream {
  const words = ['revenue', 'grew', 'by', '12%', 'in', 'Europe', 'while', 'Asia', '增长', '🚀', 'orders', 'fell', 'slightly', '—', 'see', 'table'];
  let text = 'event:JOB_ID\ndata:job-bench\n\n';
  const texts = ['', ''];
  let seed = 1;
  for (let i = 0; i < count; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const last = i % 50 === 49;
    const fragment = `${words[seed % words.length]} ${words[(seed >> 8) % words.length]}`;
    const first = i < count / 2;
    const group = first ? 'g-analyze-summary' : 'g-respond-conclusions';
    const stage = first ? 'Analyze' : 'Respond';
    texts[first ? 0 : 1] += `${fragment}${last ? '.\n\n' : ' '}`;
    text +=
      `id:${group}\nevent:MESSAGE\ndata:{"id":"${group}","model":"pd-analyst-1","choices":[{"delta":{"role":null,"content":"${fragment}${last ? '.\\n\\n' : ' '}"},` +
      `"index":0,"finish_reason":null}],"created":${1763726400 + Math.floor(i / 40)},"groupId":"${group}","groupName":"Summary","stage":"${stage}"}\n\n`;
  }
  text += 'event:END_MARK\ndata:[DONE]\n\n';
  return { bytes: Buffer.from(text, 'utf8'), texts };
}

/** Just the bytes of {@link buildMessageStream}. */
export function generateMessageStream(count = EVENTS): Uint8Array {
  return buildMessageStream(count).bytes;
}

/** Chunks ending after each frame's blank line, as a live stream flushed per event arrives. */
function frames(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let from = 0;
  for (let i = 1; i < bytes.length; i++) {
    if (bytes[i] === 10 && bytes[i - 1] === 10) {
      out.push(bytes.subarray(from, i + 1));
      from = i + 1;
    }
  }
  if (from < bytes.length) out.push(bytes.subarray(from));
  return out;
}

function chunk(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** What any client pays to read the data at all: UTF-8, framing and JSON.parse of every frame. */
function parseFloor(chunks: readonly Uint8Array[]): number {
  let events = 0;
  const utf8 = new TextDecoder('utf-8');
  const parser = createParser({
    onEvent: (m) => {
      events++;
      if (m.event !== 'JOB_ID' && m.event !== 'END_MARK') JSON.parse(m.data);
    },
  });
  for (const c of chunks) parser.feed(utf8.decode(c, { stream: true }));
  parser.feed(utf8.decode());
  return events;
}

interface Run {
  events: number;
  answer: Answer;
}

/** The client's path: decoder + fold, ending with the final answer as a caller gets it. */
function ours(chunks: readonly Uint8Array[]): Run {
  const builder = new AnswerBuilder();
  let events = 0;
  const decoder = new JobEventDecoder({
    event: (e) => {
      events++;
      builder.push(e);
    },
    badFrame: (event, err) => {
      throw new Error(`bench stream has a bad ${event} frame: ${err.message}`);
    },
    fatal: (m) => {
      throw new Error(m);
    },
  });
  for (const c of chunks) decoder.feed(c);
  decoder.end();
  return { events, answer: builder.snapshot() };
}

/** Every fragment must be in the answer, decoded, in order: the answer text is compared whole. */
function verify(run: Run, stream: MessageStream, events: number): void {
  const { answer } = run;
  if (run.events !== events + 2) throw new Error(`expected ${events + 2} events, got ${run.events}`);
  if (answer.state !== 'done' || answer.jobId !== 'job-bench' || answer.groups.length !== 2) throw new Error('bench answer is not what was streamed');
  answer.groups.forEach((g, i) => {
    const block = g.blocks[0];
    if (g.blocks.length !== 1 || block?.type !== 'MESSAGE' || block.content !== stream.texts[i]) {
      throw new Error(`group ${g.id}: the answer text differs from the ${events / 2} fragments streamed`);
    }
  });
}

function time<T>(fn: () => T): [number, T] {
  const t0 = process.hrtime.bigint();
  const result = fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, result];
}

interface Measured {
  floor: number;
  ours: number;
}

/** Best time of each path, runs interleaved so load changes hit both alike. */
async function measure(chunks: readonly Uint8Array[], stream: MessageStream, events: number, runs = RUNS): Promise<Measured> {
  const expected = events + 2;
  const check = (what: string, n: number): void => {
    if (n !== expected) throw new Error(`${what}: expected ${expected} events, counted ${n}`);
  };
  // Warm both paths so neither is measured while the JIT is still compiling it.
  check('parse floor', parseFloor(chunks));
  verify(ours(chunks), stream, events);
  const best = { floor: Infinity, ours: Infinity };
  for (let run = 0; run < runs; run++) {
    const [f, nf] = time(() => parseFloor(chunks));
    check('parse floor', nf);
    const [o, r] = time(() => ours(chunks));
    verify(r, stream, events);
    best.floor = Math.min(best.floor, f);
    best.ours = Math.min(best.ours, o);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return best;
}

/** About 1 MB of answer: the generator's frames average a little over 250 bytes. */
const ONE_MB_EVENTS = 4000;

export async function runFoldBench(): Promise<BenchResult[]> {
  const stream = buildMessageStream();
  const mb = stream.bytes.length / 1e6;
  const out: BenchResult[] = [];
  for (const [label, size] of [[`${CHUNK / 1024} KiB chunks`, CHUNK], ['one frame per chunk', 0]] as const) {
    const chunks = size > 0 ? chunk(stream.bytes, size) : frames(stream.bytes);
    const m = await measure(chunks, stream, EVENTS);
    const rate = (ms: number): number => mb / (ms / 1000);
    const perEvent = (ms: number): string => `${((ms * 1000) / EVENTS).toFixed(2)} µs/event`;
    out.push({
      name: `stream fold, ${EVENTS / 1000}k MESSAGE events (${mb.toFixed(1)} MB), ${label}: client path (decode + fold into the Answer) vs the parse floor (eventsource-parser + JSON.parse of each frame, nothing else)`,
      ours: rate(m.ours),
      baseline: rate(m.floor),
      ratio: m.floor / m.ours,
      unit: 'MB/s',
      target: '>= 0.8x',
      pass: m.floor / m.ours >= 0.8,
      note: `ours ${perEvent(m.ours)}, parse floor ${perEvent(m.floor)}; answer text checked against all ${EVENTS} fragments after every run`,
    });
  }
  const small = buildMessageStream(ONE_MB_EVENTS);
  const m = await measure(chunk(small.bytes, CHUNK), small, ONE_MB_EVENTS, 30);
  out.push({
    name: `a ${(small.bytes.length / 1e6).toFixed(2)} MB answer (${ONE_MB_EVENTS} MESSAGE events, ${CHUNK / 1024} KiB chunks) decoded and folded`,
    ours: m.ours,
    baseline: m.floor,
    ratio: m.floor / m.ours,
    unit: 'ms',
    target: '< 10 ms',
    pass: m.ours < 10,
    note: `ratio is parse floor / ours`,
  });
  return out;
}

if (require.main === module) {
  runFoldBench().then(
    (results) => {
      for (const r of results) {
        process.stdout.write(`${r.pass ? 'PASS' : 'MISS'}  ${r.name}: ours ${r.ours.toFixed(1)} ${r.unit}, baseline ${r.baseline.toFixed(1)} ${r.unit}, ratio ${r.ratio.toFixed(2)}x (target ${r.target})${r.note ? ` — ${r.note}` : ''}\n`);
      }
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
