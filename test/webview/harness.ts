/**
 * Browser harness for the answer panel: builds the webview bundle with esbuild (the same entries
 * as esbuild.mjs), serves it from a tiny 127.0.0.1 server inside exactly the document the host
 * serves (renderPanelHtml, strict CSP), and opens it in Debian's Chromium with a fake
 * `acquireVsCodeApi` that records what the webview posts. Every request that is not to that
 * server is aborted and recorded, so a test can assert that nothing remote was ever loaded.
 */
import { strict as assert } from 'node:assert';
import * as esbuild from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { PersistedUiState, WebviewToHost } from '../../src/shared/protocol';
import { renderPanelHtml } from '../../src/webview/panelHtml';
import { THEMES, type ThemeName } from './fixtures/themes';
import { barChartPng } from './png';
import { vscodeDefaultStyles } from './vscodeDefaultStyles';

declare global {
  interface Window {
    __posted: unknown[];
    __csp: string[];
    __pwned?: unknown;
  }
}

const ROOT = join(__dirname, '..', '..');
export const ARTIFACTS = join(ROOT, 'test-artifacts');

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const bundles = new Map<string, Promise<{ js: string; css: string }>>();

/** Builds one browser bundle and its stylesheet in memory, as esbuild.mjs does (once per name per test process). */
export function buildWebBundle(out: string, script: string, style: string): Promise<{ js: string; css: string }> {
  let built = bundles.get(out);
  if (built === undefined) {
    built = esbuild
      .build({
        bundle: true,
        write: false,
        entryPoints: [{ in: join(ROOT, script), out }, { in: join(ROOT, style), out }],
        outdir: join(ROOT, 'dist'),
        platform: 'browser',
        format: 'iife',
        target: ['chrome114'],
        logLevel: 'error',
      })
      .then((r) => {
        const js = r.outputFiles.find((f) => f.path.endsWith('.js'));
        const css = r.outputFiles.find((f) => f.path.endsWith('.css'));
        if (!js || !css) throw new Error(`esbuild produced no ${out}.js/${out}.css`);
        return { js: js.text, css: css.text };
      });
    bundles.set(out, built);
  }
  return built;
}

/** Builds dist/webview.js + dist/webview.css in memory (once per test process). */
export function buildBundle(): Promise<{ js: string; css: string }> {
  return buildWebBundle('webview', 'src/webview/main.ts', 'media/webview/panel.css');
}

export interface PanelServer {
  origin: string;
  close(): Promise<void>;
}

