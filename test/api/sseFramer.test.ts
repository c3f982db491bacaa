/**
 * The SSE framer against eventsource-parser (the oracle) on seeded random streams: random field
 * order, `\n`/`\r\n`/`\r` mixes, comments, retry and unknown fields, multi-line and empty data,
 * unicode, NUL in ids, lines without a colon, frames without data, and splits at random offsets
 * (between `\r` and `\n` included). Then the whole byte path (JobEventDecoder: latin1 view,
 * framer, fast decoder, decodeEvent) against TextDecoder + eventsource-parser + decodeEvent on
 * random byte streams with BOMs, invalid UTF-8 and splits inside multi-byte characters.
 */
import { strict as assert } from 'node:assert';
import { createParser } from 'eventsource-parser';
import { JobEventDecoder } from '../../src/api/sseDecoder';
import { SseFramer } from '../../src/api/sseFramer';
import { decodeEvent } from '../../src/shared/blockCodecV1';
import { prng } from './support';

interface Frame {
  event: string | undefined;
  id: string | undefined;
  data: string;
}

interface Outcome {
  frames: Frame[];
  comments: string[];
  retries: number[];
  ignored: string[];
}

/** The oracle: eventsource-parser fed the same pieces, ended as JobEventDecoder has always ended. */
function oracleFrames(pieces: readonly string[]): Outcome {
  const out: Outcome = { frames: [], comments: [], retries: [], ignored: [] };
  const parser = createParser({
    onEvent: (m) => out.frames.push({ event: m.event, id: m.id, data: m.data }),
    onComment: (c) => out.comments.push(c),
    onRetry: (ms) => out.retries.push(ms),
    onError: (e) => out.ignored.push(`${e.type}:${e.type === 'unknown-field' ? e.field ?? '' : ''}`),
  });
  let last = '\n';
  for (const p of pieces) {
    if (p.length === 0) continue;
    last = p;
    parser.feed(p);
  }
  // A frame whose lines all ended is dispatched at the end; one cut inside a line is not.
  const code = last.charCodeAt(last.length - 1);
  if (code === 10) parser.feed('\n');
  else if (code === 13) parser.feed('\n\n');
  return out;
}

function ourFrames(pieces: readonly string[]): Outcome {
  const out: Outcome = { frames: [], comments: [], retries: [], ignored: [] };
  const framer: SseFramer = new SseFramer({
    frame: (event, text, from, to) => out.frames.push({ event, id: framer.id, data: text.slice(from, to) }),
    comment: (c) => out.comments.push(c),
    retry: (ms) => out.retries.push(ms),
    ignored: (field, reason) => out.ignored.push(`${reason}:${reason === 'unknown-field' ? field : ''}`),
    overflow: () => assert.fail('no limit was set'),
  });
  for (const p of pieces) framer.feed(p);
  framer.end();
  return out;
}

const VALUES = ['', 'x', 'hello world', ' leading space', 'a:b:c', '增长 🚀 — ok', 'tab\there', '{"a":[1,2]}', '\u0000nul', 'é', 'ï»¿'];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function randomValue(random: () => number): string {
  if (random() < 0.7) return pick(random, VALUES);
  let s = '';
  const n = Math.floor(random() * 12);
  for (let i = 0; i < n; i++) {
    const r = random();
    s += r < 0.6 ? String.fromCharCode(32 + Math.floor(random() * 95)) : r < 0.8 ? pick(random, ['é', '中', '🚀', '\u2028', '\ufeff']) : ':';
  }
  return s;
}

