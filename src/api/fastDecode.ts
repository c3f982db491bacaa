/**
 * Fast path for the frames that make up almost all of a job stream: MESSAGE (and CODE) text
 * fragments, `{"id":…,"choices":[{"delta":{"content":"…"}}],"created":…,"groupId":…,"groupName":…,"stage":…}`.
 * JSON.parse of each ~300-character frame costs several times the SSE framing (bench/foldBench.ts)
 * while the fold needs four strings out of it, and even a JavaScript loop over every character
 * costs about as much as JSON.parse. So frames are checked by native string operations:
 *
 * - A full scan (fastDecodeJson.ts) checks a frame's whole text against the JSON grammar and finds
 *   the strings the fold reads. It runs to learn: a shape seen in two scans in a row becomes a
 *   template, and while frames keep changing shape the scans back off (the rest go to decodeEvent).
 * - A template (fastDecodeTemplate.ts) is one sticky regular expression matching the frame's exact
 *   text with the content string and the top-level numbers after it (`created`) as holes. A frame
 *   that matches is that same valid JSON with another content, so its group id, name and stage
 *   are the template's, decoded once; only the content is decoded per frame.
 * - A frame whose data matched a template, seen twice with the same SSE lines around it, gives a
 *   whole-frame template, which the framer tries first (SseFrameSink.wholeFrame): the `id:` and
 *   `event:` lines, the data and the blank line in one match.
 *
 * It returns undefined whenever it cannot vouch for giving exactly what `decodeEvent` gives (other
 * shapes, a key it reads given twice, an escaped key, numbers where it expects strings, …); the
 * caller then runs `decodeEvent`, which decodes the frame or reports the error exactly as before.
 * test/api/fastDecode.test.ts compares both on thousands of random and adversarial frames.
 */
import { decodeStage } from '../shared/blockCodecV1';
import type { Block, JobEvent, Stage } from '../shared/domain';
import {
  ABSENT, FrameShape, GROUP_ID, GROUP_ID_SNAKE, GROUP_NAME, GROUP_NAME_SNAKE, ID, NULL, scanTextFrame, STAGE,
} from './fastDecodeJson';
import { buildFrameTemplate, buildTemplate, contentClose, templateKey, type Place, type Template } from './fastDecodeTemplate';

const BACKSLASH = 92;

/** Turns a range of the framed text into the string it stands for. */
export interface TextRanges {
  /** `t[from, to)` as text: a plain slice, or UTF-8 decoded when `t` is a byte view of the stream. */
  text(t: string, from: number, to: number): string;
  /** `t[from, to)`, known to be printable ASCII, as a string of its own (see {@link copyRange}). */
  plain(t: string, from: number, to: number): string;
}

/** For text that already is the decoded stream. */
export const plainText: TextRanges = { text: (t, from, to) => t.slice(from, to), plain: copyRange };

/** Templates kept of each kind (most recently matched first): a stream interleaves a few groups at most. */
const MAX_TEMPLATES = 4;
/** Frames between two template compilations, so a stream of ever-new shapes cannot make us compile per frame. */
const COMPILE_EVERY = 16;
const LF = 10;
/** The longest back-off between two learning scans, in frames no template matched. */
const MAX_SCAN_EVERY = 64;
/** Group ids and names remembered for {@link TextFrameDecoder.intern}; a stream has a few dozen groups. */
const MAX_INTERNED = 256;

/** How the frames offered so far were decoded (for tests and the benchmark). */
export interface FastDecodeCounts {
  /** Whole frames matched by a whole-frame template. */
  frames: number;
  /** Data matched by a data template. */
  templates: number;
  /** Data decoded by the full scan. */
  scans: number;
  /** Data left to decodeEvent (another shape, or not scanned while learning backs off). */
  declined: number;
}

/** Decodes MESSAGE/CODE frames whose content is a string; see the module comment. */
export class TextFrameDecoder {
  readonly counts: FastDecodeCounts = { frames: 0, templates: 0, scans: 0, declined: 0 };
  /** After {@link TextFrameDecoder.decodeFrame} succeeded: the index just after that frame. */
  frameEnd = 0;
  private readonly shape = new FrameShape();
  private readonly templates: Template[] = [];
  private readonly frameTemplates: Template[] = [];
  private candidate: string | undefined;
  private frameCandidate: string | undefined;
  private frameCandidateOf: Template | undefined;
  private sinceCompile = COMPILE_EVERY;
  /** Scan one frame in `scanEvery` that no template matched (1 while learning works). */
  private scanEvery = 1;
  private sinceScan = 0;
  private sinceFrameCompile = COMPILE_EVERY;
  private end = 0;
  private readonly strings = new Map<string, string>();

