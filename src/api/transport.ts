/**
 * One HTTP exchange with the service: URL and headers, timeouts, cancellation, the envelope, and
 * retries. Rate limits (code 201 / HTTP 429) are retried for every method because the service
 * refused those calls before acting on them; connection failures are retried for GETs only, since
 * repeating a POST whose fate is unknown could create a second dataset or run a job twice.
 */
import type { Readable } from 'node:stream';
import type { request } from 'undici';
import { undici } from './undiciLazy';
import { V1_HEADERS } from '../shared/codecV1';
import type { JsonObject } from '../shared/json';
import { clientMessage, redact, TeamDataError } from './errors';
import {
  envelopeData, MAX_JSON_BYTES, parseEnvelope, protocolError, readBody, type Envelope, type ResponseContext,
} from './envelope';
import { traceIdFor, type CallOptions, type ResolvedOptions } from './options';
import { backoffDelay, parseRetryAfter, sleep } from './retry';

const HEADER_API_KEY = V1_HEADERS.apiKey;
const HEADER_EXTERNAL_TRACE_ID = V1_HEADERS.externalTraceId;
const HEADER_TRACE_ID = V1_HEADERS.traceId;
const HEADER_AGENT_ID = V1_HEADERS.agentId;
/** The contract's agent header value for general jobs (uppercase). */
const GENERAL_AGENT = 'GENERAL';

type UndiciBody = NonNullable<NonNullable<Parameters<typeof request>[1]>['body']>;

/** A request body that can be made again for a retry (a consumed stream cannot be resent). */
export interface RawBody {
  /** A generator is pulled one chunk at a time, each once the previous one is written. */
  body: string | Uint8Array | AsyncGenerator<Uint8Array, void, undefined>;
  contentType: string;
  contentLength?: number;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  json?: JsonObject;
  /**
   * Made afresh for each attempt. A streamed body calls `activity` as it makes progress: the
   * timeout then means "no progress for timeoutMs", so a 1 GB upload is not cut at 30 s.
   */
  body?: (activity: () => void) => RawBody | Promise<RawBody>;
  /** Adds `x-pd-api-agent-id: GENERAL`. */
  agentHeader?: boolean;
  /** Overrides the client's connect + headers timeout. */
  headersTimeoutMs?: number;
  /** `text/event-stream` for job streams. */
  accept?: string;
}

/** A response whose body the caller reads itself (job streams). */
export interface OpenResponse {
  kind: 'stream';
  body: Readable;
  ctx: ResponseContext;
  /** Detaches the caller's signal; call once the body is finished with. */
  release(): void;
}

/** An envelope that arrived where a stream was asked for (errors are thrown, not returned). */
export interface OpenJson {
  kind: 'json';
  data: unknown;
  ctx: ResponseContext;
}

/** One try of a request: its own abort signal, fed by the caller's and by the stall timer. */
export interface Attempt {
  signal: AbortSignal;
  timedOut(): boolean;
  /** Restarts the timeout (the request body made progress). */
  touch(): void;
  /** Stops the headers timer (headers arrived). */
  settle(): void;
  release(): void;
}

/** A client's lease on a shared local service (see TeamDataClientOptions.localLease). */
export const HEADER_LOCAL_LEASE = 'x-team-data-lease';

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

const RETRYABLE_NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** Connection failures worth retrying for idempotent calls; kept off the public error type. */
const transient = new WeakSet<TeamDataError>();

/** Whether a NETWORK error was a connection failure worth retrying for an idempotent request. */
export function isTransient(err: TeamDataError): boolean {
  return transient.has(err);
}

function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const cause = (err as { cause?: unknown }).cause;
    if (cause !== undefined && cause !== err) return errorCode(cause);
  }
  return undefined;
}

export class Transport {
  constructor(private readonly o: ResolvedOptions) {}

  get codec(): ResolvedOptions['codec'] {
    return this.o.codec;
  }

  get userId(): string | undefined {
    return this.o.userId;
  }

  scrub = (text: string): string => redact(text, this.o.apiKey);

  log(level: 'debug' | 'info' | 'warn' | 'error', message: string): void {
    try {
      this.o.logger(level, this.scrub(message));
    } catch {
      // A throwing logger must not break a call.
    }
  }

  /**
   * Sends a request and decodes the envelope's `data` with `decode` (a codec decoder); a decoder
   * failure is a PROTOCOL error naming the field, since the service answered with the wrong shape.
   */
  async call<T>(spec: RequestSpec, opts: CallOptions | undefined, decode: (data: unknown) => T): Promise<T> {
    const r = await this.exchange(spec, opts, false);
    if (r.kind === 'stream') throw new Error('unreachable: stream response to a JSON call');
    try {
      return decode(r.data);
    } catch (err) {
      throw protocolError(r.ctx, this.scrub(err instanceof Error ? err.message : String(err)), err);
    }
  }