/** A random event stream as text: lines of every kind, ends mixed, dispatching blank lines. */
function randomStream(random: () => number): string {
  const ends = ['\n', '\r\n', '\r'];
  const mixed = random() < 0.5;
  const fixedEnd = pick(random, ends);
  const end = (): string => (mixed ? pick(random, ends) : fixedEnd);
  let s = '';
  const lines = 5 + Math.floor(random() * 60);
  for (let i = 0; i < lines; i++) {
    const r = random();
    const sep = random() < 0.5 ? ':' : random() < 0.8 ? ': ' : ':  ';
    if (r < 0.3) s += `data${sep}${randomValue(random)}`;
    else if (r < 0.42) s += `event${sep}${pick(random, ['MESSAGE', 'TASK', '', 'x y', 'ünï'])}`;
    else if (r < 0.52) s += `id${sep}${random() < 0.1 ? 'a\u0000b' : randomValue(random)}`;
    else if (r < 0.6) s += `:${random() < 0.5 ? 'keep-alive' : ` ${randomValue(random)}`}`;
    else if (r < 0.64) s += `retry${sep}${random() < 0.6 ? String(Math.floor(random() * 5000)) : 'soon'}`;
    else if (r < 0.68) s += pick(random, ['data', 'event', 'id', 'retry', 'foo', 'data ', 'DATA:x', ' data:x', 'foo:bar']);
    else if (r < 0.72) s += `${pick(random, ['unknown', 'x', 'ev'])}${sep}${randomValue(random)}`;
    // else: a blank line, which dispatches
    s += end();
  }
  if (random() < 0.3) s += `data:${randomValue(random)}`; // cut inside a line
  else if (random() < 0.3) s += `data:last${end()}`; // lines ended, no blank line
  return s;
}

/** Splits a string at random code-unit offsets (so inside surrogate pairs and CRLFs too). */
function splitString(text: string, random: () => number): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    const n = random() < 0.3 ? 1 : 1 + Math.floor(random() * 40);
    out.push(text.slice(at, at + n));
    at += n;
  }
  if (random() < 0.2) out.splice(Math.floor(random() * out.length), 0, '');
  return out;
}

describe('api/sseFramer against eventsource-parser', () => {
  it('frames thousands of random streams identically, whole and split at random offsets', () => {
    const random = prng(20240611);
    let frames = 0;
    for (let run = 0; run < 3000; run++) {
      const text = randomStream(random);
      // The oracle reads the whole text at once: fed in pieces, eventsource-parser holds a line
      // ending in \r at a piece's end until the next character, and loses it if the stream then
      // ends inside a line; a \r ends a line (WHATWG), which our framer acts on at once.
      const expected = oracleFrames([text]);
      frames += expected.frames.length;
      const context = (how: string): string => `run ${run} (${how}): ${JSON.stringify(text)}`;
      assert.deepEqual(ourFrames([text]), expected, context('whole'));
      assert.deepEqual(ourFrames(splitString(text, random)), expected, context('split'));
      assert.deepEqual(ourFrames(Array.from(text)), expected, context('one character per piece'));
    }
    assert.ok(frames > 10_000, `only ${frames} frames were compared`);
  });

  it('counts a \\r\\n split between two pieces as one line end', () => {
    const out = ourFrames(['event:A\r', '\ndata:1\r', '\n\r', '\ndata:2\r\n\r\n']);
    assert.deepEqual(out.frames.map((f) => [f.event, f.data]), [['A', '1'], [undefined, '2']]);
  });

  it('skips one leading U+FEFF, not a second one, and not one later in the stream', () => {
    const out = ourFrames(['\ufeff', '\ufeffdata:a\n\n\ufeffdata:b\n\ndata:c\n\n']);
    assert.deepEqual(out.frames.map((f) => f.data), ['c']);
    assert.deepEqual(out.ignored, ['unknown-field:\ufeffdata', 'unknown-field:\ufeffdata']);
    assert.deepEqual(ourFrames(['\ufeffdata:a\n\n']).frames.map((f) => f.data), ['a']);
  });

  it('reports comments (keep-alives), retry and ignored fields', () => {
    const out = ourFrames([':keep-alive\n: spaced\nretry:1500\nretry:x\nfoo:bar\ndata:d\n\n']);
    assert.deepEqual(out.comments, ['keep-alive', 'spaced']);
    assert.deepEqual(out.retries, [1500]);
    assert.deepEqual(out.ignored, ['invalid-retry:', 'unknown-field:foo']);
    assert.deepEqual(out.frames, [{ event: undefined, id: undefined, data: 'd' }]);
  });

  it('joins data lines with \\n, keeps an empty data line, and drops frames without data', () => {
    const out = ourFrames(['event:E\nid:7\n\ndata\ndata:\ndata: x\n\n']);
    assert.deepEqual(out.frames, [{ event: undefined, id: undefined, data: '\n\nx' }]);
  });

  it('stops at the size limit and reports it once', () => {
    const overflows: number[] = [];
    const framer = new SseFramer({ frame: () => assert.fail('no frame fits'), overflow: (n) => overflows.push(n) }, 100);
    framer.feed(`data:${'x'.repeat(60)}`);
    framer.feed('y'.repeat(60));
    framer.feed('\n\n');
    framer.end();
    assert.deepEqual(overflows, [100]);
    assert.equal(framer.stopped, true);
  });

  it('lets a sink take over whole frames where a frame may start, and only there', () => {
    const offers: number[] = [];
    const seen: string[] = [];
    const framer = new SseFramer({
      frame: (event, text, from, to) => seen.push(`${event}:${text.slice(from, to)}`),
      wholeFrame: (text, pos) => {
        offers.push(pos);
        return text.startsWith('event:FAST\ndata:1\n\n', pos) ? pos + 19 : -1;
      },
      overflow: () => assert.fail('no limit'),
    });
    framer.feed(':c\nevent:FAST\ndata:1\n\nevent:SLOW\ndata:2\n\nevent:FAST\ndata:1\n\n');
    framer.end();
    assert.deepEqual(seen, ['SLOW:2']);
    assert.deepEqual(offers, [0, 3, 22, 41]);
  });
});

