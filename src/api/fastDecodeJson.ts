/**
 * The fast frame decoder's full scan (fastDecode.ts): checks a frame's JSON text against the
 * RFC 8259 grammar without building values and notes where the strings the fold needs are. Every
 * read stays inside `[from, to)` (a frame's data is a range of a larger chunk); anything JSON.parse
 * would reject, and any shape this scan does not vouch for, answers false.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** Nesting followed inside skipped values; deeper frames take the JSON.parse path. */
const MAX_DEPTH = 32;

/** Set by {@link stringEnd}: whether the string just checked contains a backslash escape. */
let escaped = false;

function isWs(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** The index of the first non-whitespace character at or after `i` (or `to`). */
function ws(t: string, i: number, to: number): number {
  while (i < to && isWs(t.charCodeAt(i))) i++;
  return i;
}

function isHex(c: number): boolean {
  const l = c | 32;
  return (c >= 48 && c <= 57) || (l >= 97 && l <= 102);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * The index after the closing quote of the JSON string whose opening quote is at `i`, or -1 (raw
 * control character, bad escape, no closing quote before `to`). Sets {@link escaped}.
 */
function stringEnd(t: string, i: number, to: number): number {
  let esc = false;
  for (i++; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c === QUOTE) {
      escaped = esc;
      return i + 1;
    }
    if (c < 32) return -1;
    if (c === BACKSLASH) {
      esc = true;
      if (++i >= to) return -1;
      const e = t.charCodeAt(i);
      if (e === 117) {
        if (i + 4 >= to || !isHex(t.charCodeAt(i + 1)) || !isHex(t.charCodeAt(i + 2)) || !isHex(t.charCodeAt(i + 3)) || !isHex(t.charCodeAt(i + 4))) return -1;
        i += 4;
      } else if (e !== QUOTE && e !== BACKSLASH && e !== 47 && e !== 98 && e !== 102 && e !== 110 && e !== 114 && e !== 116) {
        return -1;
      }
    }
  }
  return -1;
}

/** The index after the JSON number starting at `i`, or -1. */
function numberEnd(t: string, i: number, to: number): number {
  if (i < to && t.charCodeAt(i) === 45) i++;
  if (i >= to) return -1;
  const first = t.charCodeAt(i);
  if (first === 48) i++;
  else if (first >= 49 && first <= 57) {
    i++;
    while (i < to && isDigit(t.charCodeAt(i))) i++;
  } else return -1;
  if (i < to && t.charCodeAt(i) === 46) {
    const s = ++i;
    while (i < to && isDigit(t.charCodeAt(i))) i++;
    if (i === s) return -1;
  }
  if (i < to && (t.charCodeAt(i) | 32) === 101) {
    i++;
    if (i < to && (t.charCodeAt(i) === 43 || t.charCodeAt(i) === 45)) i++;
    const s = i;
    while (i < to && isDigit(t.charCodeAt(i))) i++;
    if (i === s) return -1;
  }
  return i;
}

/** The index after `word` (true/false/null) at `i`, or -1. */
function literalEnd(t: string, i: number, to: number, word: string): number {
  return i + word.length <= to && t.startsWith(word, i) ? i + word.length : -1;
}

/** The index after the JSON value at `i` (checked, not built), or -1 if it is not valid JSON. */
function valueEnd(t: string, i: number, to: number, depth: number): number {
  if (i >= to) return -1;
  const c = t.charCodeAt(i);
  if (c === QUOTE) return stringEnd(t, i, to);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    if (depth >= MAX_DEPTH) return -1;
    const object = c === OPEN_BRACE;
    const close = object ? CLOSE_BRACE : CLOSE_BRACKET;
    i = ws(t, i + 1, to);
    if (i < to && t.charCodeAt(i) === close) return i + 1;
    for (;;) {
      if (object) {
        if (i >= to || t.charCodeAt(i) !== QUOTE) return -1;
        i = stringEnd(t, i, to);
        if (i < 0) return -1;
        i = ws(t, i, to);
        if (i >= to || t.charCodeAt(i) !== COLON) return -1;
        i = ws(t, i + 1, to);
      }
      i = valueEnd(t, i, to, depth + 1);
      if (i < 0) return -1;
      i = ws(t, i, to);
      if (i >= to) return -1;
      const d = t.charCodeAt(i);
      if (d === close) return i + 1;
      if (d !== COMMA) return -1;
      i = ws(t, i + 1, to);
    }
  }
  if (c === 116) return literalEnd(t, i, to, 'true');
  if (c === 102) return literalEnd(t, i, to, 'false');
  if (c === 110) return literalEnd(t, i, to, 'null');
  if (c === 45 || isDigit(c)) return numberEnd(t, i, to);
  return -1;
}

