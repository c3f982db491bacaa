/**
 * The answer panel's actions as a user meets them, in a real VS Code (code-server) driven by
 * Playwright in Chromium (issue #4): analyze a sample CSV with a question the local engine
 * answers with SQL, a table and a chart; the panel shows the table grid and the chart (inline SVG);
 * the code block's "Open in Editor" opens an untitled SQL document with that code; a follow-up
 * chip asks its question as a second turn. Screenshots go to test-artifacts/panel-actions-*.png
 * (or $TEAM_DATA_ARTIFACTS_DIR).
 *
 * Like test/ui/extension.test.ts this runs the packaged .vsix (TEAM_DATA_VSIX=/abs/file.vsix
 * reuses one) or, with TEAM_DATA_UI_EXTENSION=dev, the development folder.
 */
import { strict as assert } from 'node:assert';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Locator } from 'playwright-core';
import { analyzeFromExplorer, repo, useExtensionWorkbench } from './harness/extensionUnderTest';
import { activeWebviewFrame, saveScreenshot, waitForQuickInput } from './harness/workbench';

const QUESTION = 'total revenue by region';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `read` until `ok` holds; playwright-core has no web-first assertions, and a value read
 * once can be from before the webview or the editor caught up.
 * @throws Error with the last value read.
 */
async function waitUntil<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  while (Date.now() <= deadline) {
    try {
      last = await read();
      if (ok(last)) return last;
    } catch (err) {
      lastError = err;
    }
    await sleep(250);
  }
  throw new Error(`${what} within ${timeoutMs} ms; last read: ${JSON.stringify(last)}${lastError ? ` (${String(lastError)})` : ''}`);
}

/** The turn of `question` in the panel (its aria-label starts with the question). */
function turnOf(frame: FrameLocator, question: string): Locator {
  return frame.locator(`.turn[aria-label="Question: ${question.slice(0, 120).replace(/["\\]/g, '\\$&')}"]`);
}

/** Waits until the turn finished and fails with the turn's status line when it errored instead. */
async function waitForDone(turn: Locator): Promise<void> {
  await turn.waitFor({ state: 'visible', timeout: 120_000 });
  const state = await waitUntil('the turn did not finish', () => turn.getAttribute('data-state'), (s) => s !== null && s !== 'streaming', 120_000);
  if (state !== 'done') assert.fail(`the turn ended ${state}: ${(await turn.locator('.turn-status').textContent()) ?? ''}`);
}

/**
 * Opens the turn's Analysis section and every step in it that holds blocks, the way a user
 * does: the SQL, the table and the chart are step output, collapsed once the answer is done.
 */
async function expandSteps(turn: Locator): Promise<void> {
  const steps = turn.locator('details.steps-details');
  if ((await steps.getAttribute('open')) === null) await turn.locator('summary.steps-summary').click();
  await waitUntil('the Analysis section did not open', () => steps.getAttribute('open'), (o) => o !== null);
  const closed = turn.locator('details.step-details.has-blocks:not([open]) > summary.step-summary');
  for (let n = await closed.count(); n > 0; n = await closed.count()) await closed.first().click();
}