// ---- the whole byte path ---------------------------------------------------------------------

type Sunk = { event: string } | { bad: string } | { fatal: string };

/** What JobEventDecoder was before the framer: TextDecoder + eventsource-parser + decodeEvent. */
function oracleDecode(chunks: readonly Uint8Array[]): Sunk[] {
  const out: Sunk[] = [];
  const utf8 = new TextDecoder('utf-8');
  const parser = createParser({
    onEvent: (m) => {
      const kind = m.event ?? 'message';
      try {
        out.push({ event: JSON.stringify(decodeEvent(kind, m.data)) });
      } catch (err) {
        out.push({ bad: `${kind}: ${(err as Error).message}` });
      }
    },
  });
  // All the text in one piece: see the note in the framer test about \r at a piece's end.
  let text = '';
  for (const c of chunks) text += utf8.decode(c, { stream: true });
  text += utf8.decode();
  if (text.length > 0) parser.feed(text);
  const last = text.length > 0 ? text.charCodeAt(text.length - 1) : 10;
  if (last === 10) parser.feed('\n');
  else if (last === 13) parser.feed('\n\n');
  return out;
}

function ourDecode(chunks: readonly Uint8Array[]): Sunk[] {
  const out: Sunk[] = [];
  const decoder = new JobEventDecoder({
    event: (e) => out.push({ event: JSON.stringify(e) }),
    badFrame: (kind, err) => out.push({ bad: `${kind}: ${err.message}` }),
    fatal: (m) => out.push({ fatal: m }),
  });
  for (const c of chunks) decoder.feed(c);
  decoder.end();
  return out;
}

const TEXTS = ['hello', '增长 🚀', 'raw\ttab', 'lone \\ud800', 'line\\nbreak', 'quote \\" and \\\\', '\\u00e9\\ud83d\\ude80', 'tab\\t', '—', ''];

/** Frame data: MESSAGE-like JSON (valid or broken), plain text, or random bytes as text. */
function randomData(random: () => number, group: string): string {
  const content = `${pick(random, TEXTS)}${pick(random, TEXTS)}`;
  const r = random();
  if (r < 0.6) {
    return `{"id":"${group}","model":"m","choices":[{"delta":{"role":null,"content":"${content}"},"index":0,"finish_reason":null}],` +
      `"created":${1763726400 + Math.floor(random() * 3)},"groupId":"${group}","groupName":"${pick(random, ['Summary', '结论', ''])}","stage":"${pick(random, ['Analyze', 'Respond'])}"}`;
  }
  if (r < 0.75) return `{"choices":[{"delta":{"content":"${content}"}}],"groupId":"${group}"`; // truncated
  if (r < 0.85) return '[DONE]';
  return content;
}