/** `csp=none` drops the policy so a test can check the sanitizer alone, without the CSP's help. */
export async function startPanelServer(): Promise<PanelServer> {
  const { js, css } = await buildBundle();
  const png = barChartPng(480, 240, [0.35, 0.8, 0.55, 0.95, 0.4, 0.7]);
  let origin = '';
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const send = (status: number, type: string, body: string | Buffer): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (url.pathname === '/panel.html') {
      let html = renderPanelHtml({
        scriptUri: `${origin}/dist/webview.js`,
        styleUri: `${origin}/dist/webview.css`,
        cspSource: origin,
        nonce: 'dGVzdC1ub25jZS0xMjM0NTY3OA==',
        title: 'Team Data Analysis',
      });
      if (url.searchParams.get('csp') === 'none') html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\n/, '');
      // The same document without the bundle, for benchmarks that render with something else.
      if (url.searchParams.get('bundle') === 'none') html = html.replace(/<script [^>]*><\/script>\n/, '');
      // VS Code puts its default stylesheet first in the webview's <head>; served as a file here so
      // the strict CSP (styles from the resource origin only) lets it in.
      if (url.searchParams.get('vscode') === 'defaults') html = html.replace('<head>', `<head>\n<link rel="stylesheet" href="${origin}/vscode-default.css">`);
      send(200, 'text/html; charset=utf-8', html);
    } else if (url.pathname === '/dist/webview.js') send(200, 'text/javascript; charset=utf-8', js);
    else if (url.pathname === '/dist/webview.css') send(200, 'text/css; charset=utf-8', css);
    else if (url.pathname === '/vscode-default.css') send(200, 'text/css; charset=utf-8', vscodeDefaultStyles());
    else if (url.pathname.startsWith('/cache/') && url.pathname.endsWith('.png')) send(200, 'image/png', png);
    else send(404, 'text/plain', 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Debian's Chromium; another build can be named with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Browser suites fail, with what to do, on a machine without Chromium: a skipped security suite
 * would let CI pass without ever running it.
 */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: run scripts/vscode/ensureCodeServer.sh (installs Debian's chromium) or set CHROMIUM_PATH`);
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

export interface PanelOptions {
  theme?: ThemeName;
  csp?: 'strict' | 'none';
  width?: number;
  height?: number;
  /** What `getState()` returns, as after a hide/show or a window reload. */
  state?: PersistedUiState;
  /** false: serve the document without the webview bundle (and do not wait for `ready`). */
  bundle?: boolean;
  /** true: put VS Code's default webview stylesheet (read from the installed code-server) first in <head>, as VS Code does. */
  vscodeDefaults?: boolean;
}

/**
 * What every webview page of the browser tests offers: what it posted to the host (recorded by the
 * fake `acquireVsCodeApi`), its CSP violations, a frame flush, screenshots, and closing.
 */
export class WebviewPage<Posted extends { type: string }> {
  readonly remoteRequests: string[] = [];
  readonly pageErrors: string[] = [];

  protected constructor(readonly page: Page) {}

  /** Waits until pending frame work has rendered (two animation frames). */
  async flush(): Promise<void> {
    await this.page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
    );
  }

  async posted(): Promise<Posted[]> {
    return (await this.page.evaluate(() => window.__posted)) as Posted[];
  }

  /** Posted messages of one type. */
  async postedOf<T extends Posted['type']>(type: T): Promise<Array<Extract<Posted, { type: T }>>> {
    return (await this.posted()).filter((m): m is Extract<Posted, { type: T }> => m.type === type);
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      window.__posted.length = 0;
    });
  }

  async cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => window.__csp);
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(ARTIFACTS, { recursive: true });
    const path = join(ARTIFACTS, name);
    await this.page.screenshot({ path, fullPage: false });
    return path;
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }
}

export class PanelPage extends WebviewPage<WebviewToHost> {
  readonly dialogs: string[] = [];

  private constructor(page: Page, readonly origin: string) {
    super(page);
  }

