/**
 * Server-sent-events framing (the WHATWG `text/event-stream` line format) built for the job
 * stream's hot path. It frames exactly what eventsource-parser frames (the differential tests in
 * test/api/sseFramer.test.ts hold it to that), but it finds lines with `indexOf`, hands a frame's
 * data over as a range of the chunk instead of a copied string, and lets its sink take over whole
 * frames it recognises (see {@link SseFrameSink.wholeFrame}).
 *
 * What it implements: lines end in `\r\n`, `\n` or `\r` (a `\r\n` split across chunks counts once);
 * `field:value` with one optional space after the colon; a line without a colon is a field with an
 * empty value; `data` lines join with `\n`; `event` (empty means the default type); `id` (ignored
 * if it contains U+0000); `retry`; `:` lines are comments (keep-alives); one leading U+FEFF is
 * skipped; a blank line dispatches a frame that has at least one `data` line; other fields are
 * reported and ignored. Like eventsource-parser, and unlike a browser's EventSource, a frame's id
 * is the id given in that frame: this client never reconnects with Last-Event-ID, so it needs no
 * last-event-id state.
 */

/** Receives what the framer finds, in stream order. */
export interface SseFrameSink {
  /**
   * A dispatched frame. Its data is `text.slice(from, to)`: a range of the chunk, so a consumer
   * that only scans the data never copies it. `event` is undefined when the frame named none or an
   * empty one (SSE's default type, "message"). The frame's `id` field, which the job stream never
   * needs, is {@link SseFramer.id} during this call. `start` is where the frame's first line starts
   * in `text` when the frame is simple (only `id`, `event` and one `data` line, all in `text`, `\n`
   * line ends), else -1: a consumer may then learn the frame's exact text, as
   * {@link SseFrameSink.wholeFrame} needs.
   */
  frame(event: string | undefined, text: string, from: number, to: number, start: number): void;
  /**
   * Optional: called where a frame may start (nothing of a frame read yet), before `\n`-ended lines. If
   * the sink recognises a whole frame at `text[pos…]` (its lines and its blank line, ending with
   * `\n`) that the framer would dispatch as one frame with nothing else to report, it handles it
   * itself and returns the index after it; otherwise -1, and the framer reads the lines as usual.
   */
  wholeFrame?(text: string, pos: number): number;
  /** A comment line, without its colon and one optional space (keep-alives arrive here). */
  comment?(text: string): void;
  /** A valid `retry` field, in milliseconds. */
  retry?(ms: number): void;
  /** A line that was ignored: an unknown field, or a `retry` that is not a number. */
  ignored?(field: string, reason: 'unknown-field' | 'invalid-retry'): void;
  /** The pending line plus the frame's data exceeded the limit; the framer stops. */
  overflow(limit: number): void;
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const COLON = 58;
const BOM = 0xfeff;

/** Incremental framer: {@link SseFramer.feed} decoded text as it arrives, then {@link SseFramer.end}. */
export class SseFramer {
  /** Fragments of a line whose end has not arrived yet (kept as parts so a long line stays linear). */
  private readonly tail: string[] = [];
  private tailChars = 0;
  /** The previous chunk ended in `\r`: a `\n` starting the next chunk belongs to that line end. */
  private skipLF = false;
  private started = false;
  private dead = false;
  /** Nothing of a frame read yet (comments aside). */
  private fresh = true;
  /** The current frame is simple (see {@link SseFrameSink.frame}) and starts at frameText[frameFrom]. */
  private simple = false;
  private frameText = '';
  private frameFrom = 0;
  private event: string | undefined = undefined;
  /** The frame's id: resolved, plus the latest `id` line kept as a range until someone asks. */
  private idValue: string | undefined = undefined;
  private idText: string | undefined = undefined;
  private idFrom = 0;
  private idTo = 0;
  private dataText = '';
  private dataFrom = 0;
  private dataTo = 0;
  private dataLines = 0;
  /** Set by {@link SseFramer.lines}: the next `\r` at or after where it stopped (-1: none). */
  private nextCR = -1;
  /** The last `event` value read: frames of a stream repeat it, so reuse beats slicing. */
  private lastEvent = '';

  constructor(private readonly sink: SseFrameSink, private readonly maxChars = Number.POSITIVE_INFINITY) {}

  /**
   * The `id` field of the frame being dispatched (valid inside {@link SseFrameSink.frame}): the
   * last `id` line of that frame whose value has no U+0000, or undefined.
   */
  get id(): string | undefined {
    this.resolveId();
    return this.idValue;
  }

  /** True once the size limit was exceeded; further input is ignored. */
  get stopped(): boolean {
    return this.dead;
  }

