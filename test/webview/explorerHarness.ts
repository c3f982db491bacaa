/**
 * Browser harness for the Data Explorer webview (issue 27): builds dist/explorer.js + .css in
 * memory (the entries esbuild.mjs builds), serves them from 127.0.0.1 inside exactly the document
 * the custom editor serves (renderExplorerHtml, strict CSP), and opens it in Debian's Chromium
 * with a fake `acquireVsCodeApi` that records every post. A fake host in the page may answer
 * `fetchRows` with rows generated on the fly from the offset, and `fetchCount`/`fetchSummary`
 * from fixtures; tests can also answer by hand (for stale replies). Requests to anything but the
 * server are aborted and recorded, so a test can assert that nothing remote was loaded.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import type { ColumnSummary, ExploreColumn, ExploreOpened } from '../../src/shared/explore';
import type { ExplorerHostToWebview, ExplorerInit, ExplorerWebviewToHost } from '../../src/shared/explorerProtocol';
import { renderExplorerHtml } from '../../src/webview/explorer/explorerHtml';
import { THEMES, type ThemeName } from './fixtures/themes';
import { buildWebBundle, useBrowserWith, WebviewPage } from './harness';
import { vscodeDefaultStyles } from './vscodeDefaultStyles';


declare global {
  interface Window {
    __posted: unknown[];
    __csp: string[];
    __host?: FakeHostConfig;
    /** What the webview last kept with `setState`. */
    __state?: unknown;
  }
}

/** Builds dist/explorer.js + dist/explorer.css in memory, as esbuild.mjs does (once per test process). */
export function buildExplorerBundle(): Promise<{ js: string; css: string }> {
  return buildWebBundle('explorer', 'src/webview/explorer/main.ts', 'media/explorer/explorer.css');
}

export interface ExplorerServer {
  origin: string;
  close(): Promise<void>;
}

export async function startExplorerServer(): Promise<ExplorerServer> {
  const { js, css } = await buildExplorerBundle();
  let origin = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, type: string, body: string): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/explorer.html') {
      let html = renderExplorerHtml({
        scriptUri: `${origin}/dist/explorer.js`,
        styleUri: `${origin}/dist/explorer.css`,
        cspSource: origin,
        nonce: 'dGVzdC1ub25jZS0xMjM0NTY3OA==',
        title: 'sales.parquet',
      });
      html = html.replace('<head>', `<head>\n<link rel="stylesheet" href="${origin}/vscode-default.css">`);
      send(200, 'text/html; charset=utf-8', html);
    } else if (url.pathname === '/dist/explorer.js') send(200, 'text/javascript; charset=utf-8', js);
    else if (url.pathname === '/dist/explorer.css') send(200, 'text/css; charset=utf-8', css);
    else if (url.pathname === '/vscode-default.css') send(200, 'text/css; charset=utf-8', vscodeDefaultStyles());
    else send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** What the in-page fake host answers with (plain JSON: it is serialized into the page). */
export interface FakeHostConfig {
  /** Answer fetchRows from generated rows (false: the test answers by hand). */
  rows: boolean;
  /** Rows in the unfiltered view. */
  total: number;
  kinds: ExploreColumn['kind'][];
  /** Rows matching any filtered query. */
  matching: number;
  summary: ColumnSummary[];
  /** A regex filter with this text gets a service error for its requests. */
  badRegex?: string;
  delayMs: number;
}

export const COLUMNS: ExploreColumn[] = [
  { name: 'id', type: 'BIGINT', kind: 'number' },
  { name: 'city', type: 'VARCHAR', kind: 'text' },
  { name: 'amount', type: 'DOUBLE', kind: 'number' },
  { name: 'day', type: 'DATE', kind: 'date' },
  { name: 'paid', type: 'BOOLEAN', kind: 'boolean' },
  { name: 'note', type: 'VARCHAR', kind: 'text' },
  { name: 'region', type: 'VARCHAR', kind: 'text' },
  { name: 'seen_at', type: 'TIMESTAMP', kind: 'datetime' },
];

export function opened(over: Partial<ExploreOpened> = {}): ExploreOpened {
  return { viewId: 'v1', fileName: 'sales.parquet', columns: COLUMNS, rowCount: 10_000_000, state: 'ready', ...over };
}

export function initOf(over: Partial<ExplorerInit> = {}, o: Partial<ExploreOpened> = {}): ExplorerInit {
  return { type: 'init', protocol: 1, opened: opened(o), query: { sort: [], filters: [] }, theme: 'dark', pinned: [], ...over };
}

export interface ExplorerOptions {
  theme?: ThemeName;
  width?: number;
  height?: number;
  host?: Partial<FakeHostConfig>;
}

export class ExplorerPage extends WebviewPage<ExplorerWebviewToHost> {
  /** Set by a test that feeds invalid messages on purpose (the webview reports dropping them). */
  expectWebviewErrors = false;

  private constructor(page: Page) {
    super(page);
  }