  static async open(browser: Browser, server: PanelServer, opts: PanelOptions = {}): Promise<PanelPage> {
    // Read (or fail, naming the file) before the page asks for it, so the test says why.
    if (opts.vscodeDefaults === true) vscodeDefaultStyles();
    const context = await browser.newContext({ viewport: { width: opts.width ?? 900, height: opts.height ?? 900 } });
    const page = await context.newPage();
    const panel = new PanelPage(page, server.origin);
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${server.origin}/`)) return route.continue();
      panel.remoteRequests.push(url);
      return route.abort();
    });
    page.on('pageerror', (e) => panel.pageErrors.push(e.message));
    if (process.env.PANEL_DEBUG) {
      page.on('console', (m) => process.stderr.write(`[page ${m.type()}] ${m.text()}\n`));
      page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.stack ?? e.message}\n`));
    }
    page.on('dialog', (d) => {
      panel.dialogs.push(`${d.type()}: ${d.message()}`);
      void d.dismiss();
    });
    const theme = THEMES[opts.theme ?? 'dark'];
    // tsx compiles test functions with esbuild's keepNames, which wraps named functions in
    // `__name(...)`; functions serialized into the page need that helper there too.
    await page.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((f) => f);' });
    await page.addInitScript(
      (arg) => {
        const posted: unknown[] = [];
        let state: unknown = arg.state;
        window.__posted = posted;
        window.__csp = [];
        (window as unknown as { acquireVsCodeApi: () => unknown }).acquireVsCodeApi = () => ({
          postMessage: (m: unknown) => posted.push(JSON.parse(JSON.stringify(m))),
          getState: () => state,
          setState: (s: unknown) => {
            state = s;
          },
        });
        document.addEventListener('securitypolicyviolation', (e) => {
          const where = e.target instanceof Element ? ` at <${e.target.tagName.toLowerCase()} class="${e.target.getAttribute('class') ?? ''}">` : '';
          window.__csp.push(`${e.violatedDirective} ${e.blockedURI}${where} ${e.sample}`.trim());
        });
        document.addEventListener('DOMContentLoaded', () => {
          // VS Code sets the theme's variables on <html> and the theme kind as a body class.
          for (const [k, v] of Object.entries(arg.vars)) document.documentElement.style.setProperty(k, v);
          // (Light High Contrast adds vscode-high-contrast too, as VS Code's webview host page does.)
          document.body.classList.add(...arg.bodyClass.split(' '));
          document.body.setAttribute('data-vscode-theme-kind', arg.kind);
        });
      },
      { vars: theme.vars, bodyClass: theme.bodyClass, kind: theme.kind, state: opts.state ?? null },
    );
    const query = new URLSearchParams();
    if (opts.csp === 'none') query.set('csp', 'none');
    if (opts.bundle === false) query.set('bundle', 'none');
    if (opts.vscodeDefaults === true) query.set('vscode', 'defaults');
    await page.goto(`${server.origin}/panel.html${query.size > 0 ? `?${query}` : ''}`);
    if (opts.bundle !== false) await page.waitForFunction(() => window.__posted.some((m) => (m as { type?: string }).type === 'ready'));
    return panel;
  }

  /** Delivers host messages the way VS Code does: as `message` events on the window. */
  async send(...messages: unknown[]): Promise<void> {
    await this.page.evaluate((ms) => {
      for (const m of ms) window.dispatchEvent(new MessageEvent('message', { data: m }));
    }, messages);
    await this.flush();
  }

}

/** Waits until the panel has rendered every pending markdown page (see mdPages.ts), which it
 * does in idle time once no answer streams. */
export async function allPagesRendered(panel: PanelPage): Promise<void> {
  await panel.page.waitForFunction(() => document.querySelector('.md-pending') === null, undefined, { timeout: 60_000 });
  await panel.flush();
}

/**
 * A page server (started by `start`) and Chromium for the enclosing suite: started in its `before`,
 * stopped in its `after`. Read them through the returned object once the suite runs.
 */
export function useBrowserWith<S extends { close(): Promise<void> }>(start: () => Promise<S>): { readonly server: S; readonly browser: Browser } {
  let server: S | undefined;
  let browser: Browser | undefined;
  before(async () => {
    requireChromium();
    server = await start();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get server(): S {
      if (!server) throw new Error('the page server is not started yet (use it inside tests and hooks)');
      return server;
    },
    get browser(): Browser {
      if (!browser) throw new Error('the browser is not launched yet (use it inside tests and hooks)');
      return browser;
    },
  };
}

/** The panel server and Chromium for the enclosing suite (see {@link useBrowserWith}). */
export function usePanelBrowser(): { readonly server: PanelServer; readonly browser: Browser } {
  return useBrowserWith(startPanelServer);
}

/** After a test: the page raised no error, loaded nothing remote, broke no CSP rule and reported no webview error; then closes it. */
export async function closeCleanly(panel: PanelPage | undefined): Promise<void> {
  if (!panel) return;
  assert.deepEqual(panel.pageErrors, []);
  assert.deepEqual(panel.remoteRequests, []);
  assert.deepEqual(await panel.cspViolations(), []);
  assert.deepEqual(await panel.postedOf('webviewError'), []);
  await panel.close();
}
