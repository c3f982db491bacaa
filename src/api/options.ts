/**
 * Options of the client and of each call, with their defaults and validation. Validation happens
 * once, in the constructor, so a bad base URL or key fails loudly at startup rather than on the
 * first request.
 */
import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { WireCodec } from '../shared/codec';
import { v1Codec } from '../shared/codecV1';
import { v2Codec } from '../shared/codecV2';
import { MAX_TRACE_ID_LENGTH } from '../shared/domain';
import { TeamDataError } from './errors';

/** The API versions the client speaks. */
export type ApiVersion = 'v1' | 'v2';
export const API_VERSIONS: readonly ApiVersion[] = ['v1', 'v2'];

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** Receives one line per event worth logging. Lines never contain the API key. */
export type Logger = (level: LogLevel, message: string) => void;

export interface RetryOptions {
  /** Total tries of a rate-limited call, including the first (default 4). */
  attempts?: number;
  /** First backoff delay; doubles per retry, with jitter (default 500 ms). */
  baseDelayMs?: number;
  /**
   * Upper bound of one wait (default 30 000 ms). A `Retry-After` longer than this is not waited
   * out: the call fails with the rate-limit error and its `retryAfterMs`.
   */
  maxDelayMs?: number;
}

export interface TeamDataClientOptions {
  /** e.g. `https://ai.data.cloud/api` or `http://127.0.0.1:PORT`; paths like `/v1/team/...` are appended. */
  baseUrl: string;
  /** Sent as `x-pd-api-key`; never logged and never part of an error or URL. */
  apiKey: string;
  /** The caller's user id, sent wherever the contract needs `userId`; each call may override it. */
  userId?: string;
  /**
   * Which API to speak: `v1` (the contract, the default) or `v2` (the service's current API:
   * `/v2/team/...`, snake_case, the caller's `user_id` in bodies, multipart upload). A shorthand
   * for `codec`; give one or the other (or both, agreeing).
   */
  apiVersion?: ApiVersion;
  /** Wire spelling (default the contract's v1, or the one `apiVersion` names). */
  codec?: WireCodec;
  /**
   * Longest wait for the response headers, connecting included, of every call but a non-streamed
   * job (default 30 000 ms). While an upload is sending, it is the longest stall between chunks.
   */
  timeoutMs?: number;
  /** Headers timeout of a non-streamed job, which answers only when the job is done (default 600 000 ms). */
  jobTimeoutMs?: number;
  /** Longest silence tolerated inside a response body, including a job stream (default 300 000 ms). */
  idleTimeoutMs?: number;
  retry?: RetryOptions;
  logger?: Logger;
  /** An undici Dispatcher (Agent, Pool, ProxyAgent, MockAgent...); default undici's global one. */
  dispatcher?: Dispatcher;
  /**
   * This client's lease on a shared local service, read at each call (it is renewed under a new id
   * after a restart); sent as `x-team-data-lease`, so the service knows whose folders a file read
   * in place must lie in. Local service only: the hosted service has no such header.
   */
  localLease?: () => string | undefined;
}

/** The last, optional argument of every call. */
export interface CallOptions {
  /** Cancels the request and any backoff wait; the call rejects with code `ABORTED`. */
  signal?: AbortSignal;
  /** Sent as `x-pd-external-trace-id` (at most 128 characters); a fresh UUID when omitted. */
  traceId?: string;
}

/** Call options of operations that carry the caller's user id. */
export interface UserCallOptions extends CallOptions {
  /** Overrides the client's `userId` for this call. */
  userId?: string;
}

export interface ResolvedOptions {
  baseUrl: string;
  apiKey: string;
  userId: string | undefined;
  codec: WireCodec;
  timeoutMs: number;
  jobTimeoutMs: number;
  idleTimeoutMs: number;
  retry: Required<RetryOptions>;
  logger: Logger;
  dispatcher: Dispatcher | undefined;
  localLease: (() => string | undefined) | undefined;
}

const noLog: Logger = () => undefined;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: `invalid option ${name}: expected a non-negative number` });
  }
  return value;
}

function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'invalid baseUrl: expected an absolute http(s) URL' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'invalid baseUrl: only http and https are supported' });
  }
  // Credentials or a query in the base would end up in every URL, hence in logs and errors.
  if (url.username || url.password || url.search || url.hash) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'invalid baseUrl: it must not contain credentials, a query or a fragment' });
  }
  return url.href.replace(/\/+$/, '');
}

export function resolveOptions(o: TeamDataClientOptions): ResolvedOptions {
  if (typeof o.apiKey !== 'string' || o.apiKey.length === 0) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'an API key is required' });
  }
  // A CR/LF in a header value would let the key inject headers; refuse it outright.
  if (/[\r\n\0]/.test(o.apiKey)) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'the API key contains invalid characters' });
  }
  const attempts = positive(o.retry?.attempts, 4, 'retry.attempts');
  return {
    baseUrl: checkBaseUrl(o.baseUrl),
    apiKey: o.apiKey,
    userId: o.userId === undefined || o.userId === '' ? undefined : o.userId,
    codec: codecFor(o),
    timeoutMs: positive(o.timeoutMs, 30_000, 'timeoutMs'),
    jobTimeoutMs: positive(o.jobTimeoutMs, 600_000, 'jobTimeoutMs'),
    idleTimeoutMs: positive(o.idleTimeoutMs, 300_000, 'idleTimeoutMs'),
    retry: {
      attempts: Math.max(1, Math.floor(attempts)),
      baseDelayMs: positive(o.retry?.baseDelayMs, 500, 'retry.baseDelayMs'),
      maxDelayMs: positive(o.retry?.maxDelayMs, 30_000, 'retry.maxDelayMs'),
    },
    logger: o.logger ?? noLog,
    dispatcher: o.dispatcher,
    localLease: o.localLease,
  };
}

function codecFor(o: TeamDataClientOptions): WireCodec {
  const v = o.apiVersion;
  if (v !== undefined && !(API_VERSIONS as readonly string[]).includes(v)) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: `invalid option apiVersion "${String(v)}": use ${API_VERSIONS.join(' or ')}` });
  }
  if (o.codec !== undefined) {
    if (v !== undefined && o.codec.version !== v) {
      throw new TeamDataError('INVALID_ARGUMENT', { message: `apiVersion ${v} contradicts the ${o.codec.version} codec: give one of them` });
    }
    return o.codec;
  }
  return v === 'v2' ? v2Codec : v1Codec;
}

/** The trace id for one call: the caller's (checked) or a fresh UUID. */
export function traceIdFor(opts: CallOptions | undefined): string {
  const given = opts?.traceId;
  if (given === undefined) return randomUUID();
  if (typeof given !== 'string' || given.length > MAX_TRACE_ID_LENGTH) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: `traceId must be a string of at most ${MAX_TRACE_ID_LENGTH} characters` });
  }
  if (/[^\x20-\x7e]/.test(given)) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'traceId may contain printable ASCII characters only' });
  }
  return given;
}
