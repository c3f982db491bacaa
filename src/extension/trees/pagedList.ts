/**
 * One paged list as a tree shows it: the first page on expand, more with "Load more…". Items are
 * de-duplicated by id, since a list that changes between two page fetches shifts records across
 * page boundaries.
 */
import type { Page } from '../../shared/domain';

export type PageFetcher<T> = (pageNumber: number, pageSize: number) => Promise<Page<T>>;

export class PagedList<T> {
  private itemsValue: T[] = [];
  private totalValue = 0;
  private pagesLoaded = 0;
  private loading: Promise<void> | undefined;
  /** The last load's failure, cleared by the next successful load. */
  error: unknown;

  constructor(
    private readonly fetch: PageFetcher<T>,
    private readonly keyOf: (item: T) => string,
    readonly pageSize: number,
  ) {}

  get items(): readonly T[] {
    return this.itemsValue;
  }

  get total(): number {
    return this.totalValue;
  }

  get loaded(): boolean {
    return this.pagesLoaded > 0;
  }

  /** More records exist on the service than are loaded. */
  get hasMore(): boolean {
    return this.loaded && this.itemsValue.length < this.totalValue;
  }

  /** Loads page 1, replacing everything (concurrent calls share one fetch). */
  loadFirst(): Promise<void> {
    return this.serial(async () => {
      const page = await this.fetch(1, this.pageSize);
      this.itemsValue = dedupe(page.records, this.keyOf);
      this.totalValue = page.total;
      this.pagesLoaded = 1;
    });
  }

  /** Appends the next page. */
  loadMore(): Promise<void> {
    if (!this.loaded) return this.loadFirst();
    return this.serial(async () => {
      const page = await this.fetch(this.pagesLoaded + 1, this.pageSize);
      this.itemsValue = dedupe([...this.itemsValue, ...page.records], this.keyOf);
      this.totalValue = page.total;
      this.pagesLoaded++;
    });
  }

  /** Re-fetches every loaded page (live refresh of statuses) without losing the user's paging. */
  reload(): Promise<void> {
    if (!this.loaded) return this.loadFirst();
    return this.serial(async () => {
      const pages = this.pagesLoaded;
      let items: T[] = [];
      let total = 0;
      for (let p = 1; p <= pages; p++) {
        const page = await this.fetch(p, this.pageSize);
        items = items.concat(page.records);
        total = page.total;
        if (page.records.length < this.pageSize) break;
      }
      this.itemsValue = dedupe(items, this.keyOf);
      this.totalValue = total;
    });
  }

  /** Drops a record locally (after a delete), so the tree updates before the next fetch. */
  remove(key: string): void {
    const before = this.itemsValue.length;
    this.itemsValue = this.itemsValue.filter((i) => this.keyOf(i) !== key);
    if (this.itemsValue.length < before) this.totalValue = Math.max(0, this.totalValue - 1);
  }

  private serial(work: () => Promise<void>): Promise<void> {
    const run = (this.loading ?? Promise.resolve()).then(work, work);
    const tracked = run.then(
      () => {
        this.error = undefined;
      },
      (err: unknown) => {
        this.error = err;
        throw err;
      },
    );
    this.loading = tracked.catch(() => undefined);
    return tracked;
  }
}

function dedupe<T>(items: T[], keyOf: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = keyOf(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}
