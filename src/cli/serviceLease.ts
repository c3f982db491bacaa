/**
 * A client's lease on the shared service: taken on attach, renewed in the background, released on
 * close. A lease the service forgot (it expired while the machine slept) is taken again; a service
 * that stops answering is reported through `onLost`, so the client can attach again (which starts
 * a new service when the old one is gone).
 */
import type { Discovery } from '../server/daemon/discovery';
import type { ModelEndpoint } from '../shared/localModel';
import { LocalCallError, localCall } from './serviceProbe';

export type LeaseLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LeaseOptions {
  discovery: Discovery;
  /** What this client is (`vscode`, `cli`, `mcp`). */
  client: string;
  /** The folders this client may read in place from (its workspace folders, an MCP client's roots). */
  roots?: () => readonly string[];
  log?(level: LeaseLogLevel, message: string): void;
  /** The service stopped answering renewals (twice in a row). */
  onLost?(): void;
  /**
   * The service cannot read some of this client's folders in place until it restarts (its sandbox
   * is fixed at start); by default the lease asks it to restart once idle.
   */
  onMissingRoots?(roots: string[]): void;
  /**
   * The language model this client chose for its questions (shared/localModel.ts), read when the
   * lease is taken, taken again, or {@link ServiceLease.updateModel} is called. Its key is sent
   * only in the request body, never logged.
   */
  model?: () => ModelEndpoint | undefined;
}

interface LeaseReply {
  id: string;
  ttlMs: number;
  missingRoots: string[];
}

export class ServiceLease {
  private timer: NodeJS.Timeout | undefined;
  private released = false;
  private misses = 0;

  private constructor(private readonly o: LeaseOptions, private id: string, private ttlMs: number) {}

  /** The body of a new lease: who, which folders, and the chosen model if any. */
  private static takeBody(o: LeaseOptions): Record<string, unknown> {
    const model = o.model?.();
    return { client: o.client, roots: [...(o.roots?.() ?? [])], ...(model ? { model } : {}) };
  }

  static async take(o: LeaseOptions): Promise<ServiceLease> {
    const reply = await localCall<LeaseReply>(o.discovery, 'POST', '/leases', ServiceLease.takeBody(o));
    const lease = new ServiceLease(o, reply.id, reply.ttlMs);
    await lease.missing(reply.missingRoots);
    lease.schedule();
    return lease;
  }

  /** The lease's id (it changes when the lease is taken again after the service forgot it). */
  get leaseId(): string {
    return this.id;
  }

  get discovery(): Discovery {
    return this.o.discovery;
  }

  /** Tells the service this client's folders changed. */
  async updateRoots(): Promise<void> {
    const reply = await localCall<LeaseReply>(this.o.discovery, 'POST', `/leases/${encodeURIComponent(this.id)}`, { roots: [...(this.o.roots?.() ?? [])] });
    await this.missing(reply.missingRoots);
  }

  /** Tells the service the model this client chose now (none clears it). */
  async updateModel(): Promise<void> {
    const model = this.o.model?.();
    try {
      await localCall<LeaseReply>(this.o.discovery, 'POST', `/leases/${encodeURIComponent(this.id)}`, { model: model ?? null });
    } catch (e) {
      // Forgotten (expired): the next renewal takes a new lease, which carries the model of then.
      if (e instanceof LocalCallError && e.status === 404) return;
      throw e;
    }
  }

  private async missing(roots: string[]): Promise<void> {
    if (roots.length === 0) return;
    if (this.o.onMissingRoots) return this.o.onMissingRoots(roots);
    this.o.log?.('info', `The local service cannot read ${roots.join(', ')} in place yet; it restarts for that when no job runs`);
    await localCall(this.o.discovery, 'POST', '/restart', { reason: `a client needs ${roots.length} more folder(s) readable in place` });
  }

  private schedule(): void {
    if (this.released) return;
    this.timer = setTimeout(() => void this.renew(), Math.max(100, Math.floor(this.ttlMs / 3)));
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    try {
      await localCall(this.o.discovery, 'POST', `/leases/${encodeURIComponent(this.id)}`, {});
      this.misses = 0;
    } catch (e) {
      if (e instanceof LocalCallError && e.status === 404) {
        // Forgotten (expired): take a new one from the same service.
        const reply = await localCall<LeaseReply>(this.o.discovery, 'POST', '/leases', ServiceLease.takeBody(this.o)).catch(() => undefined);
        // Released meanwhile: give the new lease straight back.
        if (reply && this.released) {
          await localCall(this.o.discovery, 'DELETE', `/leases/${encodeURIComponent(reply.id)}`, undefined, 1500).catch(() => undefined);
          return;
        }
        if (reply) {
          this.id = reply.id;
          this.ttlMs = reply.ttlMs;
          this.misses = 0;
        } else this.misses++;
      } else this.misses++;
      if (this.misses >= 2 && !this.released) {
        this.released = true;
        this.o.log?.('warn', 'The local service stopped answering');
        this.o.onLost?.();
        return;
      }
    }
    this.schedule();
  }

  /** Gives the lease back (the service stops a few minutes after its last one). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (this.timer) clearTimeout(this.timer);
    await localCall(this.o.discovery, 'DELETE', `/leases/${encodeURIComponent(this.id)}`, undefined, 1500).catch(() => undefined);
  }

  /** Stops renewing without telling the service (the service is gone). */
  abandon(): void {
    this.released = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