  constructor(private readonly ranges: TextRanges = plainText) {}

  /**
   * The event `decodeEvent(kind, data)` returns for the data `t[from, to)` stands for, or undefined
   * when this decoder cannot vouch for it (then call decodeEvent, which also produces every error).
   * `start` is SseFrameSink.frame's: where the frame's lines start in `t`, or -1.
   */
  decode(kind: 'MESSAGE' | 'CODE', t: string, from: number, to: number, start = -1): JobEvent | undefined {
    this.sinceCompile++;
    this.sinceFrameCompile++;
    const templates = this.templates;
    for (let k = 0; k < templates.length; k++) {
      const tp = templates[k] as Template;
      const e = this.match(tp, kind, t, from, to);
      if (e === undefined) continue;
      if (k > 0) {
        templates.splice(k, 1);
        templates.unshift(tp);
      }
      this.counts.templates++;
      if (start >= 0) this.learnFrame(t, start, from, to, tp, kind);
      return e;
    }
    // The scan is a loop over every character in JavaScript, no faster than JSON.parse: it runs to
    // learn templates, and backs off while frames keep changing shape (a per-frame id, say).
    if (++this.sinceScan < this.scanEvery) {
      this.counts.declined++;
      return undefined;
    }
    this.sinceScan = 0;
    const shape = this.shape;
    if (!scanTextFrame(t, from, to, shape)) {
      this.counts.declined++;
      this.backOff();
      return undefined;
    }
    this.counts.scans++;
    const place = this.place(t);
    const content = this.string(t, shape.contentStart, shape.contentEnd, shape.contentEscaped);
    this.learn(t, from, to, kind, place);
    return event(kind, place.groupId, place.groupName, place.stage, content);
  }

  /**
   * The event of the whole frame at `t[pos…]` (SSE lines, data, blank line) if a whole-frame
   * template matches it; {@link TextFrameDecoder.frameEnd} is then the index after it.
   */
  decodeFrame(t: string, pos: number): JobEvent | undefined {
    const templates = this.frameTemplates;
    for (let k = 0; k < templates.length; k++) {
      const tp = templates[k] as Template;
      const e = this.match(tp, tp.kind, t, pos, -1);
      if (e === undefined) continue;
      if (k > 0) {
        templates.splice(k, 1);
        templates.unshift(tp);
      }
      this.counts.frames++;
      this.frameEnd = this.end;
      return e;
    }
    return undefined;
  }

  /** `tp` matched at `from`, ending exactly at `to` (or anywhere, for -1: then see `this.end`). */
  private match(tp: Template, kind: 'MESSAGE' | 'CODE', t: string, from: number, to: number): JobEvent | undefined {
    const re = tp.re;
    re.lastIndex = from;
    try {
      if (!re.test(t)) return undefined;
    } catch {
      // Millions of escapes in one string exhaust the regexp engine's backtrack stack (RangeError);
      // the full scan and JSON.parse have no such limit.
      return undefined;
    }
    const end = re.lastIndex;
    if (to === -1) this.end = end;
    else if (end !== to) return undefined;
    const start = from + tp.headLength + 1;
    const close = contentClose(tp, t, end);
    // Plain (the common case): printable ASCII without escapes, the text as it stands.
    let plain = true;
    for (let i = start; i < close; i++) {
      const c = t.charCodeAt(i);
      if (c >= 0x7f || c === BACKSLASH) {
        plain = false;
        break;
      }
    }
    let content: string;
    if (plain) content = this.ranges.plain(t, start, close);
    else {
      // Non-ASCII (UTF-8 to decode, in a byte view) or escapes: the general conversion.
      content = this.ranges.text(t, start, close);
      if (content.includes('\\')) content = JSON.parse(`"${content}"`) as string;
    }
    return event(kind, tp.groupId, tp.groupName, tp.stage, content);
  }

