/**
 * The Data Explorer webview in Chromium with a host that is a relay to the real local service
 * (for exploreWebviewBench.ts). The page is the real explorer bundle (built in memory from
 * src/webview/explorer/main.ts by the webview tests' harness) inside the document the custom
 * editor serves (renderExplorerHtml, strict CSP). Its `acquireVsCodeApi().postMessage` hands each
 * message to Node as a JSON string through a CDP binding (`Runtime.bindingCalled`); Node answers it
 * the way src/extension/explorer/explorerSession.ts does — the protocol's guard on the way in,
 * the project's ExploreClient over HTTP on 127.0.0.1 to the service, an answer for a query the
 * webview has since replaced dropped — and delivers the reply with `window.postMessage` in the
 * page (a task, structured clone), as VS Code's webview host frame posts into the webview iframe.
 * While the tab shows it polls the view's status every 2 s, as the session does.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import { ExploreClient } from '../src/api/exploreClient';
import type { ExploreOpened, ExploreQuery } from '../src/shared/explore';
import { isExplorerWebviewToHost } from '../src/shared/explorerGuards';
import { EXPLORER_PROTOCOL_VERSION, type ExplorerHostToWebview } from '../src/shared/explorerProtocol';
import { THEMES } from '../test/webview/fixtures/themes';
import type { ExplorerServer } from '../test/webview/explorerHarness';

/** The session's status poll while the tab shows (WATCH_POLL_MS in explorerSession.ts). */
const WATCH_POLL_MS = 2000;

declare global {
  interface Window {
    /** The relay's CDP binding to Node (Runtime.addBinding): one JSON string per message. */
    __toHost?: (json: string) => void;
    /** performance.now() of each `page` message as it reached the webview's window, by request id. */
    __pageArrivals?: Map<number, number>;
    /** performance.now() of each `fetchRows` the webview posted: [requestId, offset, time]. */
    __rowPosts?: Array<[number, number, number]>;
  }
}

export interface RelayStats {
  /** fetchRows messages the webview posted. */
  fetchRows: number;
  /** Pages posted back to the webview. */
  pages: number;
  /** Answers dropped because the webview had moved on to another query. */
  stale: number;
  /** Duration of each rows call over HTTP (ms), by request id. */
  httpMs: Map<number, number>;
  /** Messages that failed the protocol's guard, and service errors relayed. */
  invalid: number;
  errors: string[];
}

export class ExplorerRelay {
  readonly stats: RelayStats = { fetchRows: 0, pages: 0, stale: 0, httpMs: new Map(), invalid: 0, errors: [] };
  readonly pageErrors: string[] = [];
  readonly remoteRequests: string[] = [];
  private inFlight = 0;
  private latestQuery = '';
  private latestCount = -1;
  private latestSummary = -1;
  private closed = false;
  private poll: NodeJS.Timeout | undefined;
  private idleWaiters: Array<() => void> = [];

  private constructor(readonly page: Page, private readonly cdp: CDPSession, private readonly client: ExploreClient, private readonly opened: ExploreOpened) {}

