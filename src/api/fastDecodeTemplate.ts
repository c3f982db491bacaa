/**
 * Templates of text frames for the fast decoder (fastDecode.ts). A template is made from a frame
 * the full scan accepted: its exact text, with the content string and the top-level numbers after
 * it (`created`, which changes every second) as holes. Replacing a JSON string token by another
 * string token, or a number token by another number token, keeps a JSON text valid and every other
 * value unchanged, so a frame that matches a template decodes to the template's place and its own
 * content, with no JSON.parse. The match is two sticky regular expressions (native code that reads
 * each character once): the text before the content plus the content's first characters, then the
 * rest. A whole-frame template also covers the SSE lines around the data (`id:…\nevent:…\ndata:`
 * before, the data line's end and the blank line after), so the framer can skip its line work too.
 */
import type { Stage } from '../shared/domain';
import type { FrameShape } from './fastDecodeJson';

export interface Template {
  /**
   * Sticky: the text before the content, its opening quote, and the longest run of characters
   * that stand for themselves (printable ASCII but `"` and `\`). Most fragments end right there
   * with their closing quote, and are then known to be plain ASCII with no escapes.
   */
  readonly head: RegExp;
  /** Characters before the content's opening quote. */
  readonly headLength: number;
  /** Sticky: the text after the content with number holes; undefined when the content ends the text. */
  readonly tail: RegExp | undefined;
  /** What the two are made of, to build a whole-frame template around them. */
  readonly headText: string;
  readonly tailSource: string;
  readonly kind: 'MESSAGE' | 'CODE';
  readonly groupId: string;
  readonly groupName: string | undefined;
  readonly stage: Stage;
}

export type Place = Pick<Template, 'groupId' | 'groupName' | 'stage'>;

/** Templates bigger than this are not worth a regular expression (and bound what one costs). */
const MAX_LITERAL_CHARS = 2048;

/** Printable ASCII but `"` and `\`: characters that stand for themselves in a JSON string. */
const PLAIN_RUN = '[\\x20\\x21\\x23-\\x5b\\x5d-\\x7f]*';
/**
 * The rest of a JSON string token after any prefix of its characters, through the closing quote
 * (the "unrolled loop" form: no backtracking per character).
 */
export const JSON_STRING_REST = /[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*"/y;
/** A JSON number token. */
const JSON_NUMBER = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';

/** `text` as a regular expression source matching exactly it (code units; no flags needed). */
export function literalSource(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 32) out += text[i];
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return out;
}

/**
 * The frame's fixed text (everything but the holes), identical for frames one template matches;
 * undefined if the frame is too big to template.
 */
export function templateKey(t: string, from: number, to: number, shape: FrameShape): string | undefined {
  if (shape.contentStart - from + (to - shape.contentEnd) > MAX_LITERAL_CHARS) return undefined;
  let key = t.slice(from, shape.contentStart);
  let at = shape.contentEnd;
  for (let h = 0; h < shape.holeCount; h++) {
    key += `\u0000${t.slice(at, shape.holes[2 * h])}`;
    at = shape.holes[2 * h + 1] as number;
  }
  return `${key}\u0000${t.slice(at, to)}`;
}

function make(headText: string, tailSource: string, kind: 'MESSAGE' | 'CODE', place: Place): Template {
  return {
    head: new RegExp(`${literalSource(`${headText}"`)}${PLAIN_RUN}`, 'y'),
    headLength: headText.length,
    tail: tailSource === '' ? undefined : new RegExp(tailSource, 'y'),
    headText,
    tailSource,
    kind,
    groupId: place.groupId,
    groupName: place.groupName,
    stage: place.stage,
  };
}

/** The template of the data `t[from, to)`, which the full scan accepted into `shape`. */
export function buildTemplate(t: string, from: number, to: number, shape: FrameShape, kind: 'MESSAGE' | 'CODE', place: Place): Template {
  let tail = '';
  let at = shape.contentEnd;
  for (let h = 0; h < shape.holeCount; h++) {
    tail += literalSource(t.slice(at, shape.holes[2 * h])) + JSON_NUMBER;
    at = shape.holes[2 * h + 1] as number;
  }
  tail += literalSource(t.slice(at, to));
  return make(t.slice(from, shape.contentStart), tail, kind, place);
}

/**
 * A whole-frame template: `lines` (the frame's `id`/`event` lines and `data:`, `\n`-ended, no
 * `\r`), the data template, then the data line's `\n` and the blank line's `\n`.
 */
export function buildFrameTemplate(lines: string, data: Template, kind: 'MESSAGE' | 'CODE'): Template | undefined {
  if (lines.length > MAX_LITERAL_CHARS) return undefined;
  return make(lines + data.headText, `${data.tailSource}${literalSource('\n\n')}`, kind, data);
}
