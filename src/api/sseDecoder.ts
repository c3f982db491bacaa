/**
 * Bytes of a job stream in, decoded {@link JobEvent}s out: a streaming UTF-8 decoder (characters
 * split across chunks and a leading byte order mark handled as TextDecoder does), the design's
 * SSE parser (eventsource-parser) for framing, and the codec's `decodeEvent` for each frame.
 */
import { createParser, type EventSourceParser, type ParseError } from 'eventsource-parser';
import { decodeEvent } from '../shared/blockCodecV1';
import type { JobEvent } from '../shared/domain';

/** Largest frame (in characters) we buffer; one CODE block or table row set stays far below. */
export const MAX_FRAME_CHARS = 32 * 1024 * 1024;

export interface JobEventSink {
  /** A decoded event, in stream order. */
  event(e: JobEvent): void;
  /** A frame of a known kind whose data could not be decoded (e.g. malformed JSON). */
  badFrame(event: string, error: Error): void;
  /** The stream cannot be parsed any further (a frame exceeded {@link MAX_FRAME_CHARS}). */
  fatal(message: string): void;
  /** Ignorable oddities (unknown SSE fields), for a debug log. */
  note?(message: string): void;
}

export type EventDecoder = (kind: string, data: string) => JobEvent;

export class JobEventDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private stopped = false;
  /** The last character fed was a line end: a frame missing only its blank line is whole. */
  private atLineEnd = true;

  constructor(private readonly sink: JobEventSink, private readonly maxFrameChars = MAX_FRAME_CHARS, private readonly decode: EventDecoder = decodeEvent) {
    this.parser = createParser({
      onEvent: (ev) => this.dispatch(ev.event ?? 'message', ev.data),
      onError: (err: ParseError) => this.error(err),
      maxBufferSize: maxFrameChars,
    });
  }

  /** Feeds the next chunk of bytes, exactly as received. */
  feed(bytes: Uint8Array): void {
    if (this.stopped || bytes.length === 0) return;
    this.text(this.utf8.decode(bytes, { stream: true }));
  }

  /**
   * The body ended normally. A frame whose lines all ended but which lacks the closing blank line
   * is dispatched (a server that closes right after `data:[DONE]\n` did send it whole); a frame cut
   * inside a line is dropped, as the SSE spec says, so a truncated `data:[DO` never counts.
   */
  end(): void {
    if (this.stopped) return;
    this.text(this.utf8.decode());
    if (!this.stopped && this.atLineEnd) this.parser.feed('\n');
    this.stopped = true;
  }

  private text(t: string): void {
    if (t.length === 0) return;
    const last = t.charCodeAt(t.length - 1);
    this.atLineEnd = last === 10 || last === 13;
    this.parser.feed(t);
  }

  private error(err: ParseError): void {
    if (err.type === 'max-buffer-size-exceeded') {
      this.stopped = true;
      this.sink.fatal(`a stream frame exceeds ${this.maxFrameChars} characters`);
      return;
    }
    const retry = err.type === 'invalid-retry';
    const what = (retry ? err.value : err.field) ?? '';
    this.sink.note?.(`ignored stream line: ${retry ? 'invalid retry value' : 'unknown field'} "${what.length > 20 ? `${what.slice(0, 20)}…` : what}"`);
  }

  private dispatch(kind: string, data: string): void {
    let e: JobEvent;
    try {
      e = this.decode(kind, data);
    } catch (err) {
      this.sink.badFrame(kind, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.sink.event(e);
  }
}
