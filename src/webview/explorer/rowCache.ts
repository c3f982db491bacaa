/**
 * The grid's rows: pages of {@link PAGE_ROWS} fetched by offset, only those near the view kept.
 * Every request carries a fresh id and the query generation it was made for; a reply whose id
 * is unknown (forgotten because the view moved on, or of an older query) is dropped, so a late
 * page never lands in a newer view. Memory stays bounded: at most {@link MAX_PAGES} pages are
 * held, the ones farthest from the view are evicted first, and requests for pages that drifted
 * out of reach are forgotten.
 */
export const PAGE_ROWS = 200;
export const MAX_PAGES = 12;
/** Rows one request may ask for (neighbouring pages asked together). */
const MAX_REQUEST_ROWS = 2 * PAGE_ROWS;
/** Pages kept on each side of the view's pages (one is enough to scroll a screen without a gap). */
const MARGIN_PAGES = 1;

export type Cell = string | number | boolean | null;

export interface PageRequest {
  requestId: number;
  offset: number;
  limit: number;
}

export class RowCache {
  private pages = new Map<number, Cell[][]>();
  /** requestId -> first page and page count, for requests of the current generation only. */
  private pending = new Map<number, { page: number; count: number }>();
  private nextId: () => number;
  /** Rows known to exist after a short page (the end of the view), when the total is unknown. */
  endSeen: number | undefined;

  constructor(nextId: () => number) {
    this.nextId = nextId;
  }

  /** A new query or file: everything held and asked for is from the old view. */
  reset(): void {
    this.pages.clear();
    this.pending.clear();
    this.endSeen = undefined;
  }

  row(index: number): Cell[] | undefined {
    return this.pages.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS];
  }

  get pageCount(): number {
    return this.pages.size;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * The view now shows rows [first, first + count): forgets requests and pages out of reach and
   * returns the requests to send for missing pages around it.
   */
  want(first: number, count: number, total: number): PageRequest[] {
    const lo = Math.max(0, Math.floor(first / PAGE_ROWS) - MARGIN_PAGES);
    const lastRow = Math.max(first, Math.min(first + count, total) - 1);
    const hi = Math.min(Math.floor(lastRow / PAGE_ROWS) + MARGIN_PAGES, Math.max(0, Math.ceil(total / PAGE_ROWS) - 1));
    for (const [id, r] of this.pending) if (r.page + r.count - 1 < lo || r.page > hi) this.pending.delete(id);
    this.evict(lo, hi);
    const asked = new Set([...this.pending.values()].flatMap((r) => Array.from({ length: r.count }, (_, i) => r.page + i)));
    // The visible pages first; the margins only once those are here, so they never compete with
    // them for the service's cores (on 2 cores, three pages asked at once took the visible one from
    // a median of 17 ms to 31, bench explorewebview). Neighbouring missing pages are one request:
    // a view across a page boundary is one query, not two at once.
    const visible: number[] = [];
    for (let p = Math.floor(first / PAGE_ROWS); p <= Math.floor(lastRow / PAGE_ROWS); p++) visible.push(p);
    const order = visible.every((p) => this.pages.has(p)) ? Array.from({ length: hi - lo + 1 }, (_, i) => lo + i).filter((p) => !visible.includes(p)) : visible;
    const missing = order.filter((p) => p >= lo && p <= hi && !this.pages.has(p) && !asked.has(p));
    const out: PageRequest[] = [];
    for (const p of missing) {
      const last = out[out.length - 1];
      const prev = last === undefined ? undefined : this.pending.get(last.requestId);
      if (last !== undefined && prev !== undefined && prev.page + prev.count === p && (prev.count + 1) * PAGE_ROWS <= MAX_REQUEST_ROWS) {
        prev.count++;
        last.limit += PAGE_ROWS;
        continue;
      }
      const requestId = this.nextId();
      this.pending.set(requestId, { page: p, count: 1 });
      out.push({ requestId, offset: p * PAGE_ROWS, limit: PAGE_ROWS });
    }
    return out;
  }

  /** A page reply: stored when it answers a request still wanted; false when dropped. */
  accept(requestId: number, offset: number, rows: Cell[][]): boolean {
    const r = this.pending.get(requestId);
    if (r === undefined || r.page * PAGE_ROWS !== offset) return false;
    this.pending.delete(requestId);
    for (let i = 0; i < r.count; i++) {
      const part = rows.slice(i * PAGE_ROWS, (i + 1) * PAGE_ROWS);
      if (part.length === 0 && i > 0) break;
      this.pages.set(r.page + i, part);
    }
    if (rows.length < r.count * PAGE_ROWS) this.endSeen = offset + rows.length;
    return true;
  }

  /** A request failed: forget it so the next `want` may ask again. */
  forget(requestId: number): boolean {
    return this.pending.delete(requestId);
  }

  owns(requestId: number): boolean {
    return this.pending.has(requestId);
  }

  private evict(lo: number, hi: number): void {
    for (const p of this.pages.keys()) if (p < lo - MARGIN_PAGES || p > hi + MARGIN_PAGES) this.pages.delete(p);
    if (this.pages.size <= MAX_PAGES) return;
    const mid = (lo + hi) / 2;
    const far = [...this.pages.keys()].sort((a, b) => Math.abs(b - mid) - Math.abs(a - mid));
    for (const p of far.slice(0, this.pages.size - MAX_PAGES)) this.pages.delete(p);
  }
}
