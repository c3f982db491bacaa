/**
 * Live refresh while data sources are processing: each tracked key (a dataset) is polled on its
 * own backoff (quick at first, slower the longer it takes) and dropped as soon as nothing in it
 * is pending, or after `maxDurationMs`, so a stuck source does not poll forever.
 */
import { Backoff, type BackoffOptions } from '../localService/backoff';

export interface SyncPollerOptions extends BackoffOptions {
  /** Stop polling one key after this long (default 10 minutes). */
  maxDurationMs?: number;
  /** Polls one key; resolves true while something is still pending. */
  poll(key: string): Promise<boolean>;
  /** Polling is skipped (and re-scheduled at the slowest pace) while this returns false. */
  active?(): boolean;
  /** Whether `key` made visible progress at the last poll (a file being read): polls stay quick and the time limit restarts. */
  moving?(key: string): boolean;
  /** Called when a key stops being polled because it took too long. */
  onGiveUp?(key: string): void;
}

interface Tracked {
  backoff: Backoff;
  since: number;
  timer: NodeJS.Timeout | undefined;
}

export class SyncPoller {
  private readonly tracked = new Map<string, Tracked>();
  private disposed = false;

  constructor(private readonly opts: SyncPollerOptions) {}

  /** Starts polling `key` (no-op when it is already polled). */
  track(key: string): void {
    if (this.disposed || this.tracked.has(key)) return;
    const t: Tracked = { backoff: new Backoff({ baseMs: this.opts.baseMs ?? 1000, maxMs: this.opts.maxMs ?? 15_000, factor: this.opts.factor ?? 1.5 }), since: Date.now(), timer: undefined };
    this.tracked.set(key, t);
    this.schedule(key, t);
  }

  untrack(key: string): void {
    const t = this.tracked.get(key);
    if (t?.timer) clearTimeout(t.timer);
    this.tracked.delete(key);
  }

  isTracking(key: string): boolean {
    return this.tracked.has(key);
  }

  get size(): number {
    return this.tracked.size;
  }

  /** Stops polling everything (a full refresh re-tracks what is still pending). */
  clear(): void {
    for (const key of [...this.tracked.keys()]) this.untrack(key);
  }

  dispose(): void {
    this.disposed = true;
    this.clear();
  }

  private schedule(key: string, t: Tracked): void {
    t.timer = setTimeout(() => void this.tick(key, t), t.backoff.next());
  }

  private async tick(key: string, t: Tracked): Promise<void> {
    t.timer = undefined;
    if (this.tracked.get(key) !== t) return;
    if (Date.now() - t.since > (this.opts.maxDurationMs ?? 600_000)) {
      this.untrack(key);
      this.opts.onGiveUp?.(key);
      return;
    }
    let pending = true;
    if (this.opts.active?.() ?? true) {
      try {
        pending = await this.opts.poll(key);
      } catch {
        // A failed poll (service restarting, network blip) is retried on the slower schedule.
        pending = true;
      }
    }
    if (this.tracked.get(key) !== t) return;
    if (!pending) {
      this.untrack(key);
      return;
    }
    if (this.opts.moving?.(key) === true) {
      t.backoff.reset();
      t.since = Date.now();
    }
    this.schedule(key, t);
  }
}
