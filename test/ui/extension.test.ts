/**
 * The extension as a user meets it, in a real VS Code (code-server) driven by Playwright in
 * Chromium: right-click a CSV in the Explorer, run "Analyze This File", accept the dataset and
 * the pre-filled question, and see the answer panel open with the answer and the Team Data
 * sidebar show the dataset, the ready data source and the session. Screenshots go to
 * test-artifacts/ (or $TEAM_DATA_ARTIFACTS_DIR).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { activeWebviewFrame, explorerContextMenu, openWorkbench, saveScreenshot, type Workbench } from './harness/workbench';

const repo = resolve(__dirname, '../..');

async function waitForQuickInput(page: Page, title: RegExp): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  await widget.waitFor({ state: 'visible', timeout: 60_000 });
  await page.locator('.quick-input-widget .quick-input-title, .quick-input-widget .quick-input-message').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 60_000 });
}

describe('extension UI on code-server (Playwright)', function () {
  this.timeout(8 * 60_000);
  let scratch: string;
  let wb: Workbench | undefined;

  before(() => {
    // TEAM_DATA_SKIP_BUILD=1 runs against dist/ as it is (for iterating on the tests themselves).
    if (process.env['TEAM_DATA_SKIP_BUILD'] !== '1') execFileSync(process.execPath, [join(repo, 'esbuild.mjs')], { cwd: repo, stdio: 'pipe' });
    for (const f of ['extension.js', 'cli.js']) assert.ok(existsSync(join(repo, 'dist', f)), `dist/${f} was not built`);
    scratch = mkdtempSync(join(tmpdir(), 'td-ui-'));
  });

  after(async () => {
    await wb?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('right-click a CSV → Analyze This File → the trees update and the answer panel opens', async () => {
    const workspace = join(scratch, 'sales-demo');
    mkdirSync(workspace);
    copyFileSync(join(repo, 'samples', 'sales.csv'), join(workspace, 'sales.csv'));
    wb = await openWorkbench({ workspace, extensionDevelopmentPath: repo, settings: { 'workbench.colorTheme': 'Default Dark Modern' } });
    const { page } = wb;

    await explorerContextMenu(page, 'sales.csv', 'Analyze This File');
    // Dataset pick: the default is a new dataset named after the workspace folder, listed first.
    await waitForQuickInput(page, /Add sales\.csv to which dataset/);
    const first = page.locator('.quick-input-widget .monaco-list-row').first();
    await first.waitFor({ state: 'visible' });
    assert.match((await first.textContent()) ?? '', /New dataset “sales-demo”/);
    await saveScreenshot(page, 'extension-1-dataset-pick');
    await page.keyboard.press('Enter');

    // Upload with a progress notification, then the question box, pre-filled.
    await waitForQuickInput(page, /Ask about sales\.csv/);
    const input = page.locator('.quick-input-widget .quick-input-box input');
    assert.equal(await input.inputValue(), 'Give me an overview of this data');
    await saveScreenshot(page, 'extension-2-question');
    await page.keyboard.press('Enter');

    // The answer panel: an editor tab whose webview renders the question and a finished answer.
    const frame = activeWebviewFrame(page);
    await frame.getByText('Give me an overview of this data').first().waitFor({ state: 'visible', timeout: 120_000 });
    await saveScreenshot(page, 'extension-3-answer-panel');

    // The sidebar: open the Team Data container and find the dataset, the data source and the session.
    await page.locator('.activitybar .action-item a[aria-label^="Team Data"]').first().click();
    const sidebar = page.locator('.part.sidebar');
    const datasetRow = sidebar.locator('.monaco-list-row').filter({ hasText: 'sales-demo' }).first();
    await datasetRow.waitFor({ state: 'visible', timeout: 60_000 });
    if ((await datasetRow.getAttribute('aria-expanded')) !== 'true') await datasetRow.click();
    const sourceRow = sidebar.locator('.monaco-list-row').filter({ hasText: 'sales.csv' }).filter({ hasText: 'ready' }).first();
    await sourceRow.waitFor({ state: 'visible', timeout: 60_000 });
    const sessionRow = sidebar.locator('.monaco-list-row').filter({ hasText: /Analyze sales\.csv|overview/i }).first();
    await sessionRow.waitFor({ state: 'visible', timeout: 60_000 });
    await saveScreenshot(page, 'extension-4-trees');
    const statusItem = page.locator('.statusbar-item').filter({ hasText: 'Team Data: Local' }).first();
    await statusItem.waitFor({ state: 'visible', timeout: 30_000 });
  });
});
