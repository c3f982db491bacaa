/**
 * Writes job events as server-sent events in the real service's exact framing (`id:`, `event:`,
 * `data:` with no space after the colon), unbuffered, with `:keep-alive` comments while a long
 * step runs so proxies and clients do not time the stream out. A client that goes away is noted
 * and later writes are dropped: the job itself carries on and lands in history.
 */
import type { ServerResponse } from 'node:http';
import { encodeEvent, formatSseFrame, type SseFrame } from '../../shared/blockCodecV1';
import type { JobEvent } from '../../shared/domain';
import { baseHeaders } from '../http/envelope';

export const DEFAULT_KEEP_ALIVE_MS = 10_000;

export class SseWriter {
  private timer: NodeJS.Timeout | undefined;
  private lastWrite = 0;
  private gone = false;
  private corked = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs = DEFAULT_KEEP_ALIVE_MS,
    /** The API version's frame spelling (v1 `groupId`, v2 `group_id`). */
    private readonly encode: (e: JobEvent, created: number) => SseFrame | undefined = encodeEvent,
  ) {
    res.on('close', () => {
      this.gone = true;
      this.stopKeepAlive();
    });
  }

  /** True once the client disconnected. */
  get clientGone(): boolean {
    return this.gone;
  }

  start(traceId: string): void {
    this.res.writeHead(200, {
      ...baseHeaders(traceId),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // A client that asked for `Connection: close` gets the socket closed right after the end.
      connection: /\bclose\b/i.test(String(this.res.req?.headers.connection ?? '')) ? 'close' : 'keep-alive',
      // Tells reverse proxies (nginx) not to buffer the stream.
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
    this.res.socket?.setNoDelay(true);
    this.lastWrite = Date.now();
    this.timer = setInterval(() => {
      if (Date.now() - this.lastWrite >= this.keepAliveMs * 0.9) this.write(':keep-alive\n\n');
    }, this.keepAliveMs);
    this.timer.unref();
  }

  send(event: JobEvent): void {
    const frame = this.encode(event, Math.floor(Date.now() / 1000));
    if (frame) this.write(formatSseFrame(frame));
  }

  end(): void {
    this.stopKeepAlive();
    if (!this.gone) this.res.end();
  }

  private write(text: string): void {
    if (this.gone || this.res.writableEnded) return;
    this.lastWrite = Date.now();
    // Events emitted in one turn of the event loop (a finding's fragments, its blocks, the closing
    // TASK) leave in one packet rather than one each; nothing waits longer than that turn.
    if (!this.corked) {
      this.corked = true;
      this.res.cork();
      process.nextTick(() => {
        this.corked = false;
        this.res.uncork();
      });
    }
    this.res.write(text);
  }

  private stopKeepAlive(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
