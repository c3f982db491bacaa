/**
 * Exponential backoff shared by the local-service supervisor and the tree's sync poller. Kept
 * free of timers so callers own scheduling (and tests can step it without waiting).
 */
export interface BackoffOptions {
  /** First delay (default 1000 ms). */
  baseMs?: number;
  /** Upper bound of one delay (default 30 000 ms). */
  maxMs?: number;
  /** Growth per step (default 2). */
  factor?: number;
}

export class Backoff {
  private step = 0;
  private readonly baseMs: number;
  private readonly maxMs: number;
  private readonly factor: number;

  constructor(opts: BackoffOptions = {}) {
    this.baseMs = Math.max(1, opts.baseMs ?? 1000);
    this.maxMs = Math.max(this.baseMs, opts.maxMs ?? 30_000);
    this.factor = Math.max(1, opts.factor ?? 2);
  }

  /** The delay to wait now; each call grows the next one until `maxMs`. */
  next(): number {
    const delay = Math.min(this.maxMs, this.baseMs * this.factor ** this.step);
    this.step++;
    return delay;
  }

  /** How many delays were handed out since the last reset. */
  get attempts(): number {
    return this.step;
  }

  reset(): void {
    this.step = 0;
  }
}
