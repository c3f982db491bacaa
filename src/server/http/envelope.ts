/**
 * The contract's response envelope {code, msg, data} and the error type routes throw. Every
 * response, success or failure, JSON or not, carries a fresh `x-pd-trace-id`, and never any CORS
 * header: browsers must not be able to read this service from another origin.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { ErrorCode, describeErrorCode, httpStatusForCode } from '../../shared/errorCodes';
import type { Json } from '../../shared/json';
import { v1RequestCodec } from '../../shared/requestCodecV1';

/** A failure with the real service's code; `msg` is safe to show (never secrets or internals). */
export class ApiError extends Error {
  readonly code: number;
  readonly httpStatus: number;
  constructor(code: number, msg?: string, httpStatus?: number) {
    super(msg ?? describeErrorCode(code));
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = httpStatus ?? httpStatusForCode(code);
  }
}

export const badRequest = (msg: string): ApiError => new ApiError(ErrorCode.BAD_REQUEST, msg);
export const notFound = (what: string): ApiError => new ApiError(ErrorCode.NOT_FOUND, `${what} not found`);

export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}

/** Headers every response gets. */
export function baseHeaders(traceId: string): Record<string, string> {
  return {
    [v1RequestCodec.headers.traceId]: traceId,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
}

export function sendJson(res: ServerResponse, status: number, traceId: string, payload: Json): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    ...baseHeaders(traceId),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

export function sendOk(res: ServerResponse, traceId: string, data: Json): void {
  sendJson(res, 200, traceId, { code: 0, msg: null, data });
}

export function sendError(res: ServerResponse, traceId: string, err: ApiError): void {
  sendJson(res, err.httpStatus, traceId, { code: err.code, msg: err.message, data: null });
}