describe('answer panel actions on code-server (Playwright)', function () {
  this.timeout(8 * 60_000);
  const ui = useExtensionWorkbench('panel-actions');

  it('table and chart in the panel, Open in Editor gives an untitled SQL document, a follow-up chip asks again', async () => {
    const wb = await ui.open('sales-demo', (ws) => copyFileSync(join(repo, 'samples', 'sales.csv'), join(ws, 'sales.csv')));
    const { page } = wb;

    await analyzeFromExplorer(page, 'sales.csv', 'sales-demo');
    await page.keyboard.press('Enter');

    await waitForQuickInput(page, /Ask about sales\.csv/);
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.fill(QUESTION);
    assert.equal(await input.inputValue(), QUESTION);
    await page.keyboard.press('Enter');

    // The answer: a finished turn with the table grid (one row per region) and the chart.
    const frame = activeWebviewFrame(page);
    const turn = turnOf(frame, QUESTION);
    await waitForDone(turn);
    await expandSteps(turn);
    const grid = turn.locator('.table-block [role="grid"]').first();
    await grid.waitFor({ state: 'visible', timeout: 30_000 });
    await grid.getByText('Europe', { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await grid.getByText('North America', { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    // The local service draws charts as SVG, which the panel shows inline in the theme's colours.
    const chart = turn.locator('.image-block svg.chart-svg').first();
    await chart.waitFor({ state: 'visible', timeout: 60_000 });
    const width = await waitUntil('the chart was not drawn', () => chart.evaluate((el) => el.getBoundingClientRect().width), (w) => w > 0);
    assert.ok(width > 0);
    assert.ok((await chart.locator('.mark-rect path, .mark-line path, .mark-symbol path').count()) > 0, 'the chart has marks');
    await saveScreenshot(page, 'panel-actions-1-answer');

    // The panel's own tab, to come back to after the untitled editor takes focus.
    const panelTab = page.locator('.editor-group-container.active .tab.active');
    const panelTitle = (await panelTab.getAttribute('aria-label')) ?? '';
    assert.ok(panelTitle, 'the answer panel has no active tab');

    // Open in Editor on the SQL block: an untitled SQL editor becomes active with the code.
    const codeBlock = turn.locator('.code-block[aria-label="sql code"]').first();
    await codeBlock.waitFor({ state: 'visible', timeout: 30_000 });
    const shownCode = (await codeBlock.locator('pre.code').textContent()) ?? '';
    assert.match(shownCode, /SELECT/);
    await codeBlock.getByRole('button', { name: 'Open in Editor' }).click();

    const activeTab = page.locator('.editor-group-container.active .tab.active');
    // Named after the question (issue 24, point 11), as Open as CSV names a table.
    await waitUntil('no editor named after the question became active', () => activeTab.getAttribute('aria-label'), (l) => l !== null && /\.sql$/.test(l) && !/^--/.test(l));
    const languageItem = page.locator('[id="status.editor.mode"]');
    // VS Code's built-in name of the `sql` language is "MS SQL".
    await waitUntil('the status bar did not show the SQL language', async () => ((await languageItem.textContent()) ?? '').trim(), (t) => /^(MS )?SQL$/.test(t));
    const editorText = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
    const text = await waitUntil('the untitled editor does not show the code', async () => (await editorText.innerText()).replace(/\u00a0/g, ' '), (t) => t.includes('SELECT'));
    // The editor shows the first line of the code block as it is in the panel.
    const firstLine = shownCode.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
    assert.ok(text.includes(firstLine), `editor text ${JSON.stringify(text.slice(0, 200))} lacks ${JSON.stringify(firstLine)}`);
    await saveScreenshot(page, 'panel-actions-2-open-in-editor');

    // Back to the panel; the first follow-up chip asks its question as a second turn.
    await page.locator(`.tab[aria-label="${panelTitle.replace(/["\\]/g, '\\$&')}"]`).first().click();
    const chip = turn.locator('.questions button.chip').first();
    await chip.waitFor({ state: 'visible', timeout: 30_000 });
    const followUp = ((await chip.locator('.chip-label').textContent()) ?? '').trim();
    assert.ok(followUp, 'the first follow-up chip has no question');
    await waitUntil('the follow-up chip stayed disabled', () => chip.isEnabled(), (e) => e);
    await chip.click();

    const second = turnOf(frame, followUp);
    await waitForDone(second);
    assert.equal(await frame.locator('.turn').count(), 2);
    assert.equal(((await second.locator('.question').textContent()) ?? '').replace(/^Question:\s*/, '').trim(), followUp);
    assert.ok((await second.locator('.response').innerText()).trim().length > 0, 'the follow-up turn has no answer');
    await saveScreenshot(page, 'panel-actions-3-follow-up');
  });
});
