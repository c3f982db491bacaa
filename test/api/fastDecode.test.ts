/**
 * The fast MESSAGE/CODE decoder against JSON.parse + decodeEvent (the slow path) on thousands of
 * seeded random and adversarial frames: random key order and whitespace, escaped keys and values,
 * keys inside strings, nested objects, duplicate keys, numbers of every form, nulls, truncations,
 * invalid escapes, raw control characters, trailing garbage, deep nesting. Whenever the fast path
 * answers, its event must be identical (same keys, same order, same strings) to decodeEvent's;
 * when it declines, decodeEvent runs, so results and errors are the slow path's by construction.
 * Frames come in runs of one shape (as a real stream's do) so the templates are exercised, with
 * mutations of that shape in between; the data sits inside a larger text with junk around it.
 * Then whole streams through JobEventDecoder (whole-frame templates included) against
 * TextDecoder + eventsource-parser + decodeEvent, split at random bytes.
 */
import { strict as assert } from 'node:assert';
import { createParser } from 'eventsource-parser';
import { TextFrameDecoder } from '../../src/api/fastDecode';
import { JobEventDecoder } from '../../src/api/sseDecoder';
import { decodeEvent } from '../../src/shared/blockCodecV1';
import type { JobEvent } from '../../src/shared/domain';
import { prng } from './support';

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const CONTENTS = [
  'revenue grew by 12%', 'x', '', '增长 🚀', 'line\nbreak', 'tab\tinside', 'quote " and \\ backslash', '"groupId":"evil"',
  '{"choices":[]}', '\u2028\u2029', '\u0000\u001f', 'é', '\ud83d\ude80', 'a long fragment of text that is longer than sixteen', ' ',
];

