/**
 * Bytes of a job stream in, decoded {@link JobEvent}s out.
 *
 * The framer works on a byte-for-byte view of each chunk (latin1: one character per byte), not on
 * UTF-8-decoded text: every character SSE framing and JSON structure look at is ASCII, and in UTF-8
 * an ASCII byte always stands for itself, so frames, lines and JSON tokens fall exactly where they
 * fall in the decoded text, and a character split across chunks needs no special care. Only the
 * strings that end up in events are UTF-8-decoded, each on its own; as every one of them is
 * bounded by ASCII characters, that gives exactly what decoding the whole stream would (U+FFFD
 * for invalid bytes included). Decoding all bytes to text cost more than the SSE framing itself,
 * most of them JSON syntax nobody reads as text (bench/foldBench.ts).
 *
 * Framing is {@link SseFramer} (frames exactly as eventsource-parser does); MESSAGE and CODE
 * frames go through the fast decoder, everything else (and anything it declines) through
 * `decodeEvent`. test/api/sseFramer.test.ts checks this whole path against TextDecoder +
 * eventsource-parser + decodeEvent on random streams split at random bytes.
 */
import { decodeEvent } from '../shared/blockCodecV1';
import type { JobEvent } from '../shared/domain';
import { copyRange, TextFrameDecoder, type FastDecodeCounts, type TextRanges } from './fastDecode';
import { SseFramer } from './sseFramer';

/** Largest frame (in bytes) we buffer; one CODE block or table row set stays far below. */
export const MAX_FRAME_BYTES = 32 * 1024 * 1024;

export interface JobEventSink {
  /** A decoded event, in stream order. */
  event(e: JobEvent): void;
  /** A frame of a known kind whose data could not be decoded (e.g. malformed JSON). */
  badFrame(event: string, error: Error): void;
  /** The stream cannot be parsed any further (a frame exceeded {@link MAX_FRAME_BYTES}). */
  fatal(message: string): void;
  /** Ignorable oddities (unknown SSE fields), for a debug log. */
  note?(message: string): void;
}

const EMPTY = Buffer.alloc(0);
/** Any byte outside ASCII, in a latin1 view. */
const HIGH = /[\u0080-\u00ff]/;

/** UTF-8 decoding of ranges of the latin1 views the framer sees. */
class Utf8Ranges implements TextRanges {
  /** The current chunk: its latin1 view and its bytes (same indices). */
  chunk = '';
  bytes: Buffer = EMPTY;

  text(t: string, from: number, to: number): string {
    const s = t.slice(from, to);
    if (!HIGH.test(s)) return s;
    // The chunk's own bytes when the range lies in it; a line joined across chunks is rare.
    return t === this.chunk ? this.bytes.toString('utf8', from, to) : Buffer.from(s, 'latin1').toString('utf8');
  }

  plain(t: string, from: number, to: number): string {
    // One new string straight from the bytes (a slice would keep the whole chunk alive).
    if (to - from < 13 || t !== this.chunk) return copyRange(t, from, to);
    const bytes = this.bytes as Latin1Slicing;
    return typeof bytes.latin1Slice === 'function' ? bytes.latin1Slice(from, to) : bytes.toString('latin1', from, to);
  }

  /** A whole string of a latin1 view as text. */
  decode(s: string): string {
    return HIGH.test(s) ? Buffer.from(s, 'latin1').toString('utf8') : s;
  }
}

export class JobEventDecoder {
  private readonly framer: SseFramer;
  private readonly utf8 = new Utf8Ranges();
  private readonly text = new TextFrameDecoder(this.utf8);
  /** Bytes held at the very start while they could still be a UTF-8 byte order mark. */
  private head: Buffer | undefined = EMPTY;

  constructor(private readonly sink: JobEventSink, private readonly maxFrameBytes = MAX_FRAME_BYTES) {
    this.framer = new SseFramer(
      {
        frame: (event, text, from, to, start) => this.dispatch(event, text, from, to, start),
        wholeFrame: (text, pos) => {
          const e = this.text.decodeFrame(text, pos);
          if (e === undefined) return -1;
          this.sink.event(e);
          return this.text.frameEnd;
        },
        ignored: (field, reason) => {
          const name = this.utf8.decode(field);
          const what = reason === 'invalid-retry' ? 'invalid retry value' : 'unknown field';
          this.sink.note?.(`ignored stream line: ${what} "${name.length > 20 ? `${name.slice(0, 20)}…` : name}"`);
        },
        overflow: () => this.sink.fatal(`a stream frame exceeds ${this.maxFrameBytes} bytes`),
      },
      maxFrameBytes,
    );
  }

  /** How the MESSAGE/CODE frames so far were decoded (for diagnostics, tests and the benchmark). */
  get fastPath(): FastDecodeCounts {
    return { ...this.text.counts };
  }

  /** Feeds the next chunk of bytes, exactly as received. */
  feed(bytes: Uint8Array): void {
    if (this.framer.stopped || bytes.length === 0) return;
    let buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.head !== undefined) {
      // A leading BOM is dropped, as TextDecoder does (the framer's own U+FEFF check cannot see it here).
      buf = this.head.length > 0 ? Buffer.concat([this.head, buf]) : buf;
      if (buf.length < 3 && isBomPrefix(buf)) {
        this.head = buf;
        return;
      }
      this.head = undefined;
      if (buf.length >= 3 && isBomPrefix(buf)) buf = buf.subarray(3);
    }
    this.frame(buf);
  }

  /**
   * The body ended normally. A frame whose lines all ended but which lacks the closing blank line
   * is dispatched (a server that closes right after `data:[DONE]\n` did send it whole); a frame cut
   * inside a line is dropped, as the SSE spec says, so a truncated `data:[DO` never counts.
   */
  end(): void {
    if (this.framer.stopped) return;
    if (this.head !== undefined && this.head.length > 0) this.frame(this.head);
    this.head = undefined;
    this.framer.end();
  }

  private frame(buf: Buffer): void {
    if (buf.length === 0) return;
    const text = latin1(buf);
    this.utf8.bytes = buf;
    this.utf8.chunk = text;
    this.framer.feed(text);
  }

  private dispatch(event: string | undefined, text: string, from: number, to: number, start: number): void {
    if (event === 'MESSAGE' || event === 'CODE') {
      const fast = this.text.decode(event, text, from, to, start);
      if (fast !== undefined) {
        this.sink.event(fast);
        return;
      }
    }
    const kind = event === undefined ? 'message' : this.utf8.decode(event);
    let e: JobEvent;
    try {
      e = decodeEvent(kind, this.utf8.text(text, from, to));
    } catch (err) {
      this.sink.badFrame(kind, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.sink.event(e);
  }
}

/** Buffer's own latin1Slice (what toString('latin1') ends in; undici calls utf8Slice alike) skips a wrapper that costs as much. */
type Latin1Slicing = Buffer & { latin1Slice?(start: number, end: number): string };

function latin1(buf: Latin1Slicing): string {
  return typeof buf.latin1Slice === 'function' ? buf.latin1Slice(0, buf.length) : buf.toString('latin1');
}

function isBomPrefix(b: Uint8Array): boolean {
  return b[0] === 0xef && (b.length < 2 || b[1] === 0xbb) && (b.length < 3 || b[2] === 0xbf);
}