  /** Frames the next piece of decoded text (any split: inside lines, between `\r` and `\n`). */
  feed(text: string): void {
    const len = text.length;
    if (this.dead || len === 0) return;
    let pos = 0;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === BOM) pos = 1;
    }
    if (this.skipLF) {
      this.skipLF = false;
      if (text.charCodeAt(pos) === LF) pos++;
    }
    // Where the next \r is (-2: not looked for yet, -1: none): only needed once a line is read.
    let cr = -2;
    if (this.tail.length > 0) {
      // Finish the pending line first: only it needs joining; the rest of the chunk is framed in place.
      cr = text.indexOf('\r', pos);
      const lf = text.indexOf('\n', pos);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) {
        if (pos < len) this.keep(text, pos);
        this.checkSize();
        return;
      }
      this.tail.push(text.slice(pos, end));
      const line = this.tail.join('');
      this.tail.length = 0;
      this.tailChars = 0;
      pos = this.after(text, end);
      this.simple = false;
      this.line(line, 0, line.length);
      if (cr !== -1 && cr < pos) cr = -2;
    }
    for (;;) {
      // Lines ending in \n before the next \r take the fast loop; the \r-ended line, the slow one.
      pos = this.lines(text, pos, cr);
      cr = this.nextCR;
      if (cr === -1 || cr < pos) break;
      const next = this.after(text, cr);
      this.simple = false;
      this.line(text, pos, cr);
      pos = next;
      cr = -2;
    }
    if (pos < len) this.keep(text, pos);
    this.checkSize();
  }

  /**
   * The input ended. A frame whose lines all ended is dispatched even without its blank line (a
   * server that closes right after `data:[DONE]\n` did send it whole); a frame cut inside a line is
   * dropped, as the SSE spec says, so a truncated `data:[DO` never counts.
   */
  end(): void {
    if (this.dead) return;
    if (this.tail.length === 0) this.dispatch();
    this.tail.length = 0;
    this.tailChars = 0;
    this.reset();
  }

  /**
   * Frames the lines from `pos` that end in `\n` before the next `\r` (at `cr`; -2 if not looked
   * for yet, -1 if none); returns where the first other line starts, with {@link nextCR} set. A
   * `data` line followed by the blank line is dispatched at once, without looking for that blank
   * line separately. The `\r` is looked for only when a line is read: whole frames taken over by
   * the sink need neither search.
   */
  private lines(text: string, pos: number, cr: number): number {
    const len = text.length;
    let lf = -2; // -2: not looked for yet; -1: none left
    for (;;) {
      if (pos >= len || (cr >= 0 && pos >= cr)) break;
      if (this.fresh) {
        if (this.sink.wholeFrame !== undefined) {
          const next = this.sink.wholeFrame(text, pos);
          if (next > pos) {
            pos = next;
            continue;
          }
        }
        this.frameText = text;
        this.frameFrom = pos;
        this.simple = true;
      }
      if (cr === -2) cr = text.indexOf('\r', pos);
      if (lf < pos && lf !== -1) lf = text.indexOf('\n', pos);
      if (lf === -1 || (cr !== -1 && lf > cr)) break;
      if (lf === pos) this.dispatch();
      else if (this.dataLines === 0 && text.charCodeAt(lf + 1) === LF && text.charCodeAt(pos) === 100 &&
        text.charCodeAt(pos + 1) === 97 && text.charCodeAt(pos + 2) === 116 && text.charCodeAt(pos + 3) === 97 &&
        text.charCodeAt(pos + 4) === COLON) {
        this.dataText = text;
        this.dataFrom = text.charCodeAt(pos + 5) === SPACE ? pos + 6 : pos + 5;
        this.dataTo = lf;
        this.dataLines = 1;
        this.dispatch();
        lf++;
      } else this.line(text, pos, lf);
      pos = lf + 1;
    }
    // The caller needs the \r only if a line may end there, i.e. if text is left.
    this.nextCR = cr === -2 && pos < len ? text.indexOf('\r', pos) : cr;
    return pos;
  }

  /** Index after the line end at `end` (a `\r\n` pair counts once, also when split by the chunk). */
  private after(text: string, end: number): number {
    if (text.charCodeAt(end) !== CR) return end + 1;
    if (end + 1 === text.length) {
      this.skipLF = true;
      return end + 1;
    }
    return text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
  }

  private keep(text: string, from: number): void {
    this.tail.push(from === 0 ? text : text.slice(from));
    this.tailChars += text.length - from;
  }

  private checkSize(): void {
    const buffered = this.tailChars + (this.dataLines > 0 ? this.dataTo - this.dataFrom : 0);
    if (buffered <= this.maxChars) return;
    this.dead = true;
    this.tail.length = 0;
    this.tailChars = 0;
    this.reset();
    this.sink.overflow(this.maxChars);
  }

  private line(text: string, from: number, to: number): void {
    if (from === to) {
      this.dispatch();
      return;
    }
    const c = text.charCodeAt(from);
    // The three fields every frame carries, recognised without slicing out a field name. No bounds
    // checks needed: text[to] is the line's end character or past the string, never ':' or ' '.
    if (c === 100 && text.charCodeAt(from + 1) === 97 && text.charCodeAt(from + 2) === 116 && text.charCodeAt(from + 3) === 97 &&
      text.charCodeAt(from + 4) === COLON) {
      this.data(text, text.charCodeAt(from + 5) === SPACE ? from + 6 : from + 5, to);
      return;
    }
    if (c === 101 && text.charCodeAt(from + 1) === 118 && text.charCodeAt(from + 2) === 101 && text.charCodeAt(from + 3) === 110 &&
      text.charCodeAt(from + 4) === 116 && text.charCodeAt(from + 5) === COLON) {
      this.setEvent(text, text.charCodeAt(from + 6) === SPACE ? from + 7 : from + 6, to);
      return;
    }
    if (c === 105 && text.charCodeAt(from + 1) === 100 && text.charCodeAt(from + 2) === COLON) {
      this.setId(text, text.charCodeAt(from + 3) === SPACE ? from + 4 : from + 3, to);
      return;
    }
    if (c === COLON) {
      // A comment before a frame's first field does not belong to it; one inside makes it not simple.
      if (!this.fresh) this.simple = false;
      if (this.sink.comment) this.sink.comment(text.slice(text.charCodeAt(from + 1) === SPACE ? from + 2 : from + 1, to));
      return;
    }
    this.fresh = false;
    this.simple = false;
    // Rare lines: a scan bounded by the line (indexOf could run far past it, quadratic on junk).
    let colon = from;
    while (colon < to && text.charCodeAt(colon) !== COLON) colon++;
    const field = text.slice(from, colon);
    const valueFrom = colon === to ? to : text.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    switch (field) {
      case 'data':
        this.data(text, valueFrom, to);
        return;
      case 'event':
        this.setEvent(text, valueFrom, to);
        return;
      case 'id':
        this.setId(text, valueFrom, to);
        return;
      case 'retry': {
        const value = text.slice(valueFrom, to);
        if (/^\d+$/.test(value)) this.sink.retry?.(Number.parseInt(value, 10));
        else this.sink.ignored?.(field, 'invalid-retry');
        return;
      }
      default:
        this.sink.ignored?.(field, 'unknown-field');
    }
  }

  private data(text: string, from: number, to: number): void {
    this.fresh = false;
    if (this.dataLines === 0) {
      this.dataText = text;
      this.dataFrom = from;
      this.dataTo = to;
    } else {
      // Later lines append to a whole string (from 0 to its end), so each join is one concatenation.
      const before = this.dataFrom === 0 && this.dataTo === this.dataText.length ? this.dataText : this.dataText.slice(this.dataFrom, this.dataTo);
      this.dataText = `${before}\n${text.slice(from, to)}`;
      this.dataFrom = 0;
      this.dataTo = this.dataText.length;
      this.simple = false;
    }
    this.dataLines++;
  }

  private setEvent(text: string, from: number, to: number): void {
    this.fresh = false;
    if (from === to) {
      this.event = undefined;
      return;
    }
    const last = this.lastEvent;
    if (to - from === last.length && text.startsWith(last, from)) {
      this.event = last;
      return;
    }
    this.event = this.lastEvent = text.slice(from, to);
  }

  private setId(text: string, from: number, to: number): void {
    this.fresh = false;
    this.resolveId();
    this.idText = text;
    this.idFrom = from;
    this.idTo = to;
  }

  private resolveId(): void {
    if (this.idText === undefined) return;
    const value = this.idText.slice(this.idFrom, this.idTo);
    this.idText = undefined;
    if (!value.includes('\u0000')) this.idValue = value;
  }

  private dispatch(): void {
    if (this.dataLines > 0) {
      const event = this.event;
      const text = this.dataText;
      const from = this.dataFrom;
      const to = this.dataTo;
      const start = this.simple && this.frameText === text ? this.frameFrom : -1;
      this.dataLines = 0;
      this.dataText = '';
      try {
        this.sink.frame(event, text, from, to, start);
      } finally {
        // Reset even when the sink throws, so the next frame starts clean.
        this.reset();
      }
    } else {
      this.reset();
    }
  }

  private reset(): void {
    this.fresh = true;
    this.simple = false;
    this.frameText = '';
    this.event = undefined;
    this.idValue = undefined;
    this.idText = undefined;
    this.dataText = '';
    this.dataFrom = 0;
    this.dataTo = 0;
    this.dataLines = 0;
  }
}
