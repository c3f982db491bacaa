/**
 * The extension as a user meets it, in a real VS Code (code-server) driven by Playwright in
 * Chromium: right-click a CSV in the Explorer, run "Analyze This File", accept the dataset and
 * the pre-filled question, and see the answer panel open with the answer and the Team Data
 * sidebar show the dataset, the ready data source and the session. Screenshots go to
 * test-artifacts/ (or $TEAM_DATA_ARTIFACTS_DIR).
 *
 * The extension is the packaged one: `npm run package` (once per test process, see
 * test/start/packagedVsix.ts) installed with code-server's --install-extension, as users get it.
 * TEAM_DATA_UI_EXTENSION=dev loads the development folder instead (dist/ built by esbuild.mjs).
 * TEAM_DATA_UPDATE_DOCS=1 also writes the README's screenshots into docs/images/.
 */
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { analyzeFromExplorer, repo, useExtensionWorkbench } from './harness/extensionUnderTest';
import { activeWebviewFrame, saveScreenshot, waitForQuickInput } from './harness/workbench';

/** A README screenshot: always into the artifacts, and into docs/images/ when asked to. */
async function docsScreenshot(page: Page, name: string): Promise<void> {
  const file = await saveScreenshot(page, `readme-${name}`);
  if (process.env['TEAM_DATA_UPDATE_DOCS'] === '1') {
    mkdirSync(join(repo, 'docs', 'images'), { recursive: true });
    copyFileSync(file, join(repo, 'docs', 'images', `${name}.png`));
  }
}

describe('extension UI on code-server (Playwright)', function () {
  this.timeout(8 * 60_000);
  const ui = useExtensionWorkbench('extension');

  it('right-click a CSV → Analyze This File → the trees update and the answer panel opens', async () => {
    const wb = await ui.open('sales-demo', (ws) => { for (const f of readdirSync(join(repo, 'samples'))) copyFileSync(join(repo, 'samples', f), join(ws, f)); });
    const { page } = wb;

    // Dataset pick: the default is a new dataset named after the workspace folder, listed first.
    await analyzeFromExplorer(page, 'sales.csv', 'sales-demo');
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

    // The README's pictures: the sidebar with the trees next to the answer, then the answer alone
    // from its top (the panel follows the stream to the bottom while it arrives).
    await page.mouse.move(0, 0);
    await docsScreenshot(page, 'tree');
    await page.locator('.activitybar .action-item a[aria-label^="Team Data"]').first().click();
    await sidebar.waitFor({ state: 'hidden', timeout: 10_000 });
    await frame.locator('body').evaluate(() => {
      for (const el of [document.scrollingElement, ...Array.from(document.querySelectorAll('*'))]) if (el && el.scrollTop > 0) el.scrollTop = 0;
    });
    await docsScreenshot(page, 'answer-panel');
  });
});
