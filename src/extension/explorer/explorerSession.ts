/**
 * One explorer tab (issue 27): the host side of the explorer webview. It opens a view on the local
 * service, answers the webview's requests through the explore routes, and keeps the view current:
 * while the file is still read it polls `status` and passes it on; afterwards it keeps asking (less
 * often, only while the tab shows) so that an edited file comes back as `reloaded` and a deleted
 * one as a plain message. Every message from the webview is checked with the protocol's guards;
 * an answer to a request the webview has since replaced (another query) is dropped here, and the
 * webview drops its own stale ids too.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { ExploreCallError, type ExploreClient } from '../../api/exploreClient';
import type { ExploreOpened, ExploreQuery, ExploreStatus } from '../../shared/explore';
import { sameQuery } from '../../shared/explore';
import { EXPLORER_PROTOCOL_VERSION, type ExplorerHostToWebview, type ExplorerWebviewToHost } from '../../shared/explorerProtocol';
import { isExplorerWebviewToHost } from '../../shared/explorerGuards';
import { themeKind } from '../panel/panelTurns';
import type { Services } from '../services';
import { runExplorerAction } from './explorerActions';
import type { ExplorerMemory } from './explorerMemory';
import { fetchPinnedRows } from './explorerPins';
import { exploreClient, originKey, runningExploreClient, originName, targetOf, type ExplorerOrigin } from './explorerTypes';

const READING_POLL_MS = 500;
const WATCH_POLL_MS = 2000;
/** How long a tab waits for a service restart that lets it read its file. */
const RESTART_WAIT_MS = 120_000;
/** Messages kept for the extension-host tests (the newest). */
const POSTED_KEPT = 400;