// Keys the fold reads at the top level of a text frame.
export const GROUP_ID = 0;
export const GROUP_ID_SNAKE = 1;
export const ID = 2;
export const GROUP_NAME = 3;
export const GROUP_NAME_SNAKE = 4;
export const STAGE = 5;
const SLOTS = 6;
const CHOICES = 6;
const OTHER = 7;
/** Slot value markers: the key was absent, or its value was JSON null (which `??` skips alike). */
export const ABSENT = -2;
export const NULL = -1;
const MAX_HOLES = 8;

function keyOf(t: string, from: number, length: number): number {
  switch (length) {
    case 2:
      return t.charCodeAt(from) === 105 && t.charCodeAt(from + 1) === 100 ? ID : OTHER;
    case 5:
      return t.startsWith('stage', from) ? STAGE : OTHER;
    case 7:
      return t.startsWith('groupId', from) ? GROUP_ID : t.startsWith('choices', from) ? CHOICES : OTHER;
    case 8:
      return t.startsWith('group_id', from) ? GROUP_ID_SNAKE : OTHER;
    case 9:
      return t.startsWith('groupName', from) ? GROUP_NAME : OTHER;
    case 10:
      return t.startsWith('group_name', from) ? GROUP_NAME_SNAKE : OTHER;
    default:
      return OTHER;
  }
}

/** Where a scanned text frame keeps the strings the fold needs (indices into the scanned text). */
export class FrameShape {
  /** Per slot (GROUP_ID … STAGE): the value's opening quote, or {@link NULL} / {@link ABSENT}. */
  readonly start = new Int32Array(SLOTS);
  /** Per slot: the index after the value's closing quote. */
  readonly end = new Int32Array(SLOTS);
  /** Per slot: 1 if the string has backslash escapes. */
  readonly escaped = new Uint8Array(SLOTS);
  /** `choices[0].delta.content`: opening quote, index after the closing quote, escapes. */
  contentStart = 0;
  contentEnd = 0;
  contentEscaped = false;
  /** Top-level number values after the content, as [start, end) pairs (they vary frame to frame). */
  readonly holes = new Int32Array(2 * MAX_HOLES);
  holeCount = 0;
}

/**
 * Checks that `t[from, to)` is one JSON object that JSON.parse accepts and that has the text-frame
 * shape: `choices` an array whose first element is an object whose `delta` is an object whose
 * `content` is a string; the place keys (groupId, group_id, id, groupName, group_name, stage)
 * strings or null. Any key it reads given twice, an escaped key at those levels (it could spell
 * one of them), nesting deeper than it follows: false, so the caller takes the JSON.parse path.
 */