/** A random byte stream of job frames, with raw non-UTF-8 bytes and BOMs sprinkled in. */
function randomByteStream(random: () => number): Uint8Array {
  const parts: Uint8Array[] = [];
  const enc = new TextEncoder();
  const text = (s: string): void => void parts.push(enc.encode(s));
  const raw = (...b: number[]): void => void parts.push(Uint8Array.from(b));
  if (random() < 0.3) raw(0xef, 0xbb, 0xbf);
  if (random() < 0.1) raw(0xef, 0xbb, 0xbf);
  const frames = 1 + Math.floor(random() * 25);
  const group = pick(random, ['g-1', 'g-analyze', '组']);
  for (let f = 0; f < frames; f++) {
    const lf = random() < 0.85 ? '\n' : pick(random, ['\r\n', '\r']);
    if (random() < 0.7) text(`id:${group}${lf}`);
    text(`event:${pick(random, ['MESSAGE', 'MESSAGE', 'MESSAGE', 'CODE', 'TASK', 'JOB_ID', 'TITLE_GENERATION', 'PROGRESS', 'END_MARK', 'ÉVÉNEMENT'])}${lf}`);
    const data = randomData(random, group);
    const cut = random() < 0.15 ? Math.floor(random() * data.length) : -1;
    if (cut >= 0) {
      text(`data:${data.slice(0, cut)}`);
      if (random() < 0.5) raw(pick(random, [0xff, 0xc3, 0xe4, 0xf0, 0x80, 0xed]), ...(random() < 0.5 ? [0xa0] : []));
      text(`${data.slice(cut)}${lf}`);
    } else if (random() < 0.1) {
      text(`data:${data.slice(0, data.length >> 1)}${lf}data:${data.slice(data.length >> 1)}${lf}`);
    } else {
      text(`data:${data}${lf}`);
    }
    if (random() < 0.05) text(`:keep-alive${lf}`);
    text(lf);
  }
  if (random() < 0.2) raw(0xe4, 0xb8);
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function splitBytes(bytes: Uint8Array, random: () => number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const n = random() < 0.3 ? 1 : 1 + Math.floor(random() * 300);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe('api/sseDecoder byte path against TextDecoder + eventsource-parser + decodeEvent', () => {
  it('gives identical events and errors on random byte streams split at random bytes', () => {
    const random = prng(0x5eed);
    let events = 0;
    for (let run = 0; run < 1500; run++) {
      const bytes = randomByteStream(random);
      const expected = oracleDecode([bytes]);
      events += expected.length;
      const context = (how: string): string => `run ${run} (${how}): ${Buffer.from(bytes).toString('latin1')}`;
      assert.deepEqual(ourDecode([bytes]), expected, context('whole'));
      assert.deepEqual(ourDecode(splitBytes(bytes, random)), expected, context('split'));
      const one = Array.from(bytes, (_b, i) => bytes.subarray(i, i + 1));
      assert.deepEqual(ourDecode(one), expected, context('one byte per chunk'));
    }
    assert.ok(events > 10_000, `only ${events} events were compared`);
  });

  it('decodes a BOM split across chunks, and a stream of only a partial BOM, as TextDecoder does', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const body = new TextEncoder().encode('event:JOB_ID\ndata:j\n\n');
    const all = Uint8Array.from([...bom, ...body]);
    for (let at = 1; at <= 3; at++) {
      assert.deepEqual(ourDecode([all.subarray(0, at), all.subarray(at)]), oracleDecode([all]));
    }
    assert.deepEqual(ourDecode([Uint8Array.from([0xef, 0xbb])]), oracleDecode([Uint8Array.from([0xef, 0xbb])]));
  });
});
