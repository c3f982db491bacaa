/**
 * The Team Data Explorer across a window reload (issue 27), in code-server driven by Playwright:
 * a data source opened in an explorer panel and a file opened in the explorer's custom editor,
 * each sorted and with a row pinned, come back after the page reloads — the panel through the
 * extension's panel serializer (its origin kept in the webview's state, activation on
 * `onWebviewPanel:teamData.explorerPanel`), the custom editor by VS Code itself — with their sort
 * and pinned row.
 */
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { analyzeFromExplorer, useExtensionWorkbench } from './harness/extensionUnderTest';
import { activeWebviewFrame, escapeRegExp, explorerContextMenu, saveScreenshot, waitForQuickInput, waitForWorkbenchReady } from './harness/workbench';

const csv = (n: number, bump: number): string => `id,region,amount\n${Array.from({ length: n }, (_, i) => `${i + 1},${['north', 'south', 'east'][i % 3]},${(i * 37) % 101 + bump}`).join('\n')}\n`;

/** Right-clicks a row of the Team Data sidebar and runs `label` from its menu (keyboard, as explorerContextMenu does). */
async function sidebarMenu(page: Page, row: Locator, label: string): Promise<void> {
  const menu = page.locator('.context-view .monaco-menu');
  const name = new RegExp(`^${escapeRegExp(label)}`);
  for (let tries = 0; ; tries++) {
    await row.click({ button: 'right' });
    try {
      await menu.getByRole('menuitem', { name }).first().hover({ timeout: 3000 });
      await menu.locator('li.action-item.focused').getByRole('menuitem', { name }).first().waitFor({ state: 'visible', timeout: 2000 });
      await page.keyboard.press('Enter');
      return;
    } catch (err) {
      await page.keyboard.press('Escape');
      if (tries >= 10) throw err;
    }
  }
}

/** The editor tab titled exactly `title` ("Analyze orders.csv" is not the tab of orders.csv). */
const tab = (page: Page, title: string): Locator => page.locator('.tabs-container .tab').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(title)}\\s*$`) }).first();

/** The grid of the explorer tab `title`, once its first rows are drawn. */
async function grid(page: Page, title: string): Promise<FrameLocator> {
  await tab(page, title).click();
  const frame = activeWebviewFrame(page);
  await frame.locator('#x-c-0-0').waitFor({ state: 'visible', timeout: 120_000 });
  return frame;
}

/** Sorts by the column of header `col` descending (two clicks), pins the first row; returns its id. */
async function sortAndPin(frame: FrameLocator, col: number): Promise<string> {
  for (const want of ['ascending', 'descending']) {
    await frame.locator(`#x-h-${col} .x-hname`).click();
    await frame.locator(`#x-h-${col}[aria-sort=${want}]`).waitFor({ timeout: 60_000 });
  }
  const first = frame.locator('#x-c-0-0');
  await first.click();
  const id = (await first.textContent()) ?? '';
  await frame.locator('.x-pin-rows').click();
  await frame.locator('.x-pinned-rows .x-row').first().waitFor({ timeout: 10_000 });
  return id;
}

async function assertKept(frame: FrameLocator, col: number, id: string, what: string): Promise<void> {
  await frame.locator(`#x-h-${col}[aria-sort=descending]`).waitFor({ timeout: 60_000 }).catch(() => assert.fail(`${what}: the sort did not come back`));
  const pinned = frame.locator('.x-pinned-rows .x-row .x-cell').first();
  await pinned.waitFor({ timeout: 60_000 }).catch(() => assert.fail(`${what}: the pinned row did not come back`));
  assert.equal(await pinned.textContent(), id, `${what}: the same row is pinned`);
}

describe('Team Data Explorer across a window reload (Playwright)', function () {
  this.timeout(10 * 60_000);
  const ui = useExtensionWorkbench('explorer-reload');

  it('a data source panel and a file\'s custom editor come back after a reload, sorted and with their pinned row', async () => {
    const { page } = await ui.open('explorer-reload', (ws) => {
      writeFileSync(join(ws, 'orders.csv'), csv(300, 0));
      writeFileSync(join(ws, 'items.csv'), csv(120, 500));
    });
    // A data source: Analyze This File, then "Open in Team Data Explorer" on it in the Datasets view.
    await analyzeFromExplorer(page, 'orders.csv', 'explorer-reload');
    await page.keyboard.press('Enter');
    await waitForQuickInput(page, /Ask about orders\.csv/);
    await page.keyboard.press('Enter');
    await activeWebviewFrame(page).getByText('Give me an overview of this data').first().waitFor({ state: 'visible', timeout: 180_000 });
    await page.locator('.activitybar .action-item a[aria-label^="Team Data"]').first().click();
    const sidebar = page.locator('.part.sidebar');
    const datasetRow = sidebar.locator('.monaco-list-row').filter({ hasText: 'explorer-reload' }).first();
    await datasetRow.waitFor({ state: 'visible', timeout: 60_000 });
    if ((await datasetRow.getAttribute('aria-expanded')) !== 'true') await datasetRow.click();
    const sourceRow = sidebar.locator('.monaco-list-row').filter({ hasText: 'orders.csv' }).filter({ hasText: 'ready' }).first();
    await sourceRow.waitFor({ state: 'visible', timeout: 60_000 });
    await sidebarMenu(page, sourceRow, 'Open in Team Data Explorer');
    const panelId = await sortAndPin(await grid(page, 'orders.csv'), 0);
    assert.equal(panelId, '300');

    // A file in the custom editor.
    await page.locator('.activitybar .action-item a[aria-label^="Explorer"]').first().click();
    await explorerContextMenu(page, 'items.csv', 'Open in Team Data Explorer');
    const editorId = await sortAndPin(await grid(page, 'items.csv'), 2);
    await saveScreenshot(page, 'explorer-reload-before');

    // The workspace state the extension wrote (the tabs' sort and pins) reaches VS Code's storage
    // shortly after each change; a reload at once may come before it (a browser-side flush).
    await page.waitForTimeout(3000);
    await page.reload();
    await waitForWorkbenchReady(page);
    await assertKept(await grid(page, 'orders.csv'), 0, panelId, 'the data source panel');
    await saveScreenshot(page, 'explorer-reload-panel-after');
    await assertKept(await grid(page, 'items.csv'), 2, editorId, 'the custom editor');
    await saveScreenshot(page, 'explorer-reload-editor-after');
  });
});
