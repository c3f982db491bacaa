/**
 * Templates of text frames for the fast decoder (fastDecode.ts). A template is made from a frame
 * the full scan accepted: its exact text, with the content string and the top-level numbers after
 * it (`created`, which changes every second) as holes. Replacing a JSON string token by another
 * string token, or a number token by another number token, keeps a JSON text valid and every other
 * value unchanged, so a frame that matches a template decodes to the template's place and its own
 * content, with no JSON.parse. The match is one sticky regular expression: native code that reads
 * each character once. A whole-frame template also covers the SSE lines around the data
 * (`id:…\nevent:…\ndata:` before, the data line's end and the blank line after), so the framer
 * can skip its line work too.
 */
import type { Stage } from '../shared/domain';
import type { FrameShape } from './fastDecodeJson';

export interface Template {
  /** Sticky: the text before the content, the content string token, the rest with number holes. */
  readonly re: RegExp;
  /** Characters before the content's opening quote. */
  readonly headLength: number;
  /** Lengths of the fixed pieces after the content's closing quote (between the number holes). */
  readonly tailLengths: readonly number[];
  /** What it is made of, to build a whole-frame template around it. */
  readonly headText: string;
  readonly tailParts: readonly string[];
  readonly kind: 'MESSAGE' | 'CODE';
  readonly groupId: string;
  readonly groupName: string | undefined;
  readonly stage: Stage;
}

export type Place = Pick<Template, 'groupId' | 'groupName' | 'stage'>;

/** Templates bigger than this are not worth a regular expression (and bound what one costs). */
const MAX_LITERAL_CHARS = 2048;

/** A JSON string token: the "unrolled loop" form, no backtracking per character. */
const JSON_STRING = '"[^"\\\\\\x00-\\x1f]*(?:\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\\\\x00-\\x1f]*)*"';
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

function tailParts(t: string, to: number, shape: FrameShape): string[] {
  const parts: string[] = [];
  let at = shape.contentEnd;
  for (let h = 0; h < shape.holeCount; h++) {
    parts.push(t.slice(at, shape.holes[2 * h]));
    at = shape.holes[2 * h + 1] as number;
  }
  parts.push(t.slice(at, to));
  return parts;
}

/**
 * The frame's fixed text (everything but the holes), identical for frames one template matches;
 * undefined if the frame is too big to template.
 */
export function templateKey(t: string, from: number, to: number, shape: FrameShape): string | undefined {
  if (shape.contentStart - from + (to - shape.contentEnd) > MAX_LITERAL_CHARS) return undefined;
  return `${t.slice(from, shape.contentStart)}\u0000${tailParts(t, to, shape).join('\u0000')}`;
}

function make(headText: string, parts: readonly string[], kind: 'MESSAGE' | 'CODE', place: Place): Template {
  return {
    re: new RegExp(`${literalSource(headText)}${JSON_STRING}${parts.map(literalSource).join(JSON_NUMBER)}`, 'y'),
    headLength: headText.length,
    tailLengths: parts.map((p) => p.length),
    headText,
    tailParts: parts,
    kind,
    groupId: place.groupId,
    groupName: place.groupName,
    stage: place.stage,
  };
}

/** The template of the data `t[from, to)`, which the full scan accepted into `shape`. */
export function buildTemplate(t: string, from: number, to: number, shape: FrameShape, kind: 'MESSAGE' | 'CODE', place: Place): Template {
  return make(t.slice(from, shape.contentStart), tailParts(t, to, shape), kind, place);
}

/**
 * A whole-frame template: `lines` (the frame's `id`/`event` lines and `data:`, `\n`-ended, no
 * `\r`), the data template, then the data line's `\n` and the blank line's `\n`.
 */
export function buildFrameTemplate(lines: string, data: Template, kind: 'MESSAGE' | 'CODE'): Template | undefined {
  if (lines.length > MAX_LITERAL_CHARS) return undefined;
  const parts = [...data.tailParts];
  parts[parts.length - 1] += '\n\n';
  return make(lines + data.headText, parts, kind, data);
}

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}

/**
 * After `tp.re` matched up to `end`: the index of the content's closing quote, found by walking
 * back over the fixed pieces and the numbers between them (a number never borders a number char:
 * the piece before one ends in `:` or whitespace, the piece after starts with `,`, `}` or `]`).
 */
export function contentClose(tp: Template, t: string, end: number): number {
  const lengths = tp.tailLengths;
  let p = end - (lengths[lengths.length - 1] as number);
  for (let h = lengths.length - 2; h >= 0; h--) {
    while (isNumberChar(t.charCodeAt(p - 1))) p--;
    p -= lengths[h] as number;
  }
  return p - 1;
}
