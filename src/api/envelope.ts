/**
 * Reading and checking the service's JSON envelope `{code, msg, data}`. Everything here treats the
 * body as untrusted: size-capped, parsed defensively, and any text we quote back is shortened and
 * stripped of control characters.
 */
import type { Readable } from 'node:stream';
import { isObject, tryParseJson } from '../shared/json';
import { TeamDataError } from './errors';

/** Largest JSON body we accept (a history page of long answers stays far below this). */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;

export interface Envelope {
  code: number;
  msg: string | undefined;
  data: unknown;
}

/** Context that every error raised for a response carries. */
export interface ResponseContext {
  httpStatus: number;
  traceId: string | undefined;
  operation: string;
  contentType: string;
  /** Removes secrets from text quoted back from the response. */
  scrub(text: string): string;
}

/** Reads a whole body as UTF-8, refusing bodies larger than `maxBytes`. */
export async function readBody(body: Readable, maxBytes: number, ctx: ResponseContext): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw protocolError(ctx, `the response body exceeds ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** A short, printable excerpt of an unexpected body, for error messages. */
export function excerpt(text: string, max = 80): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function protocolError(ctx: ResponseContext, detail: string, cause?: unknown): TeamDataError {
  const init: ConstructorParameters<typeof TeamDataError>[1] = {
    message: `the service sent an unexpected response to ${ctx.operation} (HTTP ${ctx.httpStatus}): ${detail}`,
    httpStatus: ctx.httpStatus,
    traceId: ctx.traceId,
    operation: ctx.operation,
  };
  if (cause !== undefined) init.cause = cause;
  return new TeamDataError('PROTOCOL', init);
}

/** Parses an envelope; a body that is not one is a PROTOCOL error that says what arrived. */
export function parseEnvelope(text: string, ctx: ResponseContext): Envelope {
  const parsed = tryParseJson(text);
  if (!isObject(parsed)) {
    const what = text.trim() === '' ? 'an empty body' : `${ctx.contentType || 'no content type'}: "${excerpt(ctx.scrub(text))}"`;
    throw protocolError(ctx, `expected a JSON envelope, got ${what}`);
  }
  const rawCode = parsed['code'];
  let code: number;
  if (typeof rawCode === 'number' && Number.isInteger(rawCode)) code = rawCode;
  else if (typeof rawCode === 'string' && /^-?\d+$/.test(rawCode)) code = Number(rawCode);
  else throw protocolError(ctx, 'the JSON envelope has no integer "code"');
  const msg = parsed['msg'];
  return { code, msg: typeof msg === 'string' && msg.length > 0 ? ctx.scrub(msg) : undefined, data: parsed['data'] };
}

/** The data of a successful envelope, or the service's error as a {@link TeamDataError}. */
export function envelopeData(env: Envelope, ctx: ResponseContext, retryAfterMs?: number): unknown {
  if (env.code !== 0) {
    const init: ConstructorParameters<typeof TeamDataError>[1] = {
      httpStatus: ctx.httpStatus,
      traceId: ctx.traceId,
      operation: ctx.operation,
    };
    if (env.msg !== undefined) init.serviceMessage = env.msg;
    if (retryAfterMs !== undefined) init.retryAfterMs = retryAfterMs;
    throw new TeamDataError(env.code, init);
  }
  if (ctx.httpStatus < 200 || ctx.httpStatus > 299) {
    throw protocolError(ctx, 'an HTTP error status with a success envelope');
  }
  return env.data;
}