  static async open(browser: Browser, server: ExplorerServer, opts: ExplorerOptions = {}): Promise<ExplorerPage> {
    const context = await browser.newContext({ viewport: { width: opts.width ?? 1000, height: opts.height ?? 600 } });
    const page = await context.newPage();
    const x = new ExplorerPage(page);
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${server.origin}/`)) return route.continue();
      x.remoteRequests.push(url);
      return route.abort();
    });
    page.on('pageerror', (e) => x.pageErrors.push(e.message));
    if (process.env.PANEL_DEBUG) page.on('console', (m) => process.stderr.write(`[page ${m.type()}] ${m.text()}\n`));
    const theme = THEMES[opts.theme ?? 'dark'];
    const host: FakeHostConfig = {
      rows: true, total: 10_000_000, kinds: COLUMNS.map((c) => c.kind), matching: 1234, summary: [], delayMs: 0, ...opts.host,
    };
    await page.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((f) => f);' });
    await page.addInitScript(
      (arg) => {
        window.__posted = [];
        window.__csp = [];
        window.__host = arg.host;
        const CITIES = ['Lisbon', 'Oslo', 'Kyoto', 'Lima', 'Accra', 'Perth', 'Quito'];
        const cell = (kind: string, i: number, j: number): unknown => {
          if (j === 0) return i + 1;
          if (j === 5) return i % 10 === 0 ? null : `note ${i}`;
          if (j === 6) return i % 2 === 0 ? 'north' : 'south';
          switch (kind) {
            case 'number': return ((i * 7919) % 100000) / 100;
            case 'text': return CITIES[i % CITIES.length];
            case 'date': return new Date(Date.UTC(2024, 0, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10);
            case 'datetime': return new Date(Date.UTC(2024, 0, 1) + (i % 100000) * 60_000).toISOString().replace('T', ' ').slice(0, 19);
            case 'boolean': return i % 3 === 0;
            default: return `x${i}`;
          }
        };
        const reply = (m: unknown): void => {
          const h = window.__host;
          setTimeout(() => window.dispatchEvent(new MessageEvent('message', { data: m })), h ? h.delayMs : 0);
        };
        const answer = (m: { type: string; requestId: number; offset: number; limit: number; query: { filters: Array<{ op: string; text?: string }> } }): void => {
          const h = window.__host;
          if (!h || !m.type.startsWith('fetch')) return;
          const bad = h.badRegex !== undefined && m.query.filters.some((f) => f.op === 'regex' && f.text === h.badRegex);
          const filtered = m.query.filters.length > 0;
          const total = filtered ? h.matching : h.total;
          if (bad && m.type !== 'fetchSummary') {
            reply({ type: 'error', requestId: m.requestId, message: 'Invalid regular expression: missing )' });
            return;
          }
          if (m.type === 'fetchRows' && h.rows) {
            const rows: unknown[][] = [];
            for (let i = m.offset; i < Math.min(total, m.offset + m.limit); i++) rows.push(h.kinds.map((k, j) => cell(k, i, j)));
            reply({ type: 'page', requestId: m.requestId, page: { offset: m.offset, rows, ...(filtered ? { matching: total } : {}) } });
          } else if (m.type === 'fetchCount') reply({ type: 'count', requestId: m.requestId, matching: total });
          else if (m.type === 'fetchSummary') reply({ type: 'summary', requestId: m.requestId, columns: h.summary });
        };
        (window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
          postMessage: (m: unknown) => {
            const copy = JSON.parse(JSON.stringify(m)) as Parameters<typeof answer>[0];
            window.__posted.push(copy);
            answer(copy);
          },
          getState: () => window.__state,
          setState: (state: unknown) => {
            window.__state = JSON.parse(JSON.stringify(state)) as unknown;
          },
        });
        document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
        document.addEventListener('DOMContentLoaded', () => {
          for (const [k, v] of Object.entries(arg.vars)) document.documentElement.style.setProperty(k, v);
          document.body.classList.add(...arg.bodyClass.split(' '));
          document.body.setAttribute('data-vscode-theme-kind', arg.kind);
        });
      },
      { vars: theme.vars, bodyClass: theme.bodyClass, kind: theme.kind, host },
    );
    await page.goto(`${server.origin}/explorer.html`);
    await page.waitForFunction(() => window.__posted.some((m) => (m as { type?: string }).type === 'ready'));
    return x;
  }

  async send(...messages: ExplorerHostToWebview[] | unknown[]): Promise<void> {
    await this.page.evaluate((ms) => {
      for (const m of ms) window.dispatchEvent(new MessageEvent('message', { data: m }));
    }, messages);
    await this.flush();
  }

  /** Waits for the fake host's replies to land and the grid to draw them. */
  async settle(): Promise<void> {
    await this.page.evaluate(() => new Promise<void>((r) => setTimeout(r, (window.__host?.delayMs ?? 0) + 20)));
    await this.flush();
    await this.flush();
  }

  /** What the webview kept with `setState` (the panel serializer's state after a reload). */
  async savedState(): Promise<unknown> {
    return this.page.evaluate(() => window.__state);
  }

  async setHost(over: Partial<FakeHostConfig>): Promise<void> {
    await this.page.evaluate((o) => {
      window.__host = { ...(window.__host as FakeHostConfig), ...o };
    }, over);
  }

}

/**
 * After each test, the page it opened (if any) is checked and closed: no page errors, nothing
 * remote loaded, no CSP violations, and no webview errors unless the test expected some.
 */
export function checkedAfterEach(current: () => ExplorerPage | undefined, reset: () => void): void {
  afterEach(async () => {
    const x = current();
    if (!x) return;
    assert.deepEqual(x.pageErrors, []);
    assert.deepEqual(x.remoteRequests, []);
    assert.deepEqual(await x.cspViolations(), []);
    if (!x.expectWebviewErrors) assert.deepEqual(await x.postedOf('webviewError'), []);
    await x.close();
    reset();
  });
}

/** The explorer's page server and Chromium for the enclosing suite (see {@link useBrowserWith}). */
export function useExplorerBrowser(): { readonly server: ExplorerServer; readonly browser: Browser } {
  return useBrowserWith(startExplorerServer);
}