/** A JSON string token for `s`, sometimes with every character escaped as \uXXXX, or a lone surrogate. */
function jsonString(random: Random, s: string): string {
  const r = random();
  if (r < 0.1) return `"${Array.from(s, (ch) => [...ch].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('')}"`;
  if (r < 0.13) return `"${s.replace(/"/g, '\\"')}\\ud800"`.replace(/\\(?!["u])/g, '\\\\');
  if (r < 0.16) return JSON.stringify(s).replace(/\//g, '\\/');
  return JSON.stringify(s);
}

function ws(random: Random, often: number): string {
  if (random() > often) return '';
  return pick(random, [' ', '  ', '\t', '\n', '\r\n', ' \t ']);
}

interface Shape {
  keys: string[];
  /** Each key's value text, fixed for the stream (as a service's frames are), but `choices` and `created`. */
  values: Map<string, string>;
  spaced: number;
}

/** A frame's shape: which top-level keys, in which order, with which fixed values. */
function randomShape(random: Random): Shape {
  const pool = ['id', 'model', 'choices', 'created', 'groupId', 'groupName', 'stage'];
  const extra = ['group_id', 'group_name', 'object', 'usage', 'index', '__proto__'];
  const keys = pool.filter(() => random() < 0.9);
  if (!keys.includes('choices')) keys.push('choices');
  for (const k of extra) if (random() < 0.12) keys.push(k);
  for (let i = keys.length - 1; i > 0 && random() < 0.5; i--) {
    const j = Math.floor(random() * (i + 1));
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  const group = pick(random, ['g-analyze-summary', 'g-1', '组-1', '']);
  const name = pick(random, ['Summary', '结论', '', null]);
  const stage = pick(random, ['Analyze', 'Respond', 'analyze', 'RESPOND', 'other', null]);
  const values = new Map<string, string>();
  for (const key of keys) {
    switch (key) {
      case 'id':
      case 'groupId':
      case 'group_id':
        values.set(key, random() < 0.1 ? pick(random, ['7', 'null', 'true', '{}']) : jsonString(random, group));
        break;
      case 'groupName':
      case 'group_name':
        values.set(key, name === null ? 'null' : jsonString(random, name));
        break;
      case 'stage':
        values.set(key, stage === null ? 'null' : jsonString(random, stage));
        break;
      case 'usage':
        values.set(key, '{"prompt_tokens":12,"nested":{"deep":[1,2.5,-3e2,true,false,null,"s\\"t"]}}');
        break;
      default:
        values.set(key, random() < 0.5 ? jsonString(random, 'model-x') : String(Math.floor(random() * 100)));
    }
  }
  return { keys, values, spaced: random() < 0.2 ? 0.5 : 0 };
}

function value(random: Random, key: string, shape: Shape, content: string, created: number): string {
  const s = shape.spaced;
  switch (key) {
    case 'created':
      return random() < 0.05 ? pick(random, ['-0', '1.5e+3', '2E-2', '0.25', '"x"']) : String(created);
    case 'choices': {
      const delta = `{${ws(random, s)}"role"${ws(random, s)}:${ws(random, s)}null,${ws(random, s)}"content"${ws(random, s)}:${ws(random, s)}${jsonString(random, content)}${ws(random, s)}}`;
      const first = `{${ws(random, s)}"delta"${ws(random, s)}:${ws(random, s)}${delta},"index":0,"finish_reason":null${ws(random, s)}}`;
      return `[${ws(random, s)}${first}${random() < 0.05 ? ',{"delta":{"content":7}},[1,{"a":null}]' : ''}${ws(random, s)}]`;
    }
    default:
      return shape.values.get(key) ?? 'null';
  }
}

/** The frame's JSON text for one fragment of content. */
function frameText(random: Random, shape: Shape, content: string, created: number): string {
  const s = shape.spaced;
  const members = shape.keys.map((k) => `${ws(random, s)}"${k}"${ws(random, s)}:${ws(random, s)}${value(random, k, shape, content, created)}${ws(random, s)}`);
  return `${ws(random, s)}{${members.join(',')}}${ws(random, s)}`;
}

/** Small edits that usually make the frame invalid, or valid with another meaning. */
function mutate(random: Random, text: string): string {
  const at = Math.floor(random() * text.length);
  switch (Math.floor(random() * 16)) {
    case 0:
      return text.slice(0, at); // truncated
    case 1:
      return text.slice(0, at) + text.slice(at + 1); // a character dropped
    case 2:
      return text.slice(0, at) + pick(random, ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', 'x', '0', '\u0001', '\t']) + text.slice(at);
    case 3:
      return text + pick(random, ['x', '}', ',', ' ', '\n', '\u00a0', '0']); // trailing garbage
    case 4:
      return text.replace('"content":', '"content":"dup","content":'); // duplicate key
    case 5:
      return text.replace('"choices":', '"choices":[],"choices":');
    case 6:
      return text.replace('"groupId":', '"groupId":"first","groupId":');
    case 7:
      return text.replace('"delta":', '"delta":{"content":"x"},"delta":');
    case 8:
      return text.replace('"groupId"', '"group\\u0049d"').replace('"content"', '"con\\u0074ent"'); // escaped keys
    case 9:
      return text.replace(/"content":"/, '"content":"\\x'); // invalid escape
    case 10:
      return text.replace(/"content":"/, `"content":"${'\u0007'}`); // raw control character
    case 11:
      return text.replace(/"created":\d+/, pick(random, ['"created":01', '"created":1.', '"created":-', '"created":+1', '"created":1e', '"created":.5']));
    case 12:
      return text.replace(/"content":"[^"]*"/, pick(random, ['"content":null', '"content":5', '"content":{"a":"b"}', '"content":["x"]', '"content":true']));
    case 13:
      return text.replace('"choices":', `"deep":${'['.repeat(40)}${']'.repeat(40)},"choices":`);
    case 14:
      return `\ufeff${text}`;
    default:
      return text.replace('"stage":', '"stage":"Analyze","extra":{"stage":"x","groupId":"y"},"stage2":');
  }
}

type Result = { ok: string } | { error: string };

function slow(kind: 'MESSAGE' | 'CODE', data: string): Result {
  try {
    return { ok: JSON.stringify(decodeEvent(kind, data)) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

/** Checks one frame; returns whether the fast path answered. */
function check(decoder: TextFrameDecoder, random: Random, kind: 'MESSAGE' | 'CODE', data: string, what: string): boolean {
  // Junk that a scanner reading past the data's end could take for more JSON.
  const before = pick(random, ['', 'data:', '{"choices":[{"delta":{"content":"x"}}]}', '\u00e9\n']);
  const after = pick(random, ['', '\n', '"}]}\n', ',"x":1}', '\\u0041"}', '\r\n\r\n']);
  const text = `${before}${data}${after}`;
  const fast = decoder.decode(kind, text, before.length, before.length + data.length);
  if (fast === undefined) return false;
  const expected = slow(kind, data);
  assert.ok('ok' in expected, `${what}: fast path decoded what decodeEvent rejects (${'error' in expected ? expected.error : ''}): ${JSON.stringify(data)}`);
  assert.equal(JSON.stringify(fast), expected.ok, `${what}: ${JSON.stringify(data)}`);
  assert.deepStrictEqual(fast, decodeEvent(kind, data) as JobEvent, what);
  return true;
}

describe('api/fastDecode against JSON.parse + decodeEvent', () => {
  it('matches decodeEvent on runs of same-shaped frames with random mutations in between', () => {
    const random = prng(0xfa57);
    let answered = 0;
    let templates = 0;
    let scans = 0;
    let cleanAnswered = 0;
    let clean = 0;
    let total = 0;
    for (let stream = 0; stream < 120; stream++) {
      const decoder = new TextFrameDecoder();
      const shape = randomShape(random);
      const kind = random() < 0.8 ? 'MESSAGE' : 'CODE';
      let created = 1763726400;
      for (let f = 0; f < 80; f++) {
        if (random() < 0.1) created++;
        const content = `${pick(random, CONTENTS)}${random() < 0.3 ? pick(random, CONTENTS) : ''}`;
        let data = frameText(random, shape, content, created);
        const mutated = random() < 0.25;
        if (mutated) data = mutate(random, data);
        const took = check(decoder, random, kind, data, `stream ${stream} frame ${f}`);
        total++;
        if (took) answered++;
        if (!mutated) {
          clean++;
          if (took) cleanAnswered++;
        }
      }
      templates += decoder.counts.templates;
      scans += decoder.counts.scans;
    }
    assert.ok(total > 9000, `only ${total} frames`);
    // Not a correctness requirement, but a fast path that declines everything tests nothing.
    assert.ok(templates > 2000 && scans > 200, `templates ${templates}, scans ${scans}`);
    assert.ok(answered > 0 && cleanAnswered > 0);
  });

  it('matches decodeEvent on thousands of independent random frames (full scan only)', () => {
    const random = prng(0xbad5eed);
    for (let i = 0; i < 4000; i++) {
      const shape = randomShape(random);
      let data = frameText(random, shape, pick(random, CONTENTS), 1763726400 + i);
      for (let m = Math.floor(random() * 3); m > 0; m--) data = mutate(random, data);
      check(new TextFrameDecoder(), random, random() < 0.5 ? 'MESSAGE' : 'CODE', data, `frame ${i}`);
    }
  });

  it('takes the service frame shape through templates, and declines any change a template cannot vouch for', () => {
    const decoder = new TextFrameDecoder();
    const frame = (content: string, created = 1763726400, group = 'g-analyze-summary'): string =>
      `{"id":"${group}","model":"pd-analyst-1","choices":[{"delta":{"role":null,"content":${JSON.stringify(content)}},"index":0,"finish_reason":null}],` +
      `"created":${created},"groupId":"${group}","groupName":"Summary","stage":"Analyze"}`;
    const random = prng(7);
    let answered = 0;
    for (let i = 0; i < 40; i++) {
      if (check(decoder, random, 'MESSAGE', frame(`part ${i} of the answer`, 1763726400 + (i >> 3)), `frame ${i}`)) answered++;
    }
    // A scan, one left to decodeEvent while learning backs off, a scan that makes the template.
    assert.deepEqual(decoder.counts, { frames: 0, templates: 37, scans: 2, declined: 1 });
    assert.equal(answered, 39);
    const declined = [
      frame('x').replace('"Analyze"}', '"Analyze"}}'),
      frame('x').replace('"created":1763726400', '"created":01'),
      frame('x').replace('"groupId":"g-analyze-summary"', '"groupId":"g-analyze-summary","groupId":"other"'),
      frame('x').replace('"content":"x"', '"content":"x\\q"'),
      frame('x').replace('"content":"x"', '"content":"x\u0001"'),
      frame('x').slice(0, -1),
    ];
    for (const data of declined) {
      assert.equal(decoder.decode('MESSAGE', data, 0, data.length), undefined, data);
    }
    // Other content of any kind still goes through the template, decoded exactly.
    for (const content of ['é 🚀', 'a "quoted" \\ word\n', '\u2028', '']) assert.ok(check(decoder, random, 'MESSAGE', frame(content), content));
  });

  it('decodes a frame with millions of escapes (more than a regular expression can backtrack over)', () => {
    const chunks: Uint8Array[] = [];
    const line = (content: string): Uint8Array => new TextEncoder().encode(
      `id:g\nevent:CODE\ndata:{"choices":[{"delta":{"content":${JSON.stringify(content)}}}],"created":1,"groupId":"g","stage":"Analyze"}\n\n`);
    for (let i = 0; i < 40; i++) chunks.push(line(`print(${i})`));
    const huge = '\n'.repeat(8_000_000);
    chunks.push(line(huge));
    const events: JobEvent[] = [];
    const decoder = new JobEventDecoder({ event: (e) => events.push(e), badFrame: (k, e) => assert.fail(`${k}: ${e.message}`), fatal: (m) => assert.fail(m) });
    for (const c of chunks) decoder.feed(c);
    decoder.end();
    assert.equal(events.length, 41);
    const last = events[40];
    assert.ok(last?.kind === 'BLOCK' && last.block.type === 'CODE' && last.block.content === huge);
    assert.ok(decoder.fastPath.frames > 30, JSON.stringify(decoder.fastPath));
  });
});

// ---- whole streams through JobEventDecoder ---------------------------------------------------

type Sunk = { event: string } | { bad: string };

function oracleDecode(bytes: Uint8Array): Sunk[] {
  const out: Sunk[] = [];
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
  const text = new TextDecoder('utf-8').decode(bytes);
  if (text.length > 0) parser.feed(text);
  const last = text.length > 0 ? text.charCodeAt(text.length - 1) : 10;
  if (last === 10) parser.feed('\n');
  else if (last === 13) parser.feed('\n\n');
  return out;
}

function ourDecode(chunks: readonly Uint8Array[]): { out: Sunk[]; decoder: JobEventDecoder } {
  const out: Sunk[] = [];
  const decoder = new JobEventDecoder({
    event: (e) => out.push({ event: JSON.stringify(e) }),
    badFrame: (kind, err) => out.push({ bad: `${kind}: ${err.message}` }),
    fatal: (m) => assert.fail(m),
  });
  for (const c of chunks) decoder.feed(c);
  decoder.end();
  return { out, decoder };
}

/** A stream as the service sends it, long runs of one group, with odd and broken frames mixed in. */
function serviceStream(random: Random): Uint8Array {
  let s = 'event:JOB_ID\ndata:job-1\n\n';
  let created = 1763726400;
  const groups = [['g-analyze-summary', 'Summary', 'Analyze'], ['g-respond-conclusions', '结论', 'Respond']] as const;
  const frames = 100 + Math.floor(random() * 300);
  for (let i = 0; i < frames; i++) {
    const [group, name, stage] = groups[i < frames / 2 ? 0 : 1];
    if (random() < 0.05) created++;
    const content = `${pick(random, CONTENTS)}${pick(random, CONTENTS)}`;
    let data = `{"id":"${group}","model":"pd-analyst-1","choices":[{"delta":{"role":null,"content":${JSON.stringify(content)}},"index":0,"finish_reason":null}],` +
      `"created":${created},"groupId":"${group}","groupName":"${name}","stage":"${stage}"}`;
    if (random() < 0.08) data = mutate(random, data);
    const r = random();
    const event = random() < 0.9 ? 'MESSAGE' : pick(random, ['CODE', 'TASK', 'PROGRESS']);
    if (r < 0.8) s += `id:${group}\nevent:${event}\ndata:${data}\n\n`;
    else if (r < 0.85) s += `id:${group}\r\nevent:${event}\r\ndata:${data}\r\n\r\n`;
    else if (r < 0.9) s += `event:${event}\n:keep-alive\ndata: ${data}\n\n`;
    else if (r < 0.94) s += `id:${group}\nevent:${event}\ndata:${data.replace(/,/g, ',\ndata:')}\n\n`;
    else if (r < 0.97) s += `id:${group}\nevent:${event}\ndata:${data}\n\n\n`;
    else s += `:keep-alive\n\nid:${group}\nevent:${event}\nretry:10\ndata:${data}\n\n`;
  }
  s += random() < 0.8 ? 'event:END_MARK\ndata:[DONE]\n\n' : 'event:END_MARK\ndata:[DO';
  return new TextEncoder().encode(s);
}

function splitBytes(bytes: Uint8Array, random: Random): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  const big = random() < 0.5;
  while (at < bytes.length) {
    const n = big ? 1 + Math.floor(random() * 4096) : 1 + Math.floor(random() * 400);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe('api/sseDecoder fast paths on service-like streams', () => {
  it('gives the events and errors of TextDecoder + eventsource-parser + decodeEvent, and mostly via whole-frame templates', () => {
    const random = prng(0xc0de);
    let frames = 0;
    let messages = 0;
    for (let run = 0; run < 60; run++) {
      const bytes = serviceStream(random);
      const expected = oracleDecode(bytes);
      const whole = ourDecode([bytes]);
      assert.deepEqual(whole.out, expected, `run ${run} (whole)`);
      for (let split = 0; split < 4; split++) {
        assert.deepEqual(ourDecode(splitBytes(bytes, random)).out, expected, `run ${run} (split ${split})`);
      }
      // One frame per chunk, as a live stream flushed per event arrives.
      const perFrame: Uint8Array[] = [];
      let from = 0;
      for (let i = 1; i < bytes.length; i++) {
        if (bytes[i] === 10 && bytes[i - 1] === 10) {
          perFrame.push(bytes.subarray(from, i + 1));
          from = i + 1;
        }
      }
      perFrame.push(bytes.subarray(from));
      assert.deepEqual(ourDecode(perFrame).out, expected, `run ${run} (per frame)`);
      const counts = whole.decoder.fastPath;
      frames += counts.frames;
      messages += counts.frames + counts.templates + counts.scans + counts.declined;
    }
    assert.ok(frames > messages * 0.5, `whole-frame templates took ${frames} of ${messages} text frames`);
  });
});
