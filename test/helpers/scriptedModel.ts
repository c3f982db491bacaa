/**
 * A scripted model behind a real loopback OpenAI-compatible endpoint: each request takes the next
 * scripted reply (text, an HTTP failure, a hang). It stands in for the model, not for our code:
 * our client, the service and the engine run for real against it. Records what it was sent, how
 * long it took to answer, and whether a client went away before the reply (a cancelled request).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  auth: string | undefined;
  body: { model: string; messages: Array<{ role: string; content: string }> };
}

export type ScriptedReply =
  | { text: string; delayMs?: number }
  | { status: number; body?: string }
  /** Never answers (a timeout, or a cancel, ends it). */
  | { hang: true };

export class ScriptedModel {
  readonly seen: SeenRequest[] = [];
  /** Requests whose client closed the connection before a reply was sent. */
  aborted = 0;
  /** Time spent inside the model (from the request's end to the reply), summed. */
  modelMs = 0;
  private replies: ScriptedReply[] = [];
  private readonly sockets = new Set<Socket>();
  private constructor(private readonly server: Server, readonly baseUrl: string) {}

  static async start(): Promise<ScriptedModel> {
    let me: ScriptedModel | undefined;
    const server = createServer((req, res) => me?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    me = new ScriptedModel(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    server.on('connection', (s) => {
      me?.sockets.add(s);
      s.on('close', () => me?.sockets.delete(s));
    });
    return me;
  }

  /** The replies to give, in order; a request with none left gets HTTP 500. */
  script(...replies: ScriptedReply[]): void {
    this.replies = [...replies];
    this.seen.length = 0;
    this.aborted = 0;
    this.modelMs = 0;
  }

  /** A plan reply as the model would write it. */
  static plan(plan: object, bindings?: object[]): ScriptedReply {
    return { text: JSON.stringify({ answer: 'plan', plan, ...(bindings ? { bindings } : {}) }) };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const began = performance.now();
      this.seen.push({ auth: req.headers.authorization, body: JSON.parse(data) as SeenRequest['body'] });
      const next = this.replies.shift();
      res.on('close', () => {
        if (!res.writableFinished) this.aborted++;
      });
      if (next === undefined) {
        res.writeHead(500);
        res.end('no reply scripted');
        return;
      }
      if ('hang' in next) return;
      if ('status' in next) {
        res.writeHead(next.status);
        res.end(next.body ?? '');
        return;
      }
      const send = (): void => {
        this.modelMs += performance.now() - began;
        if (res.destroyed) return;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: next.text }, finish_reason: 'stop' }] }));
      };
      if (next.delayMs !== undefined && next.delayMs > 0) setTimeout(send, next.delayMs);
      else send();
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
