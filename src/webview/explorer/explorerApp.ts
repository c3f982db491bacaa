/**
 * The explorer webview's state and wiring: the view (file, columns, query, pins, widths), the
 * requests in flight (each with a fresh id; a reply to anything but the latest is dropped), and
 * the four parts it drives — toolbar, filter bar, grid and summary panel. Persisted state goes to
 * the host (`persist`) and comes back in `init`; pinned rows are persisted by index under the
 * query (a new query drops them) and come back in `pinnedRows`, fetched again by the host.
 */
import { EXPLORE_LIMITS, sameQuery, type ExploreFilter, type ExploreOpened, type ExploreQuery, type ExploreStatus } from '../../shared/explore';
import { MAX_PINNED_ROWS, type ExplorerAction, type ExplorerHostToWebview, type ExplorerPanelState, type ExplorerWebviewToHost } from '../../shared/explorerProtocol';
import { announce, h } from '../dom';
import { FilterBar } from './filterBar';
import { Grid } from './grid';
import { defaultWidth, nextSort, type DisplayColumn } from './gridHeader';
import { PAGE_ROWS, RowCache, type Cell } from './rowCache';
import { rectOf, selectionTsv } from './selection';
import { SummaryPanel } from './summaryPanel';
import { Toolbar } from './toolbar';

export interface ExplorerHost {
  post(m: ExplorerWebviewToHost): void;
  /** Keeps a panel's origin in the webview's state (`setState`), for the panel serializer. */
  saveState(state: ExplorerPanelState): void;
}
const nf = new Intl.NumberFormat('en-US');

export class ExplorerApp {
  private opened: ExploreOpened | undefined;
  private query: ExploreQuery = { sort: [], filters: [] };
  private pinned: string[] = [];
  private widths: Record<string, number> = {};
  private pinnedRows: Array<{ index: number; values: Cell[] }> = [];
  private status: ExploreStatus = { state: 'ready' };
  private matching: number | undefined;
  private knownRows = 0;
  private lastId = 0;
  private countReq: number | undefined;
  private summaryReq: number | undefined;
  private touchedFilter = -1;
  /** A request of this query failed (a bad regex): ask for nothing more until the query changes. */
  private failed = false;
  private readonly cache = new RowCache(() => ++this.lastId);
  private readonly toolbar: Toolbar;
  private readonly filters: FilterBar;
  private readonly grid: Grid;
  private readonly summary = new SummaryPanel();
  private readonly notice = h('div', { class: 'x-notice', attrs: { role: 'alert', hidden: '' } });

  constructor(private readonly root: HTMLElement, private readonly host: ExplorerHost) {
    this.toolbar = new Toolbar({
      action: (a) => this.action(a),
      switchSheet: (sheet) => this.host.post({ type: 'switchSheet', sheet }),
      toggleSummary: () => this.toggleSummary(),
      pinRows: () => this.pinSelectedRows(),
    });
    this.filters = new FilterBar({ change: (f, touched) => this.setFilters(f, touched) });
    const main = h('div', { class: 'x-main' });
    this.root.replaceChildren(this.toolbar.el, this.filters.el, this.notice, h('div', { class: 'x-body-wrap' }, main, this.summary.el));
    this.grid = new Grid(main, {
      view: (first, count) => this.want(first, count),
      copy: () => this.copy(),
      sort: (column, additive) => this.sortBy(column, additive),
      togglePin: (column) => this.togglePin(column),
      resize: (column, width, done) => this.resize(column, width, done),
      focusHeader: (col) => this.grid.focusCell({ row: -1, col }, false),
    }, 'Rows');
  }

  handle(m: ExplorerHostToWebview): void {
    switch (m.type) {
      case 'init':
        this.query = m.query;
        this.pinned = m.pinned;
        this.widths = m.widths ?? {};
        this.setTheme(m.theme);
        this.open(m.opened);
        this.root.setAttribute('data-state', 'ready');
        return;
      case 'reloaded':
        this.open(m.opened);
        return;
      case 'status':
        this.setStatus(m.status);
        return;
      case 'page': {
        if (!this.cache.accept(m.requestId, m.page.offset, m.page.rows as Cell[][])) return;
        this.knownRows = Math.max(this.knownRows, m.page.offset + m.page.rows.length);
        // A page of this query may carry its count: the grid need not wait for `count`.
        if (m.page.matching !== undefined && this.query.filters.length > 0) {
          this.matching = m.page.matching;
          this.countReq = undefined;
        }
        this.refresh();
        return;
      }
      case 'count':
        if (m.requestId !== this.countReq) return;
        this.countReq = undefined;
        this.matching = m.matching;
        this.refresh();
        return;
      case 'summary':
        if (m.requestId !== this.summaryReq) return;
        this.summaryReq = undefined;
        this.summary.show(m.columns);
        return;
      case 'error':
        this.onError(m.requestId, m.message);
        return;
      case 'theme':
        this.setTheme(m.theme);
        return;
      case 'pinnedRows':
        this.restorePinnedRows(m.query, m.rows);
        return;
      case 'panelState':
        this.host.saveState(m.state);
        return;
    }
  }

