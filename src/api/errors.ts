/**
 * The one error type the client throws. Callers switch on {@link TeamDataError.code}: a number is
 * the service's own code (see src/shared/errorCodes.ts), a string is a failure the client detected
 * itself. The message is always human and actionable, and never contains the API key.
 */
import { describeErrorCode } from '../shared/errorCodes';
import type { Answer } from '../shared/domain';

/** Failures detected on the client side, as opposed to codes the service reported. */
export type ClientErrorCode =
  /** The service could not be reached, or the connection failed before a response. */
  | 'NETWORK'
  /** No response headers within the configured timeout (or a body went idle too long). */
  | 'TIMEOUT'
  /** The caller aborted (AbortSignal or JobStream.cancel()). */
  | 'ABORTED'
  /** The response was not what the contract describes: not JSON, wrong shape, bad SSE frame. */
  | 'PROTOCOL'
  /** A job stream ended (closed or cut) before its END_MARK; `partial` holds what arrived. */
  | 'STREAM_INCOMPLETE'
  /** The service reported a failure inside a job stream without a numeric code. */
  | 'JOB_ERROR'
  /** An upload was refused before sending: the extension is not supported. */
  | 'UNSUPPORTED_FILE'
  /** An upload was refused before sending: the file is empty. */
  | 'EMPTY_FILE'
  /** An upload could not read the file (missing, a directory, no permission, changed meanwhile). */
  | 'FILE_UNREADABLE'
  /** A data source ended `invalid` with a reason while waiting for it to synch. */
  | 'DATASOURCE_INVALID'
  /** The call's arguments were rejected before anything was sent. */
  | 'INVALID_ARGUMENT';

export type TeamDataErrorCode = number | ClientErrorCode;

const CLIENT_MESSAGES: Record<ClientErrorCode, string> = {
  NETWORK: 'could not reach the service: check the base URL and the network',
  TIMEOUT: 'the service did not answer in time: try again later',
  ABORTED: 'the request was cancelled',
  PROTOCOL: 'the service sent a response the client does not understand',
  STREAM_INCOMPLETE: 'the answer stream ended before it was complete',
  JOB_ERROR: 'the service reported an error while answering',
  UNSUPPORTED_FILE: 'unsupported file type',
  EMPTY_FILE: 'the file is empty',
  FILE_UNREADABLE: 'the file cannot be read',
  DATASOURCE_INVALID: 'the data source could not be processed',
  INVALID_ARGUMENT: 'invalid argument',
};

export interface TeamDataErrorInit {
  /** Overrides the default human message for the code. */
  message?: string;
  httpStatus?: number;
  serviceMessage?: string;
  traceId?: string;
  /** e.g. `GET /v1/team/sessions`, never with the query (it may carry user ids). */
  operation?: string;
  partial?: Answer;
  retryAfterMs?: number;
  cause?: unknown;
}

/** Any failure of a {@link TeamDataClient} call. */
export class TeamDataError extends Error {
  /** Stable code to switch on: the service's numeric code, or a {@link ClientErrorCode}. */
  readonly code: TeamDataErrorCode;
  /** HTTP status of the response, when there was one. */
  readonly httpStatus: number | undefined;
  /** The envelope's `msg` (or the stream's error text), verbatim except for redaction of the key. */
  readonly serviceMessage: string | undefined;
  /** The service's `x-pd-trace-id` response header: quote it when reporting a problem. */
  readonly traceId: string | undefined;
  /** Which call failed, as `METHOD /path`. */
  readonly operation: string | undefined;
  /** For job streams: the answer folded from everything that had arrived before the failure. */
  readonly partial: Answer | undefined;
  /** For rate limits the client gave up on: how long the service asked to wait. */
  readonly retryAfterMs: number | undefined;

  constructor(code: TeamDataErrorCode, init: TeamDataErrorInit = {}) {
    super(init.message ?? defaultMessage(code, init.serviceMessage), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'TeamDataError';
    this.code = code;
    this.httpStatus = init.httpStatus;
    this.serviceMessage = init.serviceMessage;
    this.traceId = init.traceId;
    this.operation = init.operation;
    this.partial = init.partial;
    this.retryAfterMs = init.retryAfterMs;
  }

  /** True for the service's numeric codes, false for client-side failures. */
  get fromService(): boolean {
    return typeof this.code === 'number';
  }
}

function defaultMessage(code: TeamDataErrorCode, serviceMessage: string | undefined): string {
  if (typeof code === 'string') return CLIENT_MESSAGES[code];
  const described = describeErrorCode(code);
  // Unknown codes, and the parameter errors whose `msg` names the offending field, get the
  // service's own words too: our generic text alone would not tell the user what to fix.
  const known = !described.startsWith('service error ');
  const detailed = code === 100 || code === 300001 || code === 100001;
  return (known && !detailed) || !serviceMessage ? described : `${described}: ${serviceMessage}`;
}

/** The default message of a client code, for callers that want to prefix context. */
export function clientMessage(code: ClientErrorCode): string {
  return CLIENT_MESSAGES[code];
}

export function isTeamDataError(value: unknown): value is TeamDataError {
  return value instanceof TeamDataError;
}

/**
 * Replaces every occurrence of the secret in `text`. Service messages and transport error texts
 * are untrusted: a misbehaving proxy could echo request headers back, so nothing we surface may
 * carry the key even then.
 */
export function redact(text: string, secret: string): string {
  if (secret.length === 0) return text;
  return text.split(secret).join('***');
}
