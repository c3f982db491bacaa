/**
 * The loopback bridge through which the local service reaches a VS Code language model (issue 26):
 * an OpenAI-compatible `POST /v1/chat/completions` on 127.0.0.1 (a random port), guarded by a
 * per-start random token sent as `Authorization: Bearer`. The service uses its ordinary model
 * client (server/engine/llmClient.ts) on it, as on any endpoint, and never depends on VS Code.
 *
 * This module does not import vscode: it takes a `send(messages, signal)` function (the adapter in
 * vscodeModel.ts calls the LM API), so the HTTP, token and size rules are tested in plain Node.
 * When the service drops the request (its job was cancelled or timed out), `signal` aborts, and
 * the adapter cancels the model request. The token is never written to a reply, an error or a log.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type BridgeRole = 'system' | 'user' | 'assistant';

export interface BridgeMessage {
  role: BridgeRole;
  content: string;
}

/** Asks the model; rejects (or ends early) once `signal` aborts. */
export type BridgeSend = (messages: BridgeMessage[], signal: AbortSignal) => Promise<string>;

export interface BridgeOptions {
  send: BridgeSend;
  /** Largest request body accepted (default 4 MiB). */
  maxBodyBytes?: number;
  /** Longest model text passed on (default {@link MAX_OUTPUT_CHARS}); longer is cut, `finish_reason: length`. */
  maxOutputChars?: number;
  /** Lines that never hold the token or message text. */
  log?(level: 'info' | 'warn', message: string): void;
}

export interface ModelBridge {
  /** `http://127.0.0.1:PORT/v1`: the base URL the service is given. */
  baseUrl: string;
  port: number;
  /** This start's bearer token (register it as the endpoint's key; never show it). */
  token: string;
  close(): Promise<void>;
}

export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Keeps a reply well under the model client's 2 MiB response cap, whatever its characters. */
export const MAX_OUTPUT_CHARS = 256 * 1024;
const MAX_MESSAGES = 500;
export const CHAT_PATH = '/v1/chat/completions';

class BridgeHttpError extends Error {
  constructor(readonly status: number, message: string, readonly type = 'invalid_request_error') {
    super(message);
  }
}

/** Same-length digests compared in constant time: the token's length leaks nothing either. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer ([^\s]+)$/i.exec(header ?? '');
  const given = createHash('sha256').update(m?.[1] ?? '').digest();
  const want = createHash('sha256').update(token).digest();
  return timingSafeEqual(given, want) && m !== null;
}

/** The text of an OpenAI message content: a string, or text parts. */
function contentText(raw: unknown): string | undefined {
  if (typeof raw === 'string') return raw;
  if (!Array.isArray(raw)) return undefined;
  const parts: string[] = [];
  for (const p of raw) {
    if (typeof p !== 'object' || p === null) return undefined;
    const part = p as Record<string, unknown>;
    if (part['type'] !== 'text' || typeof part['text'] !== 'string') return undefined;
    parts.push(part['text']);
  }
  return parts.join('');
}