  private setTheme(theme: string): void {
    document.body.setAttribute('data-explorer-theme', theme);
  }

  /** A new frame (first open, a reload or another sheet): keep what still applies to its columns. */
  private open(o: ExploreOpened): void {
    this.opened = o;
    const names = new Set(o.columns.map((c) => c.name));
    this.query = {
      sort: this.query.sort.filter((s) => names.has(s.column)),
      filters: this.query.filters.filter((f) => names.has(f.column)),
    };
    this.pinned = this.pinned.filter((p) => names.has(p));
    this.pinnedRows = [];
    this.status = { state: o.state, ...(o.rowCount !== undefined ? { rowCount: o.rowCount } : {}) };
    this.notice.hidden = true;
    this.toolbar.setFile(o.fileName, o.sheets, o.sheet);
    this.filters.setColumns(o.columns);
    this.filters.setFilters(this.query.filters);
    this.summary.setColumns(o.columns);
    this.grid.setLabel(`${o.fileName}${o.sheet ? `, sheet ${o.sheet}` : ''}`);
    this.setStatus(this.status);
    this.restart();
  }

  private get ready(): boolean {
    return this.status.state === 'ready';
  }

  private setStatus(s: ExploreStatus): void {
    const wasReady = this.ready;
    this.status = { ...s, rowCount: s.rowCount ?? this.status.rowCount };
    this.toolbar.setStatus(this.status);
    this.filters.setEnabled(this.ready);
    if (this.ready && !wasReady) {
      announce('The whole file is read: sort, filters and summary are available');
      // A restored sort or filter waited for this: its rows and count are asked for now.
      if (this.hasQuery) {
        this.restart();
        return;
      }
      if (this.summary.open) this.fetchSummary();
    }
    this.refresh();
  }

  private get hasQuery(): boolean {
    return this.query.sort.length > 0 || this.query.filters.length > 0;
  }

  /**
   * A query restored from `init` on a file still being read: the service sorts and filters only
   * the whole file, so nothing is asked for until it is read (it would be refused).
   */
  private get waiting(): boolean {
    return !this.ready && this.hasQuery;
  }

  /** Rows in the view: the count matching the filters, else the file's, else what is known so far. */
  private total(): number {
    if (this.waiting) return 0;
    const known = this.query.filters.length > 0 ? this.matching : this.status.rowCount ?? this.opened?.rowCount;
    if (known !== undefined) return known;
    return this.cache.endSeen ?? this.knownRows + PAGE_ROWS;
  }

  private columns(): DisplayColumn[] {
    const cols = this.opened?.columns ?? [];
    const order = [...this.pinned.map((p) => cols.findIndex((c) => c.name === p)).filter((i) => i >= 0)];
    cols.forEach((_, i) => {
      if (!order.includes(i)) order.push(i);
    });
    let x = 0;
    return order.map((i) => {
      const c = cols[i] as (typeof cols)[number];
      const width = this.widths[c.name] ?? defaultWidth(c);
      const d: DisplayColumn = { ...c, index: i, width, pinned: this.pinned.includes(c.name), x };
      x += width;
      return d;
    });
  }

  private refresh(): void {
    const total = this.total();
    const filtered = this.query.filters.length > 0;
    const all = this.status.rowCount ?? this.opened?.rowCount;
    const count = this.failed
      ? 'The view could not be read'
      : this.waiting
      ? 'Sorting and filtering once the whole file is read…'
      : filtered
      ? this.countReq !== undefined ? 'Counting matching rows…' : `${nf.format(total)} of ${all !== undefined ? nf.format(all) : '?'} rows match`
      : all !== undefined ? `${nf.format(all)} rows` : `${nf.format(this.knownRows)}+ rows so far`;
    this.filters.setCount(count);
    this.toolbar.setRows(this.ready ? '' : 'first rows only');
    this.grid.setModel({
      columns: this.columns(),
      sort: this.query.sort,
      sortable: this.ready,
      total,
      row: (i) => this.cache.row(i),
      pinnedRows: this.pinnedRows,
    });
  }

  private want(first: number, count: number): void {
    if (this.failed || this.waiting) return;
    for (const r of this.cache.want(first, count, this.total())) {
      this.host.post({ type: 'fetchRows', requestId: r.requestId, offset: r.offset, limit: r.limit, query: this.query });
    }
  }

  /** The query changed: drop every page and request of the old one and start from the top. */
  private restart(): void {
    this.cache.reset();
    this.knownRows = 0;
    this.matching = undefined;
    this.countReq = undefined;
    this.failed = false;
    this.filters.clearErrors();
    if (this.query.filters.length > 0 && !this.waiting) {
      this.countReq = ++this.lastId;
      this.host.post({ type: 'fetchCount', requestId: this.countReq, query: this.query });
    }
    if (this.summary.open) this.fetchSummary();
    this.grid.scroller.scrollTop = 0;
    this.grid.sel = { anchor: { row: 0, col: this.grid.sel.focus.col }, focus: { row: 0, col: this.grid.sel.focus.col } };
    this.refresh();
  }

