/**
 * Bytes of a job stream in, decoded {@link JobEvent}s out: UTF-8 decoding that survives characters
 * split across chunks, SSE framing by eventsource-parser (which already accepts `field:value` with
 * no space, `\r\n`/`\r` line ends and `:keep-alive` comments), and the v1 frame codec.
 */
import { createParser, type EventSourceMessage, type EventSourceParser, type ParseError } from 'eventsource-parser';
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

const LF = 10;
const CR = 13;
const STREAMING: TextDecodeOptions = { stream: true };

export class JobEventDecoder {
  private readonly utf8 = new TextDecoder('utf-8');
  private readonly parser: EventSourceParser;
  private lastCode = LF;
  private dead = false;

  constructor(private readonly sink: JobEventSink, private readonly maxFrameChars = MAX_FRAME_CHARS) {
    this.parser = createParser({
      onEvent: (m) => this.dispatch(m),
      onError: (err) => this.parseError(err),
      maxBufferSize: maxFrameChars,
    });
  }

  /** Feeds the next chunk of bytes, exactly as received. */
  feed(bytes: Uint8Array): void {
    if (this.dead) return;
    // stream:true keeps an incomplete multi-byte sequence for the next chunk instead of U+FFFD.
    const text = this.utf8.decode(bytes, STREAMING);
    if (text.length === 0) return;
    this.lastCode = text.charCodeAt(text.length - 1);
    this.parser.feed(text);
  }

  /**
   * The body ended normally. A frame whose lines all ended but which lacks the closing blank line
   * is dispatched (a server that closes right after `data:[DONE]\n` did send it whole); a frame cut
   * inside a line is dropped, as the SSE spec says, so a truncated `data:[DO` never counts.
   */
  end(): void {
    if (this.dead) return;
    const rest = this.utf8.decode();
    if (rest.length > 0) {
      this.lastCode = rest.charCodeAt(rest.length - 1);
      this.parser.feed(rest);
    }
    if (this.dead) return;
    if (this.lastCode === LF) this.parser.feed('\n');
    else if (this.lastCode === CR) this.parser.feed('\n\n');
  }

  private dispatch(m: EventSourceMessage): void {
    const kind = m.event ?? 'message';
    let e: JobEvent;
    try {
      e = decodeEvent(kind, m.data);
    } catch (err) {
      this.sink.badFrame(kind, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.sink.event(e);
  }

  private parseError(err: ParseError): void {
    if (err.type === 'max-buffer-size-exceeded') {
      this.dead = true;
      this.sink.fatal(`a stream frame exceeds ${this.maxFrameChars} characters`);
      return;
    }
    this.sink.note?.(`ignored stream line: ${err.message}`);
  }
}
