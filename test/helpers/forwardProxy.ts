/**
 * A plain HTTP forward proxy on 127.0.0.1 (requests in absolute form, as undici's ProxyAgent sends
 * them with `proxyTunnel: false`), passing every request on to the real service. Tests use it to
 * watch the part PUTs of a multipart upload (how many are in flight at once, how often each part
 * was tried) and to break them for real: a part's connection dropped mid-body, a 503, a PUT left
 * unanswered so a cancel catches it in flight.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What to do with one PUT of a part, by part number and attempt (1 = first). */
export type PartFault = 'forward' | 'drop-mid-body' | 'answer-503' | 'hold';

export class ForwardProxy {
  /** Every request seen, as `METHOD /path` (no query: part URLs carry signatures). */
  readonly seen: string[] = [];
  /** Attempts per part number. */
  readonly attempts = new Map<number, number>();
  /** Part PUTs in flight now, and the most at once. */
  inFlight = 0;
  maxInFlight = 0;
  /** PUTs whose client went away before the answer (aborted in flight). */
  abortedPuts = 0;
  /** Decides the fate of each part PUT. */
  fault: (part: number, attempt: number) => PartFault = () => 'forward';
  /**
   * Part PUTs wait until this many are in flight (or `barrierMs` passed) before going on, so a
   * client that sends parts in parallel shows it however fast the machine is.
   */
  barrier = 0;
  barrierMs = 300;
  private waiting: Array<() => void> = [];
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(): Promise<ForwardProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const p = new ForwardProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', (s) => {
      p.sockets.add(s);
      s.on('close', () => p.sockets.delete(s));
    });
    server.on('request', (req, res) => void p.handle(req, res));
    return p;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? '/');
    this.seen.push(`${req.method ?? ''} ${target.pathname}`);
    const part = req.method === 'PUT' ? /\/uploads\/parts\/[^/]+\/(\d+)$/.exec(target.pathname) : null;
    if (!part) {
      this.forward(req, res, target);
      return;
    }
    const n = Number(part[1]);
    const attempt = (this.attempts.get(n) ?? 0) + 1;
    this.attempts.set(n, attempt);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    let answered = false;
    res.on('finish', () => (answered = true));
    res.on('close', () => {
      this.inFlight--;
      if (!answered) this.abortedPuts++;
    });
    await this.passBarrier();
    const fate = this.fault(n, attempt);
    if (fate === 'hold') {
      // Takes the body and never answers, like storage that stalls before its reply.
      req.resume();
      return;
    }
    if (fate === 'answer-503') {
      req.resume();
      req.on('end', () => {
        res.writeHead(503, { 'content-type': 'text/plain' });
        res.end('slow down');
      });
      return;
    }
    if (fate === 'drop-mid-body') {
      // A real TCP failure: some bytes arrive, then the connection is cut.
      req.once('data', () => req.socket.destroy());
      return;
    }
    this.forward(req, res, target);
  }

  private passBarrier(): Promise<void> {
    if (this.barrier <= 1) return Promise.resolve();
    if (this.inFlight >= this.barrier) {
      for (const go of this.waiting.splice(0)) go();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      setTimeout(resolve, this.barrierMs);
    });
  }

  private forward(req: IncomingMessage, res: ServerResponse, target: URL): void {
    const up = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.on('close', () => {
      if (!req.complete) up.destroy();
    });
    req.pipe(up);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
