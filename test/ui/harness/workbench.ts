/**
 * Playwright helpers for UI tests against the real VS Code workbench served by code-server.
 *
 * Extensions load a few seconds after the workbench paints, so the helpers that need an
 * extension's contribution (palette commands, context-menu items) retry until it shows up
 * instead of guessing a delay.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';
import { launchChromium, startCodeServer, type CodeServer } from '../../../scripts/vscode/codeServer';
import { workbenchUrl } from '../../../scripts/vscode/extensionTestArgs';

/** Options of {@link openWorkbench}. */
export interface OpenWorkbenchOptions {
  /** Folder to open (absolute). */
  workspace: string;
  /** Extension(s) to load from source, like F5's Extension Development Host. */
  extensionDevelopmentPath?: string | string[];
  /** Extensions dir (e.g. after installVsix); default: a fresh empty one. */
  extensionsDir?: string;
  /** Server environment, inherited by the extension host. */
  env?: Record<string, string | undefined>;
  /** User settings. */
  settings?: Record<string, unknown>;
  /** Default 60 s. */
  readyTimeoutMs?: number;
}

/** A browser window on a running code-server; `close()` stops both. */
export interface Workbench {
  page: Page;
  browser: Browser;
  server: CodeServer;
  /** Milliseconds from navigation until {@link waitForWorkbenchReady} returned. */
  readyMs: number;
  close(): Promise<void>;
}

/**
 * Starts code-server and Chromium, opens the workbench on `workspace` and waits until it is
 * ready. Everything is stopped again if that fails.
 */
export async function openWorkbench(options: OpenWorkbenchOptions): Promise<Workbench> {
  const server = await startCodeServer({
    workspace: options.workspace,
    extensionsDir: options.extensionsDir,
    env: options.env,
    settings: options.settings,
  });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const dev = options.extensionDevelopmentPath;
    const url = workbenchUrl(server.url, {
      folder: resolve(options.workspace),
      extensionDevelopmentPaths: (typeof dev === 'string' ? [dev] : (dev ?? [])).map((p) => resolve(p)),
    });
    const started = Date.now();
    await page.goto(url);
    await waitForWorkbenchReady(page, options.readyTimeoutMs);
    const readyMs = Date.now() - started;
    const opened = browser;
    return {
      page, browser: opened, server, readyMs,
      close: async () => {
        await opened.close().catch(() => undefined);
        await server.stop();
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw err;
  }
}

/**
 * Waits until the workbench is laid out and the Explorer shows the folder's content (which
 * needs the connection to the server's file system).
 */
export async function waitForWorkbenchReady(page: Page, timeoutMs = 60_000): Promise<void> {
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ state: 'visible', timeout: timeoutMs });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** `s` as a literal inside a RegExp. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Runs a command by its palette title ("Category: Title") via F1, retrying until the command is
 * listed (its extension may still be loading).
 * @throws Error naming what the palette showed when the command never appears.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  // The aria-label may carry a keybinding after a comma.
  const option = widget.getByRole('option', { name: new RegExp(`^${escapeRegExp(title)}(,|$)`) });
  const deadline = Date.now() + timeoutMs;
  let seen: string[] = [];
  for (;;) {
    if (!(await widget.isVisible())) await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 5000 });
    await input.fill(`>${title}`);
    try {
      await option.first().waitFor({ state: 'visible', timeout: 2000 });
      await option.first().click();
      return;
    } catch {
      seen = await widget.getByRole('option').allTextContents();
      if (Date.now() > deadline) break;
      await page.keyboard.press('Escape');
      await sleep(500);
    }
  }
  await page.keyboard.press('Escape');
  throw new Error(`command "${title}" not found in the palette within ${timeoutMs} ms; it showed: ${seen.join(' | ')}`);
}

/** Waits until the quick input (pick or input box) shows a title or message matching `title`. */
export async function waitForQuickInput(page: Page, title: RegExp, timeoutMs = 60_000): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: timeoutMs });
  await widget.locator('.quick-input-title, .quick-input-message').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: timeoutMs });
}

/** The Explorer row of `name` (a file or folder name as shown in the tree). */
export function explorerItem(page: Page, name: string): Locator {
  return page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name.replace(/["\\]/g, '\\$&')}"]`);
}

/**
 * Right-clicks `fileName` in the Explorer and runs `itemLabel` from the context menu, retrying
 * until the item is there (extension menus appear once the extension is loaded).
 *
 * The item is run with the keyboard (hover to focus it, then Enter), not with a click: VS Code's
 * menu items only start listening for the mouse-up about 100 ms after the menu renders, so a
 * click that lands early, which happens under load, is silently swallowed and leaves the menu
 * open. The menu's keyboard handling is live from the first frame.
 */
export async function explorerContextMenu(page: Page, fileName: string, itemLabel: string, timeoutMs = 30_000): Promise<void> {
  const row = explorerItem(page, fileName);
  const name = new RegExp(`^${escapeRegExp(itemLabel)}`);
  const menu = page.locator('.context-view .monaco-menu');
  const item = menu.getByRole('menuitem', { name });
  const focusedItem = menu.locator('li.action-item.focused').getByRole('menuitem', { name });
  const deadline = Date.now() + timeoutMs;
  let seen: string[] = [];
  // A menu left open by an earlier step would swallow the right-click.
  if (await menu.first().isVisible()) await page.keyboard.press('Escape');
  for (;;) {
    await row.click({ button: 'right' });
    try {
      await item.first().waitFor({ state: 'visible', timeout: 2000 });
      await item.first().hover();
      await focusedItem.first().waitFor({ state: 'visible', timeout: 2000 });
      await page.keyboard.press('Enter');
      return;
    } catch {
      seen = await menu.getByRole('menuitem').allTextContents();
      await page.keyboard.press('Escape');
      if (Date.now() > deadline) break;
      await sleep(500);
    }
  }
  throw new Error(`"${itemLabel}" not in the Explorer context menu of ${fileName} within ${timeoutMs} ms; it showed: ${seen.join(' | ')}`);
}

/**
 * The document inside the visible webview (panel or view). VS Code nests it: an outer
 * `iframe.webview` (VS Code's host page) holding `#active-frame` (the extension's HTML).
 */
export function activeWebviewFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready >> visible=true').frameLocator('#active-frame');
}

/** Texts of the notification toasts currently shown. */
export async function readNotifications(page: Page): Promise<string[]> {
  return page.locator('.notifications-toasts .notification-list-item-message').allTextContents();
}

/**
 * Waits for a toast whose text contains `match` (or matches it) and returns its full text.
 * @throws Error listing the toasts that were shown.
 */
export async function waitForNotification(page: Page, match: string | RegExp, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let texts: string[] = [];
  while (Date.now() <= deadline) {
    texts = await readNotifications(page);
    const hit = texts.find((t) => (typeof match === 'string' ? t.includes(match) : match.test(t)));
    if (hit !== undefined) return hit;
    await sleep(100);
  }
  throw new Error(`no notification matching ${String(match)} within ${timeoutMs} ms; shown: ${JSON.stringify(texts)}`);
}

/** Folder for screenshots: `$TEAM_DATA_ARTIFACTS_DIR` or `<repo>/test-artifacts`. */
export function artifactsDir(): string {
  return process.env.TEAM_DATA_ARTIFACTS_DIR || resolve(__dirname, '../../../test-artifacts');
}

/** Saves a full-window screenshot as `<artifactsDir>/<name>.png` and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const dir = artifactsDir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^A-Za-z0-9._-]+/g, '-')}.png`);
  await page.screenshot({ path: file });
  return file;
}
