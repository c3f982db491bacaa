/**
 * The MCP stdio transport of `team-data mcp`: newline-delimited JSON-RPC on stdin and stdout, as
 * the SDK's StdioServerTransport, with one difference that matters. The SDK's transport closes
 * itself when a message exceeds its 10 MB buffer (the server then ended with code 0, and every
 * later request went unanswered). Here an oversized message is skipped as it streams by (never
 * buffered past the limit), logged on stderr, and, when it is a request (a method and an id
 * found at its edges), answered with a JSON-RPC error carrying that id; the server keeps serving.
 * A client's response or notification is never answered: an error reply with a response's id
 * would read as the answer to the client's own request of that id. A line that is not JSON gets
 * JSON-RPC's parse error; one that is JSON but no valid message is answered only when it is a request. Framing and parsing are the SDK's own
 * (serializeMessage, deserializeMessage), so both transports read and write the same bytes.
 */
import type { Readable, Writable } from 'node:stream';
import { deserializeMessage, serializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes } from '../shared/byteSize';

/** The largest message read: the SDK's own limit, so clients see the same bound with either. */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** How much of an oversized message's start and end is kept to find its id. */
const EDGE_BYTES = 512;

const ID = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;
/** The id as the first member (or after jsonrpc/method), as most clients write it... */
const ID_AT_START = new RegExp(String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]{0,200}"\s*,)*\s*"id"\s*:\s*${ID}`);
/** ...or as the last member of the top-level object, as the MCP SDK writes it. */
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

const VALUE = String.raw`(?:"(?:[^"\\]|\\.){0,200}"|-?\d{1,16}|null)`;
/** A top-level "method" member as the first (after jsonrpc and id)... */
const METHOD_AT_START = new RegExp(String.raw`^\s*\{(?:\s*"(?:jsonrpc|id)"\s*:\s*${VALUE}\s*,)*\s*"method"\s*:`);
/** ...or the last (before jsonrpc and id) member; a nested object's would end in a second brace. */
const METHOD_AT_END = new RegExp(String.raw`"method"\s*:\s*${VALUE}(?:\s*,\s*"(?:jsonrpc|id)"\s*:\s*${VALUE})*\s*\}\s*$`);

/**
 * Whether a message not read whole is a request: a method and an id at its edges (where every
 * client writes them; the bulk of a message is its params, result or error, never these).
 */
export function sniffRequest(head: string, tail: string): RequestId | undefined {
  const id = sniffId(head, tail);
  return id !== undefined && (METHOD_AT_START.test(head) || METHOD_AT_END.test(tail)) ? id : undefined;
}

/** The id of a message that was not read whole, when its first or last bytes show it. */
export function sniffId(head: string, tail: string): RequestId | undefined {
  const m = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
  if (!m?.[1]) return undefined;
  try {
    const id = JSON.parse(m[1]) as unknown;
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The id of a parsed message that has a method, as a request does; undefined for anything else. */
function requestId(json: unknown): RequestId | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json) || !('method' in json) || !('id' in json)) return undefined;
  const id: unknown = json.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : undefined;
}

/** The last `n` bytes of `bufs` together (copied: the buffers are let go). */
function lastBytes(bufs: readonly Buffer[], n: number): Buffer {
  const out: Buffer[] = [];
  let have = 0;
  for (let i = bufs.length - 1; i >= 0 && have < n; i--) {
    const b = bufs[i] as Buffer;
    out.unshift(b);
    have += b.length;
  }
  return Buffer.from(Buffer.concat(out).subarray(-n));
}

/** A message being skipped: its size so far, its first bytes and its last ones. */
interface Skipping {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping: Skipping | undefined;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly opts: { maxMessageBytes?: number; note?: (line: string) => void } = {},
  ) {}

  private get max(): number {
    return this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.skipping = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(serializeMessage(message))) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private readonly onInputError = (e: Error): void => {
    this.onerror?.(e);
  };

  private readonly onData = (chunk: Buffer): void => {
    let at = 0;
    while (at < chunk.length && !this.closed) {
      const nl = chunk.indexOf(0x0a, at);
      const piece = chunk.subarray(at, nl === -1 ? chunk.length : nl);
      at = nl === -1 ? chunk.length : nl + 1;
      if (this.skipping) this.skip(piece);
      else if (this.pendingBytes + piece.length > this.max) {
        // Over the limit: keep only its edges (for the id) and let the rest stream by.
        const start = Buffer.concat([...this.pending, piece.subarray(0, EDGE_BYTES)]).subarray(0, EDGE_BYTES);
        this.skipping = { bytes: this.pendingBytes, head: start, tail: lastBytes(this.pending, EDGE_BYTES) };
        this.pending = [];
        this.pendingBytes = 0;
        this.skip(piece);
      } else {
        this.pending.push(piece);
        this.pendingBytes += piece.length;
      }
      if (nl === -1) break;
      if (this.skipping) this.refuseOversized(this.skipping);
      else this.line(Buffer.concat(this.pending, this.pendingBytes));
      this.skipping = undefined;
      this.pending = [];
      this.pendingBytes = 0;
    }
  };

  private skip(piece: Buffer): void {
    const s = this.skipping as Skipping;
    s.bytes += piece.length;
    s.tail = piece.length >= EDGE_BYTES ? Buffer.from(piece.subarray(piece.length - EDGE_BYTES)) : Buffer.concat([s.tail, piece]).subarray(-EDGE_BYTES);
  }

  private refuseOversized(s: Skipping): void {
    const head = s.head.toString('utf8');
    const tail = s.tail.toString('utf8').replace(/\r$/, '');
    const id = sniffRequest(head, tail);
    if (id === undefined) {
      // A response, a notification, or what cannot be told apart from them: no reply, only the log.
      this.opts.note?.(`team-data mcp: dropped a ${s.bytes}-byte message that is no request (a response or notification): over the ${this.max}-byte limit; not answered; still serving`);
      return;
    }
    const message = `message too large: ${formatBytes(s.bytes)} is over this server's limit of ${formatBytes(this.max)} per message; it was not read`;
    this.opts.note?.(`team-data mcp: refused a ${s.bytes}-byte message (request ${String(id)}): over the ${this.max}-byte limit; still serving`);
    this.reply(id, ErrorCode.InvalidRequest, message);
  }

  private line(raw: Buffer): void {
    const text = raw.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(text);
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        // Not JSON: JSON-RPC's parse error, with an id only when the text shows a request's.
        this.reply(sniffRequest(text.slice(0, EDGE_BYTES), text.slice(-EDGE_BYTES)), ErrorCode.ParseError, 'parse error: the message is not valid JSON');
        return;
      }
      // JSON but no valid message: answered only when it is a request (a method and an id).
      const id = requestId(json);
      if (id === undefined) {
        this.opts.note?.('team-data mcp: dropped a message that is no valid JSON-RPC 2.0 request, response or notification; not answered');
        return;
      }
      this.reply(id, ErrorCode.InvalidRequest, 'invalid request: not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(message);
  }

  /** An error answer; without an id when none could be found (JSON-RPC's null, which the SDK's schema spells as absent). */
  private reply(id: RequestId | undefined, code: number, message: string): void {
    const error = { jsonrpc: '2.0' as const, ...(id === undefined ? {} : { id }), error: { code, message } };
    void this.send(error as JSONRPCMessage).catch((e: unknown) => this.onerror?.(e instanceof Error ? e : new Error(String(e))));
  }
}