export function scanTextFrame(t: string, from: number, to: number, shape: FrameShape): boolean {
  const start = shape.start;
  start.fill(ABSENT);
  shape.holeCount = 0;
  let i = ws(t, from, to);
  if (i >= to || t.charCodeAt(i) !== OPEN_BRACE) return false;
  i = ws(t, i + 1, to);
  let choices = false;
  for (;;) {
    if (i >= to || t.charCodeAt(i) !== QUOTE) return false;
    const keyEnd = stringEnd(t, i, to);
    if (keyEnd < 0 || escaped) return false;
    const key = keyOf(t, i + 1, keyEnd - i - 2);
    i = ws(t, keyEnd, to);
    if (i >= to || t.charCodeAt(i) !== COLON) return false;
    i = ws(t, i + 1, to);
    if (i >= to) return false;
    const c = t.charCodeAt(i);
    if (key === OTHER) {
      const e = valueEnd(t, i, to, 1);
      if (choices && e > 0 && (c === 45 || isDigit(c)) && shape.holeCount < MAX_HOLES) {
        shape.holes[2 * shape.holeCount] = i;
        shape.holes[2 * shape.holeCount + 1] = e;
        shape.holeCount++;
      }
      i = e;
    } else if (key === CHOICES) {
      if (choices) return false;
      choices = true;
      i = choicesEnd(t, i, to, shape);
    } else {
      if (start[key] !== ABSENT) return false;
      if (c === QUOTE) {
        const e = stringEnd(t, i, to);
        if (e < 0) return false;
        start[key] = i;
        shape.end[key] = e;
        shape.escaped[key] = escaped ? 1 : 0;
        i = e;
      } else if (c === 110) {
        start[key] = NULL;
        i = literalEnd(t, i, to, 'null');
      } else {
        return false;
      }
    }
    if (i < 0) return false;
    i = ws(t, i, to);
    if (i >= to) return false;
    const d = t.charCodeAt(i);
    if (d === CLOSE_BRACE) break;
    if (d !== COMMA) return false;
    i = ws(t, i + 1, to);
  }
  return choices && ws(t, i + 1, to) === to;
}

/** `[ {"delta": {"content": "…", …}, …}, … ]` at `i`: the index after it, or -1. */
function choicesEnd(t: string, i: number, to: number, shape: FrameShape): number {
  if (t.charCodeAt(i) !== OPEN_BRACKET) return -1;
  i = ws(t, i + 1, to);
  if (i >= to || t.charCodeAt(i) !== OPEN_BRACE) return -1;
  i = objectEnd(t, i, to, true, shape);
  for (;;) {
    if (i < 0) return -1;
    i = ws(t, i, to);
    if (i >= to) return -1;
    const d = t.charCodeAt(i);
    if (d === CLOSE_BRACKET) return i + 1;
    if (d !== COMMA) return -1;
    i = valueEnd(t, ws(t, i + 1, to), to, 2);
  }
}

/**
 * The object at `i`: `choices[0]` when `outer` (its one `delta` must be an object), else that
 * delta (its one `content` must be a string, noted in `shape`). The index after it, or -1.
 */
function objectEnd(t: string, i: number, to: number, outer: boolean, shape: FrameShape): number {
  let found = false;
  i = ws(t, i + 1, to);
  for (;;) {
    if (i >= to || t.charCodeAt(i) !== QUOTE) return -1;
    const keyEnd = stringEnd(t, i, to);
    if (keyEnd < 0 || escaped) return -1;
    const wanted = outer
      ? keyEnd - i === 7 && t.startsWith('delta', i + 1)
      : keyEnd - i === 9 && t.startsWith('content', i + 1);
    i = ws(t, keyEnd, to);
    if (i >= to || t.charCodeAt(i) !== COLON) return -1;
    i = ws(t, i + 1, to);
    if (i >= to) return -1;
    if (!wanted) {
      i = valueEnd(t, i, to, outer ? 3 : 4);
    } else {
      if (found) return -1;
      found = true;
      if (outer) {
        if (t.charCodeAt(i) !== OPEN_BRACE) return -1;
        i = objectEnd(t, i, to, false, shape);
      } else {
        if (t.charCodeAt(i) !== QUOTE) return -1;
        shape.contentStart = i;
        i = stringEnd(t, i, to);
        shape.contentEnd = i;
        shape.contentEscaped = escaped;
      }
    }
    if (i < 0) return -1;
    i = ws(t, i, to);
    if (i >= to) return -1;
    const d = t.charCodeAt(i);
    if (d === CLOSE_BRACE) return found ? i + 1 : -1;
    if (d !== COMMA) return -1;
    i = ws(t, i + 1, to);
  }
}
