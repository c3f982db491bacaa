/**
 * A streamed job as the caller sees it: an async iterable of decoded events, the answer folded so
 * far, and a promise of the final answer. The HTTP body is read as soon as the stream is created,
 * so `done` settles even if nobody iterates; an iterator started later still sees every event.
 */
import { AnswerBuilder, resultEvents } from '../shared/answerFold';
import type { Answer, JobEvent, JobResult } from '../shared/domain';
import { clientMessage, TeamDataError } from './errors';
import type { ResponseContext } from './envelope';
import { JobEventDecoder, MAX_FRAME_CHARS, type EventDecoder } from './sseDecoder';
import type { OpenJson, OpenResponse } from './transport';

/** Events buffered for a slow iterator before the body is no longer read (backpressure). */
const HIGH_WATER = 512;
const LOW_WATER = 64;

export interface JobStreamDeps {
  /** Sends the request; rejects with a {@link TeamDataError} (already retried where allowed). */
  open(signal: AbortSignal): Promise<OpenResponse | OpenJson>;
  /** The codec's non-stream result decoder, for a service that ignores `stream: true`. */
  decodeResult(data: unknown): JobResult;
  /** The codec's decoder of one streamed frame (`event:` name, `data:` text). */
  decodeEvent: EventDecoder;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void;
  /** Removes the API key from text that came from the network stack. */
  scrub(text: string): string;
  operation: string;
}

/**
 * A running streamed job. Iterate it for events, or await {@link JobStream.done}. The iterator
 * yields the events that change the answer, in order: unknown kinds and TABLE/IMAGE re-sent in
 * the Respond group are folded away (and logged at debug), so rendering the yielded events gives
 * exactly {@link JobStream.snapshot}. On failure the iterator throws the same error as `done`,
 * after yielding everything that arrived; after `cancel()` (or `break`) it simply ends.
 */
export class JobStream implements AsyncIterable<JobEvent> {
  /**
   * The final answer. Rejects with a {@link TeamDataError} whose `partial` holds the answer folded
   * from everything that arrived (codes: the service's, `JOB_ERROR`, `PROTOCOL`,
   * `STREAM_INCOMPLETE`, `TIMEOUT`, `NETWORK`, `ABORTED`).
   */
  readonly done: Promise<Answer>;
  private resolveDone!: (a: Answer) => void;
  private rejectDone!: (e: TeamDataError) => void;
  private readonly builder = new AnswerBuilder();
  private readonly ac = new AbortController();
  private queue: JobEvent[] = [];
  private head = 0;
  private wakeConsumer: (() => void) | undefined;
  private wakePump: (() => void) | undefined;
  private iterating = false;
  private finished = false;
  private ended = false;
  private failure: TeamDataError | undefined;
  private cancelledByCaller = false;
  private failureThrown = false;
  private ctx: ResponseContext | undefined;