  /**
   * Sends a request whose success answer is a stream. Non-2xx and envelope answers are decoded
   * (errors thrown with the service's code, rate limits retried); a success envelope comes back as
   * `json` so callers can accept a service that ignored `stream: true`.
   */
  open(spec: RequestSpec, opts: CallOptions | undefined): Promise<OpenResponse | OpenJson> {
    return this.exchange(spec, opts, true);
  }

  private async exchange(spec: RequestSpec, opts: CallOptions | undefined, streaming: boolean): Promise<OpenResponse | OpenJson> {
    const traceId = traceIdFor(opts);
    const operation = `${spec.method} ${spec.path}`;
    const signal = opts?.signal;
    const { attempts, baseDelayMs, maxDelayMs } = this.o.retry;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw this.aborted(operation);
      try {
        return await this.once(spec, traceId, operation, signal, streaming);
      } catch (err) {
        if (!(err instanceof TeamDataError)) throw err;
        const rateLimited = err.code === 201 || err.httpStatus === 429;
        const network = spec.method === 'GET' && transient.has(err);
        if ((!rateLimited && !network) || attempt >= attempts) throw err;
        if (err.retryAfterMs !== undefined && err.retryAfterMs > maxDelayMs) {
          this.log('warn', `${operation}: the service asks to wait ${err.retryAfterMs} ms, longer than retry.maxDelayMs; giving up`);
          throw err;
        }
        const delay = Math.min(maxDelayMs, Math.max(err.retryAfterMs ?? 0, backoffDelay(attempt, baseDelayMs, maxDelayMs)));
        const why = rateLimited ? 'rate limited' : 'connection failed';
        this.log('warn', `${operation}: ${why}; retrying in ${delay} ms (attempt ${attempt + 1} of ${attempts})`);
        try {
          await sleep(delay, signal);
        } catch {
          throw this.aborted(operation);
        }
      }
    }
  }

  private url(spec: RequestSpec): string {
    const q = spec.query && Object.keys(spec.query).length > 0 ? `?${new URLSearchParams(spec.query).toString()}` : '';
    return `${this.o.baseUrl}${spec.path}${q}`;
  }

  /** The settings a request made outside {@link Transport.call} (a part PUT) shares with calls. */
  get settings(): Pick<ResolvedOptions, 'timeoutMs' | 'idleTimeoutMs' | 'retry' | 'dispatcher'> {
    return this.o;
  }

  /**
   * Starts one attempt: aborted by `signal`, or by a timer of `timeoutMs` that `touch()` restarts
   * (progress) and `settle()` stops (headers arrived).
   */
  startAttempt(signal: AbortSignal | undefined, timeoutMs: number): Attempt {
    const ac = new AbortController();
    let timedOut = false;
    const onAbort = (): void => ac.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const fire = (): void => {
      timedOut = true;
      ac.abort(new Error('timeout'));
    };
    let timer = setTimeout(fire, timeoutMs);
    return {
      signal: ac.signal,
      timedOut: () => timedOut,
      touch: () => {
        if (settled || timedOut) return;
        clearTimeout(timer);
        timer = setTimeout(fire, timeoutMs);
      },
      settle: () => {
        settled = true;
        clearTimeout(timer);
      },
      release: () => {
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      },
    };
  }

  private async once(
    spec: RequestSpec, traceId: string, operation: string, signal: AbortSignal | undefined, streaming: boolean,
  ): Promise<OpenResponse | OpenJson> {
    const headers: Record<string, string> = {
      [HEADER_API_KEY]: this.o.apiKey,
      [HEADER_EXTERNAL_TRACE_ID]: traceId,
      accept: spec.accept ?? 'application/json',
      'user-agent': 'team-data-client/0.1',
    };
    if (spec.agentHeader) headers[HEADER_AGENT_ID] = GENERAL_AGENT;
    const lease = this.o.localLease?.();
    if (lease !== undefined && /^[\w-]{1,64}$/.test(lease)) headers[HEADER_LOCAL_LEASE] = lease;
    const timeoutMs = spec.headersTimeoutMs ?? this.o.timeoutMs;
    const att = this.startAttempt(signal, timeoutMs);
    let body: RawBody['body'] | undefined;
    if (spec.json !== undefined) {
      body = JSON.stringify(spec.json);
      headers['content-type'] = 'application/json';
    } else if (spec.body) {
      let raw: RawBody;
      try {
        raw = await spec.body(att.touch);
      } catch (err) {
        att.release();
        throw err;
      }
      body = raw.body;
      headers['content-type'] = raw.contentType;
      if (raw.contentLength !== undefined) headers['content-length'] = String(raw.contentLength);
    }
    const started = Date.now();
    this.log('debug', `-> ${operation} (trace ${traceId})`);
    let res: Awaited<ReturnType<typeof request>>;
    try {
      const options: Parameters<typeof request>[1] = {
        method: spec.method,
        headers,
        signal: att.signal,
        // Our own timer owns the headers timeout (it also covers connecting); undici's is a backstop.
        headersTimeout: timeoutMs + 5_000,
        bodyTimeout: this.o.idleTimeoutMs,
      };
      // undici documents iterable bodies (docs/api/Dispatcher.md: `Iterable | AsyncIterable`), but
      // its typings list only strings, buffers, streams and forms.
      if (body !== undefined) options.body = body as UndiciBody;
      if (this.o.dispatcher) options.dispatcher = this.o.dispatcher;
      res = await (await undici()).request(this.url(spec), options);
    } catch (err) {
      att.release();
      // A generator body that started closes its file; one that never started has nothing open.
      if (typeof body === 'object' && !(body instanceof Uint8Array)) void body.return(undefined).catch(() => undefined);
      throw this.transportError(err, operation, signal, att.timedOut());
    }
    att.settle();
    const h = res.headers as Record<string, string | string[] | undefined>;
    const ctx: ResponseContext = {
      httpStatus: res.statusCode,
      traceId: header(h, HEADER_TRACE_ID),
      operation,
      contentType: (header(h, 'content-type') ?? '').toLowerCase(),
      scrub: this.scrub,
    };
    this.log('debug', `<- ${res.statusCode} ${operation} in ${Date.now() - started} ms${ctx.traceId ? ` (service trace ${ctx.traceId})` : ''}`);
    const ok = res.statusCode >= 200 && res.statusCode <= 299;
    const isJson = ctx.contentType.includes('json');
    if (streaming && ok && !isJson && !ctx.contentType.includes('html')) {
      return { kind: 'stream', body: res.body, ctx, release: att.release };
    }
    try {
      if (res.statusCode === 204) {
        await res.body.dump();
        return { kind: 'json', data: null, ctx };
      }
      const text = await readBody(res.body, MAX_JSON_BYTES, ctx);
      const retryAfterMs = parseRetryAfter(h['retry-after']);
      let env: Envelope;
      try {
        env = parseEnvelope(text, ctx);
      } catch (err) {
        // A proxy's bare 429 means the same as the service's code 201.
        if (res.statusCode === 429) throw new TeamDataError(201, withRetryAfter({ httpStatus: 429, traceId: ctx.traceId, operation }, retryAfterMs));
        if (res.statusCode >= 300 && res.statusCode <= 399) throw protocolError(ctx, 'a redirect: check the base URL');
        throw err;
      }
      return { kind: 'json', data: envelopeData(env, ctx, retryAfterMs), ctx };
    } catch (err) {
      if (err instanceof TeamDataError) throw err;
      throw this.transportError(err, operation, signal, att.timedOut());
    } finally {
      att.release();
    }
  }

  aborted(operation: string): TeamDataError {
    return new TeamDataError('ABORTED', { operation, message: `${operation} was cancelled` });
  }

  /** Maps whatever undici or node threw into a {@link TeamDataError} without leaking the key. */
  transportError(err: unknown, operation: string, signal: AbortSignal | undefined, timedOut: boolean): TeamDataError {
    if (err instanceof TeamDataError) return err;
    if (signal?.aborted) return this.aborted(operation);
    const code = errorCode(err);
    const detail = this.scrub(err instanceof Error ? err.message : String(err));
    if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) {
      return new TeamDataError('TIMEOUT', { operation, message: `${clientMessage('TIMEOUT')} (${operation})` });
    }
    const e = new TeamDataError('NETWORK', {
      operation,
      message: `could not reach the service at ${new URL(this.o.baseUrl).origin} (${operation}): ${detail}${code ? ` [${code}]` : ''}`,
    });
    if (code !== undefined && RETRYABLE_NETWORK.has(code)) transient.add(e);
    return e;
  }
}

function withRetryAfter<T extends object>(init: T, retryAfterMs: number | undefined): T & { retryAfterMs?: number } {
  return retryAfterMs === undefined ? init : { ...init, retryAfterMs };
}
