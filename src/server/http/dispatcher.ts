/**
 * The request pipeline: trace id, Host check, OPTIONS, key-less file links, API key, external
 * trace id, routing, and the mapping of every failure to the envelope. Bad input never produces a
 * 5xx; an unexpected exception becomes 9999 with a generic message and its details go to the log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ErrorCode } from '../../shared/errorCodes';
import { MAX_TRACE_ID_LENGTH } from '../../shared/domain';
import { v1RequestCodec } from '../../shared/requestCodecV1';
import type { Logger } from '../state/metaStore';
import { ApiError, badRequest, baseHeaders, newTraceId, sendError, sendOk } from './envelope';
import { isAllowedHost, keyMatches } from './guard';
import type { Handler, RequestContext, Router } from './router';

/** Bodies of rejected requests are read and discarded up to this size so the client sees the answer. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
/** ...and for at most this long: a client that stops sending (or never had a key) gets its answer and the connection closes. */
const DRAIN_WAIT_MS = 5_000;
const MAX_URL_LENGTH = 16 * 1024;

export interface DispatcherOptions {
  router: Router;
  /** Routes served without the API key (signed file links). */
  publicRouter: Router;
  keyDigest: Buffer;
  host: string;
  port: () => number;
  log: Logger;
  /** Extra headers for a preflight (OPTIONS) of a path that browsers may call cross-origin. */
  preflightHeaders?: (path: string) => Readonly<Record<string, string>> | undefined;
}

/** 405 names the allowed methods (in `Allow` too), with the envelope code of the path's version. */
function wrongMethod(res: ServerResponse, method: string, path: string, allowed: readonly string[]): ApiError {
  const list = [...new Set(allowed)];
  res.setHeader('allow', list.join(', '));
  const code = path.startsWith('/v2/') ? ErrorCode.INVALID_PARAMS : ErrorCode.BAD_REQUEST;
  return new ApiError(code, `method ${method.slice(0, 20)} not allowed on ${path.slice(0, 200)}; use ${list.join(' or ')}`, 405);
}

function splitUrl(raw: string): { path: string; query: URLSearchParams } {
  let url = raw;
  // Absolute-form request targets (proxies) carry scheme and authority; keep path and query only.
  if (!url.startsWith('/')) {
    try {
      const u = new URL(url);
      url = `${u.pathname}${u.search}`;
    } catch {
      throw badRequest('path: malformed request target');
    }
  }
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return { path, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}

/**
 * Waits for the rest of an unread body (up to a bound) before an early response, so the client
 * is not cut off mid-send; past the bound the connection is closed instead.
 */
function settleBody(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const timer = setTimeout(() => {
      res.setHeader('connection', 'close');
      req.off('end', done);
      req.off('close', done);
      done();
    }, DRAIN_WAIT_MS);
    const done = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
      resolve();
    };
    const onData = (c: Buffer): void => {
      seen += c.length;
      if (seen > DRAIN_LIMIT_BYTES) {
        res.setHeader('connection', 'close');
        req.off('end', done);
        req.off('close', done);
        done();
      }
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

/**
 * Requests Node's HTTP parser rejects (malformed request line, oversized headers) never reach the
 * dispatcher; they still get the envelope and a trace id, then the connection is closed.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (err.code === 'ECONNRESET')) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify({ code: ErrorCode.BAD_REQUEST, msg: tooLarge ? 'request headers too large' : 'malformed HTTP request', data: null });
  const headers = { ...baseHeaders(newTraceId()), 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n${head}\r\n\r\n${body}`);
}

export function createDispatcher(o: DispatcherOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = async (ctx: { req: IncomingMessage; res: ServerResponse; traceId: string }, err: unknown): Promise<void> => {
    let apiErr: ApiError;
    if (err instanceof ApiError) apiErr = err;
    else {
      o.log('error', `unexpected error on ${ctx.req.method ?? '?'} request (trace ${ctx.traceId}): ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      apiErr = new ApiError(ErrorCode.INTERNAL, 'internal error in the local service');
    }
    // v2 has no code 100: its invalid-parameter refusals are 300001 with HTTP 400.
    if (apiErr.code === ErrorCode.BAD_REQUEST && apiErr.httpStatus === 200 && (ctx.req.url ?? '').startsWith('/v2/')) {
      apiErr = new ApiError(ErrorCode.INVALID_PARAMS, apiErr.message, 400);
    }
    if (ctx.res.headersSent) {
      ctx.res.destroy();
      return;
    }
    // A body that stopped arriving is not waited for again: answer 408 and close the connection.
    if (apiErr.httpStatus === 408) ctx.res.setHeader('connection', 'close');
    else await settleBody(ctx.req, ctx.res);
    sendError(ctx.res, ctx.traceId, apiErr);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, traceId: string): Promise<void> => {
    if (!isAllowedHost(req.headers.host, o.port(), o.host)) {
      throw new ApiError(ErrorCode.INSUFFICIENT_AUTH, 'host not allowed: the local service only answers loopback hosts', 403);
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    if (rawUrl.length > MAX_URL_LENGTH) throw badRequest('path: request target too long');
    const { path, query } = splitUrl(rawUrl);
    if (method === 'OPTIONS') {
      // Answered without any Access-Control-* header, so browser preflights fail.
      await settleBody(req, res);
      res.writeHead(204, { ...baseHeaders(traceId), allow: 'GET, POST, DELETE', ...o.preflightHeaders?.(path) });
      res.end();
      return;
    }
    const pub = o.publicRouter.match(method === 'HEAD' ? 'GET' : method, path);
    if (pub.kind === 'found') {
      await run({ req, res, traceId, method, path, params: pub.params, query }, pub.handler);
      return;
    }
    if (pub.kind === 'wrong-method') throw wrongMethod(res, method, path, pub.allowed);
    if (!keyMatches(req.headers[v1RequestCodec.headers.apiKey], o.keyDigest)) {
      throw new ApiError(ErrorCode.BAD_CREDENTIALS);
    }
    const ext = req.headers[v1RequestCodec.headers.externalTraceId];
    if (Array.isArray(ext) || (typeof ext === 'string' && ext.length > MAX_TRACE_ID_LENGTH)) {
      throw badRequest(`${v1RequestCodec.headers.externalTraceId}: at most ${MAX_TRACE_ID_LENGTH} characters`);
    }
    const m = o.router.match(method, path);
    // An unknown path is HTTP 404 (a client probing for an API version learns it is absent).
    if (m.kind === 'none') throw new ApiError(ErrorCode.NOT_FOUND, `not found: no endpoint ${method} ${path.slice(0, 200)}`, 404);
    if (m.kind === 'wrong-method') throw wrongMethod(res, method, path, m.allowed);
    await run({ req, res, traceId, method, path, params: m.params, query }, m.handler);
  };

  const run = async (ctx: RequestContext, handler: Handler): Promise<void> => {
    const result = await handler(ctx);
    if (result === 'handled') return;
    await settleBody(ctx.req, ctx.res);
    sendOk(ctx.res, ctx.traceId, result.data);
  };

  return (req, res) => {
    const traceId = newTraceId();
    // A client that vanishes must not surface as an unhandled error event.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    handle(req, res, traceId).catch((err: unknown) => fail({ req, res, traceId }, err)).catch((err: unknown) => {
      o.log('error', `failed to send an error response: ${String(err)}`);
      res.destroy();
    });
  };
}