  /** Opens the explorer page (1000 × height px, dark theme) with its host relayed to the service. */
  static async open(browser: Browser, server: ExplorerServer, client: ExploreClient, opened: ExploreOpened, height: number): Promise<ExplorerRelay> {
    const context = await browser.newContext({ viewport: { width: 1000, height } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const relay = new ExplorerRelay(page, cdp, client, opened);
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${server.origin}/`)) return route.continue();
      relay.remoteRequests.push(url);
      return route.abort();
    });
    page.on('pageerror', (e) => relay.pageErrors.push(e.message));
    // Plain CDP both ways, a JSON string each way as VS Code's IPC carries it: Playwright's own
    // binding and evaluate walk every value through their serializer in this (the service's)
    // process, which cost the hops 8.5 ms a page of 200 rows (median) where a pipe costs about 1.
    await cdp.send('Runtime.enable');
    await cdp.send('Runtime.addBinding', { name: '__toHost' });
    cdp.on('Runtime.bindingCalled', (e) => {
      if (e.name !== '__toHost') return;
      let m: unknown;
      try {
        m = JSON.parse(e.payload);
      } catch {
        relay.stats.invalid++;
        return;
      }
      void relay.receive(m);
    });
    const theme = THEMES.dark;
    await page.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((f) => f);' });
    await page.addInitScript((arg) => {
      window.__pageArrivals = new Map();
      window.__rowPosts = [];
      // Runs before the bundle's own listener (added later): the time a reply reached the window.
      window.addEventListener('message', (e: MessageEvent<{ type?: string; requestId?: number }>) => {
        if (e.data.type === 'page' && e.data.requestId !== undefined) window.__pageArrivals?.set(e.data.requestId, performance.now());
      });
      (window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
        postMessage: (m: { type?: string; requestId?: number; offset?: number }) => {
          if (m.type === 'fetchRows') window.__rowPosts?.push([m.requestId ?? -1, m.offset ?? -1, performance.now()]);
          window.__toHost?.(JSON.stringify(m));
        },
        getState: () => undefined,
        setState: () => undefined,
      });
      document.addEventListener('DOMContentLoaded', () => {
        for (const [k, v] of Object.entries(arg.vars)) document.documentElement.style.setProperty(k, v);
        document.body.classList.add(...arg.bodyClass.split(' '));
        document.body.setAttribute('data-vscode-theme-kind', arg.kind);
      });
    }, { vars: theme.vars, bodyClass: theme.bodyClass, kind: theme.kind });
    await page.goto(`${server.origin}/explorer.html`);
    await page.waitForSelector('#app[data-state=ready]');
    return relay;
  }

  /** Resolves once no request of the webview is being answered. */
  idle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** One message from the webview, as ExplorerSession.receive handles it (the messages a grid sends). */
  private async receive(raw: unknown): Promise<void> {
    if (this.closed) return;
    if (!isExplorerWebviewToHost(raw)) {
      this.stats.invalid++;
      return;
    }
    const m = raw;
    switch (m.type) {
      case 'ready':
        this.post({ type: 'init', protocol: EXPLORER_PROTOCOL_VERSION, opened: this.opened, query: { sort: [], filters: [] }, theme: 'dark', pinned: [] });
        this.schedulePoll();
        return;
      case 'fetchRows': {
        this.stats.fetchRows++;
        this.latestQuery = JSON.stringify(m.query);
        await this.answer(m.requestId, m.query, async () => {
          const t0 = performance.now();
          const page = await this.client.rows(this.opened.viewId, m.offset, m.limit, m.query);
          this.stats.httpMs.set(m.requestId, performance.now() - t0);
          this.stats.pages++;
          return { type: 'page', requestId: m.requestId, page };
        });
        return;
      }
      case 'fetchCount':
        this.latestQuery = JSON.stringify(m.query);
        this.latestCount = m.requestId;
        await this.answer(m.requestId, m.query, async () => ({ type: 'count', requestId: m.requestId, matching: await this.client.count(this.opened.viewId, m.query) }), () => this.latestCount === m.requestId);
        return;
      case 'fetchSummary':
        this.latestSummary = m.requestId;
        await this.answer(m.requestId, m.query, async () => ({ type: 'summary', requestId: m.requestId, columns: await this.client.summary(this.opened.viewId, m.query) }), () => this.latestSummary === m.requestId);
        return;
      case 'webviewError':
        this.stats.errors.push(`webview: ${m.message}`);
        return;
      default:
        // switchSheet, action and persist do not occur while scrolling a Parquet file.
        return;
    }
  }

  private async answer(requestId: number, query: ExploreQuery, ask: () => Promise<ExplorerHostToWebview>, current: () => boolean = () => this.latestQuery === JSON.stringify(query)): Promise<void> {
    this.inFlight++;
    try {
      const reply = await ask();
      if (current()) this.post(reply);
      else this.stats.stale++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.stats.errors.push(message);
      if (current()) this.post({ type: 'error', requestId, message });
    } finally {
      if (--this.inFlight === 0) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  private post(m: ExplorerHostToWebview): void {
    if (this.closed) return;
    // JSON is a JS expression; the page then posts it to itself (a task, structured clone).
    this.cdp.send('Runtime.evaluate', { expression: `window.postMessage(${JSON.stringify(m)}, '*')` }).then((r) => {
      if (r.exceptionDetails !== undefined && !this.closed) this.stats.errors.push(`post: ${r.exceptionDetails.text}`);
    }, (err: unknown) => {
      if (!this.closed) this.stats.errors.push(`post: ${err instanceof Error ? err.message : String(err)}`);
    });
  }

  private schedulePoll(): void {
    this.poll = setTimeout(() => {
      this.client.status(this.opened.viewId).then(
        (s) => {
          // The session posts `status` only when something changed; a ready Parquet file never does.
          if (s.state !== 'ready' || s.rowCount !== this.opened.rowCount) this.stats.errors.push(`status changed: ${JSON.stringify(s)}`);
        },
        (err: unknown) => this.stats.errors.push(`status: ${err instanceof Error ? err.message : String(err)}`),
      ).finally(() => {
        if (!this.closed) this.schedulePoll();
      });
    }, WATCH_POLL_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.poll);
    await this.page.context().close();
  }
}