  /** The JSON string token `t[start, end)` (quotes included) as its value. */
  private string(t: string, start: number, end: number, escaped: boolean): string {
    const raw = this.ranges.text(t, start + 1, end - 1);
    // Escapes decode through JSON.parse, exactly as the whole frame would have.
    return escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  private slot(t: string, k: number): string | undefined {
    const s = this.shape.start[k] as number;
    return s < 0 ? undefined : this.string(t, s, this.shape.end[k] as number, this.shape.escaped[k] === 1);
  }

  /** decodePlace's rules: groupId ?? group_id ?? id, groupName ?? group_name, null as absent. */
  private place(t: string): Place {
    const start = this.shape.start;
    const present = (k: number): boolean => start[k] !== ABSENT && start[k] !== NULL;
    const gk = present(GROUP_ID) ? GROUP_ID : present(GROUP_ID_SNAKE) ? GROUP_ID_SNAKE : ID;
    const nk = present(GROUP_NAME) ? GROUP_NAME : GROUP_NAME_SNAKE;
    const name = this.slot(t, nk);
    return {
      groupId: this.intern(this.slot(t, gk) ?? ''),
      groupName: name === '' || name === undefined ? undefined : this.intern(name),
      stage: decodeStage(this.slot(t, STAGE)),
    };
  }

  /**
   * One string object per group id and name: the fold compares each fragment's group with the
   * last one, and the same object compares at once, where equal copies compare character by
   * character.
   */
  private intern(s: string): string {
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    if (this.strings.size >= MAX_INTERNED) this.strings.clear();
    this.strings.set(s, s);
    return s;
  }

  /** Turns a data shape seen in two full scans in a row into a template (at most every few frames). */
  private learn(t: string, from: number, to: number, kind: 'MESSAGE' | 'CODE', place: Place): void {
    const key = templateKey(t, from, to, this.shape);
    if (key === undefined) {
      this.backOff();
      return;
    }
    if (key !== this.candidate || this.sinceCompile < COMPILE_EVERY) {
      if (key !== this.candidate) this.backOff();
      this.candidate = key;
      return;
    }
    this.candidate = undefined;
    this.sinceCompile = 0;
    this.scanEvery = 1;
    add(this.templates, buildTemplate(t, from, to, this.shape, kind, place));
  }

  private backOff(): void {
    this.scanEvery = Math.min(this.scanEvery * 2, MAX_SCAN_EVERY);
  }

  /**
   * A frame whose data matched `tp`, seen twice in a row with the same lines around it (`\n`
   * line ends, the blank line right after the data), becomes a whole-frame template.
   */
  private learnFrame(t: string, start: number, from: number, to: number, tp: Template, kind: 'MESSAGE' | 'CODE'): void {
    if (t.charCodeAt(to) !== LF || t.charCodeAt(to + 1) !== LF) return;
    const lines = t.slice(start, from);
    if (lines !== this.frameCandidate || tp !== this.frameCandidateOf || this.sinceFrameCompile < COMPILE_EVERY) {
      this.frameCandidate = lines;
      this.frameCandidateOf = tp;
      return;
    }
    this.frameCandidate = undefined;
    this.frameCandidateOf = undefined;
    this.sinceFrameCompile = 0;
    const frame = buildFrameTemplate(lines, tp, kind);
    if (frame !== undefined) add(this.frameTemplates, frame);
  }
}

function add(templates: Template[], tp: Template): void {
  templates.unshift(tp);
  if (templates.length > MAX_TEMPLATES) templates.pop();
}

/**
 * `t[from, to)` as a string of its own. A slice of 13 or more characters would share (and keep
 * alive) the whole chunk it came from, in the end all of the stream's bytes for as long as the
 * answer lives; pieces under that length are copies, and joining them keeps only them.
 */
export function copyRange(t: string, from: number, to: number): string {
  if (to - from < 13) return t.slice(from, to);
  let s = t.slice(from, from + 12);
  for (let i = from + 12; i < to; i += 12) s += t.slice(i, i + 12 < to ? i + 12 : to);
  return s;
}

/** The literal makeBlock builds for a text block: same keys in the same order. */
function event(kind: 'MESSAGE' | 'CODE', groupId: string, groupName: string | undefined, stage: Stage, content: string): JobEvent {
  const block: Block = groupName === undefined
    ? { groupId, stage, type: kind, content }
    : { groupId, stage, groupName, type: kind, content };
  return { kind: 'BLOCK', block };
}
