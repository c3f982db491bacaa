/**
 * The open views of the service: at most {@link EXPLORE_LIMITS.views} at once, each belonging to the
 * lease of the client that opened it. A view goes when its client closes it, when its lease ends (a
 * sweep, and a check on every request), and when the service stops.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../../shared/errorCodes';
import { EXPLORE_LIMITS } from '../../shared/explore';
import { ApiError } from '../http/envelope';
import type { DuckDbStore } from '../duckdb/duckDbStore';
import { ExploreView, type ViewOrigin } from './exploreView';

const SWEEP_MS = 15_000;

export class ExploreViews {
  private readonly views = new Map<string, ExploreView>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly store: DuckDbStore,
    /** Whether the lease still lives (always true for views opened without one). */
    private readonly leaseAlive: (leaseId: string) => boolean,
  ) {
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  get size(): number {
    return this.views.size;
  }

  /** Opens a view; its read failing (an IngestError) leaves nothing behind. */
  async open(leaseId: string | undefined, origin: ViewOrigin, signal: AbortSignal): Promise<ExploreView> {
    await this.sweep();
    if (this.views.size >= EXPLORE_LIMITS.views) {
      throw new ApiError(ErrorCode.INVALID_OPERATION, `${this.views.size} views are open, the most the local service keeps; close one and try again`, 409);
    }
    const view = new ExploreView(randomUUID().replace(/-/g, ''), leaseId, origin, this.store);
    this.views.set(view.id, view);
    try {
      await view.open(signal);
    } catch (err) {
      this.views.delete(view.id);
      await view.close();
      throw err;
    }
    return view;
  }

  get(id: string): ExploreView {
    const view = this.views.get(id);
    if (view === undefined) throw new ApiError(ErrorCode.NOT_FOUND, 'no such view (it was closed, or its client went away); open the file again', 404);
    if (view.leaseId !== undefined && !this.leaseAlive(view.leaseId)) {
      this.views.delete(id);
      void view.close();
      throw new ApiError(ErrorCode.NOT_FOUND, 'this view was closed: the client that opened it went away; open the file again', 404);
    }
    return view;
  }

  async close(id: string): Promise<boolean> {
    const view = this.views.get(id);
    if (view === undefined) return false;
    this.views.delete(id);
    await view.close();
    return true;
  }

  /** Closes the views whose lease has ended. */
  async sweep(): Promise<void> {
    const gone = [...this.views.values()].filter((v) => v.leaseId !== undefined && !this.leaseAlive(v.leaseId));
    for (const v of gone) this.views.delete(v.id);
    await Promise.all(gone.map((v) => v.close()));
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    const all = [...this.views.values()];
    this.views.clear();
    await Promise.all(all.map((v) => v.close()));
  }
}