export class ExplorerSession implements vscode.Disposable {
  private opened: ExploreOpened | undefined;
  private version = 0;
  private sheet: string | undefined;
  private ready = false;
  private disposed = false;
  private timer: NodeJS.Timeout | undefined;
  /** The query of the webview's latest request: an answer computed for another query is stale. */
  private latestQuery = '';
  private latestCount = -1;
  private latestSummary = -1;
  /** The webview's grid (re)started without its pinned rows: send them once the view is ready. */
  private pinsWanted = false;
  private readonly inFlight = new Set<AbortController>();
  private readonly disposables: vscode.Disposable[] = [];
  /** What the host posted (for the tests); the newest POSTED_KEPT. */
  readonly posted: ExplorerHostToWebview[] = [];
  /** The types of the messages the webview posted (for the tests' diagnostics); the newest POSTED_KEPT. */
  readonly received: string[] = [];
  /** The last view-level failure shown (for the tests). */
  lastError: string | undefined;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly origin: ExplorerOrigin,
    private readonly s: Services,
    private readonly memory: ExplorerMemory,
  ) {
    this.sheet = memory.get(originKey(origin))?.sheet;
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      vscode.window.onDidChangeActiveColorTheme((t) => this.post({ type: 'theme', theme: themeKind(t.kind) })),
      panel.onDidChangeViewState(() => this.schedule()),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  get viewId(): string | undefined {
    return this.opened?.viewId;
  }

  get current(): ExploreOpened | undefined {
    return this.opened;
  }

  get name(): string {
    return originName(this.origin);
  }

  /** Handles one message from the webview (public so the tests can speak as the webview). */
  async receive(raw: unknown): Promise<void> {
    if (this.disposed) return;
    if (!isExplorerWebviewToHost(raw)) {
      this.s.log.warn(`Team Data Explorer: dropped an invalid message from the webview of ${this.name}`);
      return;
    }
    const m: ExplorerWebviewToHost = raw;
    this.received.push(m.type === 'fetchRows' ? `fetchRows ${m.offset}+${m.limit}` : m.type);
    if (this.received.length > POSTED_KEPT) this.received.splice(0, this.received.length - POSTED_KEPT);
    switch (m.type) {
      case 'ready':
        if (m.protocol !== EXPLORER_PROTOCOL_VERSION) this.s.log.warn(`Team Data Explorer: the webview speaks protocol ${m.protocol}, the host ${EXPLORER_PROTOCOL_VERSION}`);
        await this.start();
        return;
      case 'fetchRows':
        this.latestQuery = JSON.stringify(m.query);
        await this.answer(m.requestId, m.query, (c, id, signal) => c.rows(id, m.offset, m.limit, m.query, { signal }).then((page) => ({ type: 'page', requestId: m.requestId, page })));
        return;
      case 'fetchCount':
        this.latestQuery = JSON.stringify(m.query);
        this.latestCount = m.requestId;
        await this.answer(m.requestId, m.query, (c, id, signal) => c.count(id, m.query, { signal }).then((matching) => ({ type: 'count', requestId: m.requestId, matching })), () => this.latestCount === m.requestId);
        return;
      case 'fetchSummary':
        this.latestSummary = m.requestId;
        await this.answer(m.requestId, m.query, (c, id, signal) => c.summary(id, m.query, { signal }).then((columns) => ({ type: 'summary', requestId: m.requestId, columns })), () => this.latestSummary === m.requestId);
        return;
      case 'switchSheet':
        await this.switchSheet(m.sheet);
        return;
      case 'action':
        if (this.opened) await runExplorerAction(this.s, this, m.action, m.query);
        return;
      case 'persist':
        await this.memory.set(originKey(this.origin), {
          query: m.query,
          pinned: m.pinned,
          widths: m.widths,
          ...(this.sheet !== undefined ? { sheet: this.sheet } : {}),
          pinnedRows: { query: m.query, rows: m.pinnedRows ?? [] },
        });
        return;
      case 'webviewError':
        this.s.log.warn(`Team Data Explorer webview (${this.name}): ${m.message}`);
        return;
    }
  }

  post(m: ExplorerHostToWebview): void {
    if (this.disposed) return;
    this.posted.push(m);
    if (this.posted.length > POSTED_KEPT) this.posted.splice(0, this.posted.length - POSTED_KEPT);
    void this.panel.webview.postMessage(m).then(undefined, () => undefined);
  }

  /** A view-level failure in plain words, in the editor (and kept for the tests). */
  private fail(message: string): void {
    this.lastError = message;
    this.post({ type: 'error', message });
  }

  /** The webview is ready: open the view (or reuse it after a webview reload) and send `init`. */
  private async start(): Promise<void> {
    // A panel's origin goes into the webview's own state first, so that even a tab that fails
    // to open comes back after a window reload (and says why again).
    if (this.origin.kind !== 'file') this.post({ type: 'panelState', state: { v: 1, origin: this.origin } });
    try {
      if (this.origin.kind === 'table' && !existsSync(this.origin.path)) {
        this.fail(`The answer table “${this.name}” is no longer available: the copy kept with its answer was removed. Open the answer again and choose Explore on its table.`);
        return;
      }
      if (this.opened === undefined) this.opened = await this.openView();
      if (this.disposed) return;
      this.ready = true;
      const saved = this.memory.get(originKey(this.origin));
      const init: ExplorerHostToWebview = {
        type: 'init',
        protocol: EXPLORER_PROTOCOL_VERSION,
        opened: this.opened,
        query: saved?.query ?? { sort: [], filters: [] },
        theme: themeKind(vscode.window.activeColorTheme.kind),
        pinned: saved?.pinned ?? [],
        ...(saved?.widths ? { widths: saved.widths } : {}),
      };
      this.post(init);
      this.wantPins();
      this.schedule(true);
    } catch (err) {
      if (this.origin.kind === 'source' && err instanceof ExploreCallError && err.status === 404) {
        this.fail(`The data source “${this.name}” is no longer in the local service: it was deleted, or the service now uses another data folder. Open a data source again from the Datasets view.`);
      } else this.fail(`Could not open ${this.name}: ${messageOf(err)}`);
    }
  }

  /** The grid started over without pinned rows (init, reloaded): bring back the saved ones. */
  private wantPins(): void {
    this.pinsWanted = true;
    void this.restorePins();
  }

  /**
   * Sends the saved pinned rows, fetched again by index under their query, once the view is
   * ready (sorting and filtering wait for the whole file); indices past the end are dropped,
   * from the memory too.
   */
  private async restorePins(): Promise<void> {
    const view = this.opened;
    if (!this.pinsWanted || this.disposed || view === undefined || view.state !== 'ready') return;
    this.pinsWanted = false;
    const key = originKey(this.origin);
    const pins = this.memory.get(key)?.pinnedRows;
    if (pins === undefined || pins.rows.length === 0) return;
    try {
      const rows = await fetchPinnedRows(await exploreClient(this.s), view.viewId, pins.query, pins.rows);
      if (this.disposed || this.opened?.viewId !== view.viewId) return;
      if (rows.length > 0) this.post({ type: 'pinnedRows', query: pins.query, rows });
      if (rows.length < pins.rows.length) {
        const gone = pins.rows.filter((i) => !rows.some((r) => r.index === i));
        const now = this.memory.get(key);
        if (now?.pinnedRows && sameQuery(now.pinnedRows.query, pins.query)) {
          await this.memory.set(key, { ...now, pinnedRows: { query: pins.query, rows: now.pinnedRows.rows.filter((i) => !gone.includes(i)) } });
        }
      }
    } catch (err) {
      this.s.log.warn(`Team Data Explorer: the pinned rows of ${this.name} could not be fetched again: ${messageOf(err)}`);
    }
  }

  /**
   * Opens the view. A service that cannot read the folder yet (it was just added to this window's
   * roots) restarts once no job runs: wait for it, saying so, rather than fail at once.
   */
  private async openView(sheet = this.sheet): Promise<ExploreOpened> {
    const until = Date.now() + RESTART_WAIT_MS;
    for (let said = false; ; ) {
      try {
        return await (await exploreClient(this.s)).open(targetOf(this.origin, sheet));
      } catch (err) {
        if (this.disposed || Date.now() > until || !(err instanceof ExploreCallError && err.status === 400 && /until it restarts/.test(err.message))) throw err;
        if (!said) this.post({ type: 'error', message: `Waiting for the local service to restart so that it can read ${this.name}…` });
        said = true;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  private async switchSheet(sheet: string): Promise<void> {
    if (this.opened?.sheets !== undefined && !this.opened.sheets.includes(sheet)) return;
    try {
      const next = await this.openView(sheet);
      const c = await exploreClient(this.s);
      const old = this.opened;
      this.opened = next;
      this.sheet = sheet;
      this.version = 0;
      const saved = this.memory.get(originKey(this.origin));
      // Pinned rows were rows of the other sheet: they are not kept.
      await this.memory.set(originKey(this.origin), { query: saved?.query ?? { sort: [], filters: [] }, pinned: saved?.pinned ?? [], widths: saved?.widths ?? {}, sheet });
      this.post({ type: 'reloaded', opened: next });
      if (old) void c.close(old.viewId).catch(() => undefined);
      this.schedule(true);
    } catch (err) {
      this.fail(`Could not show the sheet ${sheet} of ${this.name}: ${messageOf(err)}`);
    }
  }

  private async answer(
    requestId: number,
    query: ExploreQuery,
    ask: (c: ExploreClient, viewId: string, signal: AbortSignal) => Promise<ExplorerHostToWebview>,
    current: () => boolean = () => this.latestQuery === JSON.stringify(query),
  ): Promise<void> {
    const view = this.opened;
    if (!this.ready || view === undefined) return;
    const ac = new AbortController();
    this.inFlight.add(ac);
    try {
      const c = await exploreClient(this.s);
      const reply = await ask(c, view.viewId, ac.signal);
      // The same view (by id: each status poll while the file is read replaces the object); an
      // older frame's page the webview drops by its request id.
      if (current() && this.opened?.viewId === view.viewId) this.post(reply);
    } catch (err) {
      if (this.disposed || ac.signal.aborted) return;
      if (err instanceof ExploreCallError && err.status === 404) {
        // The view is gone (the service restarted, or forgot this window's lease): open it again.
        await this.reopen();
        return;
      }
      if (current()) this.post({ type: 'error', requestId, message: messageOf(err) });
    } finally {
      this.inFlight.delete(ac);
    }
  }

  private async reopen(): Promise<void> {
    const before = this.opened;
    try {
      const next = await this.openView();
      if (this.opened !== before || this.disposed) return;
      this.opened = next;
      this.version = 0;
      this.post({ type: 'reloaded', opened: next });
      this.wantPins();
      this.schedule(true);
    } catch (err) {
      this.fail(`Could not open ${this.name} again: ${messageOf(err)}`);
    }
  }

  /** Polls the view's status: often while it is read, then only while the tab shows. */
  private schedule(now = false): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.disposed || !this.ready || this.opened === undefined) return;
    const reading = this.opened.state === 'reading';
    if (!reading && !this.panel.visible) return;
    this.timer = setTimeout(() => void this.poll(), now ? 50 : reading ? READING_POLL_MS : WATCH_POLL_MS);
  }

  private async poll(): Promise<void> {
    const view = this.opened;
    if (view === undefined || this.disposed) return;
    let status: ExploreStatus;
    try {
      status = await (await exploreClient(this.s)).status(view.viewId);
    } catch (err) {
      if (this.disposed || this.opened !== view) return;
      if (err instanceof ExploreCallError && err.status === 404) await this.reopen();
      else {
        this.fail(messageOf(err));
        this.schedule();
      }
      return;
    }
    if (this.disposed || this.opened !== view) return;
    this.apply(view, status);
    this.schedule();
  }

  private apply(view: ExploreOpened, status: ExploreStatus): void {
    if (status.state === 'failed') {
      const message = status.error ?? `${this.name} can no longer be read`;
      if (message !== this.lastError) this.fail(message);
      if (view.state === 'reading') this.opened = { ...view, state: 'ready' };
      return;
    }
    const version = status.version ?? 0;
    if (version !== this.version) {
      // The file changed on disk and was read again: the grid starts over with the new frame.
      this.version = version;
      const next: ExploreOpened = { ...view, columns: status.columns ?? view.columns, state: status.state };
      if (status.rowCount !== undefined) next.rowCount = status.rowCount;
      else delete next.rowCount;
      this.opened = next;
      this.lastError = undefined;
      this.post({ type: 'reloaded', opened: next });
      this.wantPins();
      return;
    }
    if (view.state === 'reading' || status.state !== view.state || status.rowCount !== view.rowCount) {
      this.opened = { ...view, state: status.state, ...(status.rowCount !== undefined ? { rowCount: status.rowCount } : {}) };
      const { version: _v, columns: _c, export: _e, ...plain } = status;
      this.post({ type: 'status', status: plain });
      // The whole file is read now: pinned rows under a sort or filter can be fetched.
      void this.restorePins();
    }
    if (this.lastError !== undefined) this.lastError = undefined;
  }

  close(): void {
    this.panel.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    clearTimeout(this.timer);
    for (const ac of this.inFlight) ac.abort();
    const view = this.opened;
    if (view) void runningExploreClient(this.s)?.close(view.viewId).catch(() => undefined);
    for (const d of this.disposables) d.dispose();
    this.closed.fire();
    this.closed.dispose();
  }
}

export function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.trim() === '' ? 'an unexpected error occurred' : text;
}