  private persist(): void {
    this.host.post({ type: 'persist', query: this.query, pinned: this.pinned, widths: this.widths, pinnedRows: this.pinnedRows.map((p) => p.index) });
  }

  /** A new query: pinned rows were indices under the old one, so they go. */
  private setQuery(query: ExploreQuery): void {
    if (!sameQuery(query, this.query)) this.pinnedRows = [];
    this.query = query;
  }

  /** The rows pinned before, fetched again by the host: shown while the query is still theirs. */
  private restorePinnedRows(query: ExploreQuery, rows: Array<{ index: number; values: Cell[] }>): void {
    if (this.opened === undefined || !sameQuery(query, this.query)) return;
    const fresh = rows.filter((r) => !this.pinnedRows.some((p) => p.index === r.index));
    this.pinnedRows = [...this.pinnedRows, ...fresh].slice(0, MAX_PINNED_ROWS);
    if (fresh.length > 0) announce(`${fresh.length} pinned ${fresh.length === 1 ? 'row' : 'rows'} restored at the top`);
    this.refresh();
  }

  private sortBy(column: string, additive: boolean): void {
    if (!this.ready) return;
    this.setQuery({ ...this.query, sort: nextSort(this.query.sort, column, additive, EXPLORE_LIMITS.sort) });
    const s = this.query.sort;
    announce(s.length === 0 ? 'Sort removed' : `Sorted by ${s.map((x) => `${x.column} ${x.desc ? 'descending' : 'ascending'}`).join(', then ')}`);
    this.restart();
    this.persist();
  }

  private setFilters(filters: ExploreFilter[], touched: number): void {
    this.touchedFilter = touched;
    this.setQuery({ ...this.query, filters });
    this.restart();
    this.persist();
  }

  private togglePin(column: string): void {
    this.pinned = this.pinned.includes(column) ? this.pinned.filter((p) => p !== column) : [...this.pinned, column];
    announce(this.pinned.includes(column) ? `${column} pinned at the left` : `${column} unpinned`);
    this.refresh();
    this.persist();
  }

  private resize(column: string, width: number, done: boolean): void {
    this.widths = { ...this.widths, [column]: width };
    this.refresh();
    if (done) this.persist();
  }

  private pinSelectedRows(): void {
    const r = rectOf(this.grid.sel);
    const rows: Array<{ index: number; values: Cell[] }> = [];
    for (let i = r.top; i <= r.bottom && rows.length < MAX_PINNED_ROWS; i++) {
      const values = this.cache.row(i);
      if (values) rows.push({ index: i, values });
    }
    const allPinned = rows.length > 0 && rows.every((x) => this.pinnedRows.some((p) => p.index === x.index));
    if (allPinned) this.pinnedRows = this.pinnedRows.filter((p) => !rows.some((x) => x.index === p.index));
    else this.pinnedRows = [...this.pinnedRows, ...rows.filter((x) => !this.pinnedRows.some((p) => p.index === x.index))].slice(0, MAX_PINNED_ROWS);
    announce(allPinned ? `${rows.length} rows unpinned` : `${rows.length} rows pinned at the top`);
    this.refresh();
    this.persist();
  }

  private copy(): string | undefined {
    const cols = this.columns();
    const r = rectOf(this.grid.sel);
    const out = selectionTsv(r, cols.map((c) => c.name), (i) => this.cache.row(i), (d) => cols[d]?.index ?? -1);
    announce(`Copied ${out.rows} rows${out.missing > 0 ? `; ${out.missing} rows not loaded were left out` : ''}`);
    return out.text;
  }

  private toggleSummary(): void {
    const open = !this.summary.open;
    this.summary.setOpen(open);
    this.toolbar.setSummaryPressed(open);
    if (open) this.fetchSummary();
    this.grid.schedule();
  }

  private fetchSummary(): void {
    if (!this.ready) return;
    this.summaryReq = ++this.lastId;
    this.summary.loading();
    this.host.post({ type: 'fetchSummary', requestId: this.summaryReq, query: this.query });
  }

  private action(a: ExplorerAction): void {
    this.host.post({ type: 'action', action: a, query: this.query });
  }

  private onError(requestId: number | undefined, message: string): void {
    if (requestId === undefined) {
      this.notice.textContent = message;
      this.notice.hidden = false;
      return;
    }
    const forCount = requestId === this.countReq;
    const forRows = this.cache.forget(requestId);
    if (requestId === this.summaryReq) {
      this.summaryReq = undefined;
      this.summary.failed(message);
      return;
    }
    if (!forCount && !forRows) return;
    if (forCount) this.countReq = undefined;
    // Retrying would fail the same way and, for rows, loop: the view waits for another query.
    this.failed = true;
    if (this.query.filters.length > 0) this.filters.setError(this.touchedFilter >= 0 ? this.touchedFilter : -1, message);
    else {
      this.notice.textContent = message;
      this.notice.hidden = false;
    }
    this.refresh();
  }
}