/** The messages of a chat-completions body, or a 400 naming what is wrong (never echoing values). */
export function parseChatBody(raw: unknown): { model: string; messages: BridgeMessage[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new BridgeHttpError(400, 'the body must be a JSON object');
  const body = raw as Record<string, unknown>;
  if (body['stream'] === true) throw new BridgeHttpError(400, 'stream: only non-streamed replies are served');
  const list = body['messages'];
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_MESSAGES) throw new BridgeHttpError(400, `messages: a list of 1 to ${MAX_MESSAGES} messages`);
  const messages: BridgeMessage[] = [];
  for (const [i, m] of list.entries()) {
    const msg = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
    const role = msg['role'];
    if (role !== 'system' && role !== 'user' && role !== 'assistant') throw new BridgeHttpError(400, `messages[${i}].role: system, user or assistant`);
    const content = contentText(msg['content']);
    if (content === undefined) throw new BridgeHttpError(400, `messages[${i}].content: text`);
    messages.push({ role, content });
  }
  const model = typeof body['model'] === 'string' ? body['model'].slice(0, 200) : '';
  return { model, messages };
}

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) throw new BridgeHttpError(413, `the request body is larger than ${max} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.byteLength;
    if (size > max) throw new BridgeHttpError(413, `the request body is larger than ${max} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

function reply(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store', ...extra });
  res.end(text);
}

function errorBody(message: string, type: string): unknown {
  return { error: { message, type } };
}

/** A failure's text for the reply: short, single-line, and without the token. */
export function safeErrorText(err: unknown, token: string): string {
  const raw = err instanceof Error ? err.message : String(err);
  const text = raw.split(token).join('***').replace(/\s+/g, ' ').trim().slice(0, 300);
  return text || 'the language model failed';
}

/** Starts the bridge on 127.0.0.1 with a fresh token. */
export async function startModelBridge(o: BridgeOptions): Promise<ModelBridge> {
  const token = randomBytes(32).toString('base64url');
  const maxBody = o.maxBodyBytes ?? MAX_BODY_BYTES;
  const maxOut = o.maxOutputChars ?? MAX_OUTPUT_CHARS;
  let seq = 0;
  const running = new Set<AbortController>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // The token first: without it nothing about the bridge is told, not even which paths exist.
    if (!tokenMatches(req.headers['authorization'], token)) {
      req.resume();
      return reply(res, 401, errorBody('missing or wrong bearer token', 'authentication_error'), { 'www-authenticate': 'Bearer' });
    }
    const path = (req.url ?? '').split('?')[0];
    if (path !== CHAT_PATH) {
      req.resume();
      return reply(res, 404, errorBody('not found: the bridge serves POST /v1/chat/completions only', 'not_found'));
    }
    if (req.method !== 'POST') {
      req.resume();
      return reply(res, 405, errorBody('method not allowed: use POST', 'invalid_request_error'), { allow: 'POST' });
    }
    const ac = new AbortController();
    running.add(ac);
    // The service went away (its job was cancelled, or it timed out): stop the model request.
    res.on('close', () => {
      running.delete(ac);
      if (!res.writableFinished) ac.abort();
    });
    let parsed: { model: string; messages: BridgeMessage[] };
    try {
      const raw = await readBody(req, maxBody);
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new BridgeHttpError(400, 'the body is not JSON');
      }
      parsed = parseChatBody(json);
    } catch (e) {
      const status = e instanceof BridgeHttpError ? e.status : 400;
      // A body cut off at the cap: answer, then close (the rest is not read).
      if (status === 413) res.setHeader('connection', 'close');
      return reply(res, status, errorBody(e instanceof BridgeHttpError ? e.message : 'unreadable request', 'invalid_request_error'));
    }
    let text: string;
    try {
      text = await o.send(parsed.messages, ac.signal);
    } catch (e) {
      if (ac.signal.aborted) return;
      o.log?.('warn', `the language model failed: ${safeErrorText(e, token)}`);
      return reply(res, 502, errorBody(`the language model failed: ${safeErrorText(e, token)}`, 'model_error'));
    }
    if (ac.signal.aborted) return;
    const cut = text.length > maxOut;
    seq++;
    reply(res, 200, {
      id: `bridge-${seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: parsed.model,
      choices: [{ index: 0, message: { role: 'assistant', content: cut ? text.slice(0, maxOut) : text }, finish_reason: cut ? 'length' : 'stop' }],
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => reply(res, 500, errorBody(safeErrorText(e, token), 'server_error')));
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 0; // a model may think for minutes; the service's own timeout ends the request
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  o.log?.('info', `The language model bridge listens on 127.0.0.1:${port}`);
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    token,
    close: () => new Promise<void>((resolve) => {
      for (const ac of running) ac.abort();
      running.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/**
 * Messages as the VS Code LM API takes them: it has user and assistant messages only, so a system
 * text is put before the next user message (or sent as a user message of its own).
 */
export function forLmApi(messages: readonly BridgeMessage[]): Array<{ role: 'user' | 'assistant'; content: string }> {
  const out: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  let system: string[] = [];
  const flush = (): void => {
    if (system.length > 0) out.push({ role: 'user', content: system.join('\n\n') });
    system = [];
  };
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') {
      out.push({ role: 'user', content: system.length > 0 ? `${system.join('\n\n')}\n\n${m.content}` : m.content });
      system = [];
    } else {
      flush();
      out.push({ role: 'assistant', content: m.content });
    }
  }
  flush();
  return out;
}
