/** Bounded reading of JSON request bodies: a body over the limit is refused, never buffered whole. */
import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '../../shared/errorCodes';
import { ApiError, badRequest } from './envelope';

/** Largest JSON body accepted (questions are at most 6000 characters; 1 MB leaves ample room). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** A body that stops arriving for this long ends the request with 408 (a slow or stuck client). */
export const BODY_IDLE_MS = 15_000;
/** A JSON body (at most 1 MB) must arrive whole within this time. */
export const JSON_BODY_DEADLINE_MS = 60_000;

export class BodyTooLargeError extends Error {}

/** The client stopped sending its body (or took too long): answered with 408 and the connection closed. */
export class BodyTimeoutError extends Error {}

/** The 408 answer for a body that did not arrive in time; the connection is closed after it. */
export const bodyTimeout = (): ApiError => new ApiError(ErrorCode.BAD_REQUEST, 'body: the request body did not arrive in time', 408);

/**
 * Reads the raw body, failing as soon as it exceeds `limit` bytes, when nothing arrives for
 * `idleMs`, or when the whole body has not arrived within `deadlineMs`.
 */
export function readBody(req: IncomingMessage, limit: number, idleMs = BODY_IDLE_MS, deadlineMs = JSON_BODY_DEADLINE_MS): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const timedOut = (): void => finish(new BodyTimeoutError());
    let idle = setTimeout(timedOut, idleMs);
    const deadline = setTimeout(timedOut, deadlineMs);
    const finish = (err: Error | undefined, value?: Buffer): void => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      clearTimeout(deadline);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(value ?? Buffer.alloc(0));
    };
    const onData = (chunk: Buffer): void => {
      clearTimeout(idle);
      idle = setTimeout(timedOut, idleMs);
      size += chunk.length;
      if (size > limit) {
        finish(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish(undefined, Buffer.concat(chunks, size));
    const onError = (e: Error): void => finish(e);
    const onClose = (): void => finish(new Error('request closed before its body was complete'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Parses a JSON body; an empty body reads as undefined so decoders can say what is missing. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_JSON_BODY_BYTES);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw badRequest(`body: larger than the ${MAX_JSON_BODY_BYTES}-byte limit`);
    if (e instanceof BodyTimeoutError) throw bodyTimeout();
    throw e;
  }
  const text = raw.toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('body: invalid JSON');
  }
}