  constructor(private readonly deps: JobStreamDeps, signal?: AbortSignal) {
    this.done = new Promise<Answer>((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    // Callers that only iterate never look at `done`; its rejection must not crash the process.
    this.done.catch(() => undefined);
    if (signal?.aborted) this.ac.abort(signal.reason);
    else signal?.addEventListener('abort', () => this.abort(false), { once: true });
    void this.pump();
  }

  /** The answer folded from the events received so far (a copy). */
  snapshot(): Answer {
    return this.builder.snapshot();
  }

  /** The service's `x-pd-trace-id` for this job, once the response headers arrived. */
  get traceId(): string | undefined {
    return this.ctx?.traceId;
  }

  /** Stops the job: closes the connection; `done` rejects with `ABORTED`, iteration just ends. */
  cancel(): void {
    this.abort(true);
  }

  private abort(byCaller: boolean): void {
    if (this.finished) return;
    if (byCaller) this.cancelledByCaller = true;
    this.fail(new TeamDataError('ABORTED', { operation: this.deps.operation, message: `${this.deps.operation} was cancelled` }));
    this.ac.abort(new Error('cancelled'));
    this.wakePump?.();
  }

  private fail(err: TeamDataError): void {
    if (this.failure) return;
    this.failure = err;
    if (err.code === 'ABORTED') this.builder.cancel();
    else this.builder.fail(err.serviceMessage ?? err.message, typeof err.code === 'number' ? err.code : undefined);
  }

  private push(event: JobEvent): void {
    // Error text comes from the service and ends up in errors and logs: never let it carry the key.
    const e: JobEvent = event.kind === 'ERROR' ? { ...event, message: this.deps.scrub(event.message) } : event;
    // Events the fold ignores (unknown kinds, TABLE/IMAGE re-sent in the Respond group) are not
    // yielded either, so a live view built from events matches snapshot() and the final answer.
    const changed = this.builder.push(e);
    if (e.kind === 'UNKNOWN') this.deps.log('debug', `${this.deps.operation}: ignoring unknown stream event "${e.event}"`);
    if (e.kind === 'ERROR') {
      const init: ConstructorParameters<typeof TeamDataError>[1] = {
        message: `${clientMessage('JOB_ERROR')}: ${e.message}`,
        serviceMessage: e.message,
        operation: this.deps.operation,
        traceId: this.ctx?.traceId,
      };
      this.fail(new TeamDataError(e.code ?? 'JOB_ERROR', init));
    }
    if (e.kind === 'END') {
      this.ended = true;
      if (!e.ok) {
        this.fail(new TeamDataError('JOB_ERROR', {
          message: 'the service ended the answer with an error',
          operation: this.deps.operation,
          traceId: this.ctx?.traceId,
        }));
      }
    }
    if (!changed) return;
    this.queue.push(e);
    this.wakeConsumer?.();
  }

  private protocol(detail: string, cause?: unknown): TeamDataError {
    const init: ConstructorParameters<typeof TeamDataError>[1] = {
      message: `the service sent a malformed answer stream for ${this.deps.operation}: ${detail}`,
      operation: this.deps.operation,
      traceId: this.ctx?.traceId,
    };
    if (this.ctx) init.httpStatus = this.ctx.httpStatus;
    if (cause !== undefined) init.cause = cause;
    return new TeamDataError('PROTOCOL', init);
  }

  private async pump(): Promise<void> {
    let res: OpenResponse | OpenJson;
    try {
      res = await this.deps.open(this.ac.signal);
    } catch (err) {
      this.fail(err instanceof TeamDataError ? err : this.protocol(String(err), err));
      this.finish();
      return;
    }
    this.ctx = res.ctx;
    if (res.kind === 'json') {
      this.acceptResult(res.data);
      this.finish();
      return;
    }
    let fatal = false;
    const decoder = new JobEventDecoder({
      event: (e) => this.push(e),
      badFrame: (event, error) => {
        this.deps.log('warn', `${this.deps.operation}: undecodable ${event} frame: ${error.message}`);
        this.fail(this.protocol(`${event} frame: ${error.message}`, error));
      },
      fatal: (message) => {
        fatal = true;
        this.fail(this.protocol(message));
      },
      note: (message) => this.deps.log('debug', `${this.deps.operation}: ${message}`),
    }, MAX_FRAME_CHARS, this.deps.decodeEvent);
    let cut: unknown;
    let eof = false;
    try {
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        decoder.feed(chunk);
        if (this.ended || fatal || this.ac.signal.aborted) break;
        if (this.iterating && this.queue.length - this.head > HIGH_WATER) {
          await new Promise<void>((resolve) => (this.wakePump = resolve));
          this.wakePump = undefined;
          if (this.ac.signal.aborted) break;
        }
      }
      eof = !this.ended && !fatal && !this.ac.signal.aborted;
    } catch (err) {
      cut = err;
    } finally {
      res.release();
      res.body.destroy();
    }
    if (eof) decoder.end();
    if (!this.ended) {
      const why = cut !== undefined ? `the connection failed mid-answer (${this.deps.scrub(describe(cut))})` : 'the service closed the stream before END_MARK';
      const init: ConstructorParameters<typeof TeamDataError>[1] = {
        message: `${clientMessage('STREAM_INCOMPLETE')}: ${why}`,
        operation: this.deps.operation,
        traceId: this.ctx.traceId,
        httpStatus: this.ctx.httpStatus,
      };
      if (cut !== undefined) init.cause = cut;
      this.fail(new TeamDataError('STREAM_INCOMPLETE', init));
    }
    this.finish();
  }

  /** A success envelope where a stream was asked for: the same answer, through the same fold. */
  private acceptResult(data: unknown): void {
    let result: JobResult;
    try {
      result = this.deps.decodeResult(data);
    } catch (err) {
      this.fail(this.protocol(err instanceof Error ? err.message : String(err), err));
      return;
    }
    this.deps.log('debug', `${this.deps.operation}: the service answered with one JSON result instead of a stream`);
    for (const e of resultEvents(result)) this.push(e);
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.failure) {
      const f = this.failure;
      const init: ConstructorParameters<typeof TeamDataError>[1] = {
        message: f.message,
        operation: f.operation,
        partial: this.builder.snapshot(),
      };
      if (f.httpStatus !== undefined) init.httpStatus = f.httpStatus;
      if (f.serviceMessage !== undefined) init.serviceMessage = f.serviceMessage;
      const traceId = f.traceId ?? this.ctx?.traceId;
      if (traceId !== undefined) init.traceId = traceId;
      if (f.retryAfterMs !== undefined) init.retryAfterMs = f.retryAfterMs;
      if (f.cause !== undefined) init.cause = f.cause;
      this.failure = new TeamDataError(f.code, init);
      this.rejectDone(this.failure);
    } else {
      this.resolveDone(this.builder.snapshot());
    }
    this.wakeConsumer?.();
  }

  [Symbol.asyncIterator](): AsyncIterator<JobEvent> {
    if (this.iterating) throw new Error('a JobStream can be iterated only once');
    this.iterating = true;
    return {
      next: () => this.next(),
      return: () => {
        if (!this.finished) this.cancel();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  private async next(): Promise<IteratorResult<JobEvent>> {
    for (;;) {
      if (this.head < this.queue.length) {
        const value = this.queue[this.head] as JobEvent;
        this.head++;
        if (this.head > 1024 && this.head * 2 > this.queue.length) {
          // Compact occasionally so a long stream does not keep consumed events alive.
          this.queue = this.queue.slice(this.head);
          this.head = 0;
        }
        if (this.queue.length - this.head <= LOW_WATER) this.wakePump?.();
        return { done: false, value };
      }
      if (this.finished) {
        if (this.failure && !this.cancelledByCaller && !this.failureThrown) {
          this.failureThrown = true;
          throw this.failure;
        }
        return { done: true, value: undefined };
      }
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
      this.wakeConsumer = undefined;
    }
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? `${err.message} [${code}]` : err.message;
  }
  return String(err);
}
