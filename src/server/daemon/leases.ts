/**
 * The clients of a shared local service and when it may stop. Every client (a VS Code window,
 * `team-data ask`, `team-data mcp`) holds a lease it renews; a lease not renewed within its time
 * to live belongs to a client that died (kill -9, a crashed editor) and goes. The service stops
 * once it has had no lease and no work for `idleMs`: never while a job or an ingest runs.
 */
import { randomBytes } from 'node:crypto';
import type { ModelEndpoint } from '../../shared/localModel';

export interface Lease {
  id: string;
  /** What the client is, for the log and `status` (`vscode`, `cli`, `mcp`). */
  client: string;
  /** Real paths of the folders this client may read files in place from. */
  roots: string[];
  since: number;
  seen: number;
  /** The language model this client chose for its questions (see shared/localModel.ts). */
  model?: ModelEndpoint;
}

export interface LeaseOptions {
  ttlMs: number;
  idleMs: number;
  /** Whether work is running (jobs, ingests): the service does not stop then. */
  busy(): boolean;
  /** Called once, when the service should stop. */
  onIdle(why: string): void;
  now?(): number;
  tickMs?: number;
}

export const MAX_LEASES = 256;

export class Leases {
  private readonly leases = new Map<string, Lease>();
  private idleSince: number;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;
  /** Set when a client asked for a restart (to widen the read roots): stop at the next idle moment. */
  private restartWanted: string | undefined;

  constructor(private readonly o: LeaseOptions) {
    this.idleSince = this.now();
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  start(): void {
    const every = this.o.tickMs ?? Math.max(50, Math.min(5000, Math.floor(this.o.ttlMs / 4)));
    this.timer = setInterval(() => this.tick(), every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  add(client: string, roots: string[]): Lease {
    this.expire();
    if (this.leases.size >= MAX_LEASES) throw new Error(`too many clients hold the service (${MAX_LEASES})`);
    const at = this.now();
    const lease: Lease = { id: randomBytes(12).toString('base64url'), client, roots, since: at, seen: at };
    this.leases.set(lease.id, lease);
    return lease;
  }

  /** Renews a lease (and replaces its roots when given); undefined when it expired or never was. */
  renew(id: string, roots?: string[]): Lease | undefined {
    const lease = this.leases.get(id);
    if (!lease) return undefined;
    lease.seen = this.now();
    if (roots) lease.roots = roots;
    return lease;
  }

  /** Sets (or, with null, clears) a live lease's model; false when the lease is not live. */
  setModel(id: string, model: ModelEndpoint | null): boolean {
    this.expire();
    const lease = this.leases.get(id);
    if (!lease) return false;
    if (model === null) delete lease.model;
    else lease.model = model;
    return true;
  }

  /** The model of one live lease, if its client chose one. */
  modelOf(id: string): ModelEndpoint | undefined {
    this.expire();
    return this.leases.get(id)?.model;
  }

  drop(id: string): boolean {
    return this.leases.delete(id);
  }

  list(): Lease[] {
    this.expire();
    return [...this.leases.values()];
  }

  /** The roots of one live lease; undefined when it is not (or no longer) live. */
  rootsOf(id: string): string[] | undefined {
    this.expire();
    return this.leases.get(id)?.roots;
  }

  /** The union of the live leases' roots. */
  roots(): string[] {
    return [...new Set(this.list().flatMap((l) => l.roots))];
  }

  /** Whether a restart was asked for: new clients wait for the successor instead of attaching. */
  get restarting(): boolean {
    return this.restartWanted !== undefined || this.ended;
  }

  /** Stop as soon as no work runs (leases or not): a client needs a fresh start. */
  restartWhenIdle(why: string): void {
    this.restartWanted ??= why;
    this.tick();
    // The request asking for it is still in flight (it counts as work): look again right after.
    setTimeout(() => this.tick(), 100).unref();
  }

  private expire(): void {
    const at = this.now();
    const before = this.leases.size;
    for (const [id, l] of this.leases) if (at - l.seen > this.o.ttlMs) this.leases.delete(id);
    // The last leases just lapsed (their clients died, or the machine slept through renewals):
    // the idle wait starts now, so waking clients have time to renew or attach again.
    if (before > 0 && this.leases.size === 0) this.idleSince = at;
  }

  /** One check: expire silent clients, then stop when idle long enough (exported for tests). */
  tick(): void {
    if (this.ended) return;
    this.expire();
    const at = this.now();
    if (this.o.busy()) {
      this.idleSince = at;
      return;
    }
    if (this.restartWanted !== undefined) return this.end(this.restartWanted);
    if (this.leases.size > 0) {
      this.idleSince = at;
      return;
    }
    if (at - this.idleSince >= this.o.idleMs) this.end(`no client for ${Math.round((at - this.idleSince) / 1000)} s`);
  }

  private end(why: string): void {
    this.ended = true;
    this.stop();
    this.o.onIdle(why);
  }
}
