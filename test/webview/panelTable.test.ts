/**
 * The TABLE grid on 100k rows in Chromium: the DOM stays bounded while scrolling, scrolled rows
 * show the right data, sorting is numeric-aware and stable in both directions, and "Copy with
 * Headers" copies the exact values in the grid's order ("Copy as Shown with Headers" what it shows).
 */
import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { parseCsv } from '../../src/shared/csv';
import { fileKeyOf } from '../../src/shared/protocol';
import { columnFormat, ROUNDED_MARK, showCell } from '../../src/shared/cellFormat';
import { answerOf, generatedCsv, initMessage, respond, turnOf } from './builders';
import { PanelPage, requireChromium, launchChromium, startPanelServer, type PanelServer } from './harness';

const ROWS = 100_000;
const ROW_HEIGHT = 24;
const url = 'https://files.example/t/big.csv?sig=9';
const fileKey = fileKeyOf({ type: 'TABLE', content: { url } });

describe('answer panel (browser): 100k-row table', function () {
  this.timeout(120_000);
  let server: PanelServer;
  let browser: Browser;
  let panel: PanelPage;
  const csv = generatedCsv(ROWS);
  const [header, ...rows] = parseCsv(csv) as [string[], ...string[][]];
  // What the grid shows: numbers styled per column from the leading rows (cellFormat.ts).
  const styles = header.map((name, c) => columnFormat(name, rows, c, 200));
  const shownText = (r: readonly string[]): string[] => r.map((cell, c) => showCell(cell, styles[c]).text);
  const shownRow = (r: readonly string[]): string[] => r.map((cell, c) => {
    const s = showCell(cell, styles[c]);
    return s.rounded ? `${ROUNDED_MARK}${s.text}` : s.text;
  });

  before(async function () {
    requireChromium();
    server = await startPanelServer();
    browser = await launchChromium();
    panel = await PanelPage.open(browser, server, { height: 900 });
    const answer = answerOf([{ type: 'TABLE', content: { url, name: 'big.csv' }, ...respond }]);
    await panel.send(initMessage([turnOf('t1', 'Show all orders', answer)]), { type: 'tableData', turnId: 't1', fileKey, data: { status: 'ready', csv } });
  });
  after(async () => {
    if (panel) {
      assert.deepEqual(panel.pageErrors, []);
      assert.deepEqual(panel.remoteRequests, []);
      assert.deepEqual(await panel.cspViolations(), []);
      await panel.close();
    }
    await browser?.close();
    await server?.close();
  });

  /** Scrolls the grid so that `index` is the first row in view; returns the rendered rows. */
  async function scrollTo(index: number): Promise<{ domRows: number; shown: Array<{ at: number; cells: string[] }> }> {
    await panel.page.$eval('.grid', (g, top) => {
      (g as HTMLElement).scrollTop = top;
    }, index * ROW_HEIGHT);
    await panel.flush();
    return panel.page.$eval('.grid', (g) => {
      const grid = g as HTMLElement;
      const bodyTop = (grid.querySelector('.grid-body') as HTMLElement).getBoundingClientRect().top;
      const gridTop = grid.getBoundingClientRect().top;
      const headH = (grid.querySelector('.grid-head') as HTMLElement).offsetHeight;
      const rowEls = [...grid.querySelectorAll('.grid-body .grid-row')] as HTMLElement[];
      // Rows that are actually visible between the sticky header and the bottom edge.
      const shown = rowEls
        .filter((r) => !r.hidden)
        .map((r) => ({ r, top: r.getBoundingClientRect().top }))
        .filter(({ top }) => top >= gridTop + headH - 1 && top < gridTop + grid.clientHeight)
        .sort((a, b) => a.top - b.top)
        .map(({ r, top }) => ({ at: Math.round((top - bodyTop) / 24), cells: [...r.children].map((c) => c.textContent ?? '') }));
      return { domRows: rowEls.length, shown };
    });
  }

  function expectRows(shown: Array<{ at: number; cells: string[] }>, order: (i: number) => number): void {
    assert.ok(shown.length >= 5, `rows are visible (${shown.length})`);
    for (const s of shown) assert.deepEqual(s.cells, shownRow(rows[order(s.at)] ?? []), `row at ${s.at}`);
  }

  it('shows the row count and builds only the rows in view', async () => {
    assert.equal(await panel.page.textContent('.table-block .block-meta'), '100,000 rows · 4 columns');
    assert.equal(await panel.page.getAttribute('.grid', 'aria-rowcount'), String(ROWS + 1));
    const top = await scrollTo(0);
    assert.ok(top.domRows <= 40, `DOM rows stay bounded (${top.domRows})`);
    expectRows(top.shown, (i) => i);
  });

  it('virtual scrolling shows the right rows anywhere, with the DOM bounded', async () => {
    let maxDom = 0;
    for (const index of [50_000, 99_990, 12_345, 77_777, 1, 99_000]) {
      const r = await scrollTo(index);
      maxDom = Math.max(maxDom, r.domRows);
      expectRows(r.shown, (i) => i);
      assert.equal(r.shown[0]?.at, Math.min(index, ROWS - r.shown.length), `first visible row after scrolling to ${index}`);
    }
    assert.ok(maxDom <= 40, `DOM rows stay bounded (${maxDom})`);
    const afterKeys = await panel.page.$eval('.grid', async (g) => {
      (g as HTMLElement).scrollTop = 0;
      (g as HTMLElement).focus();
      return null;
    });
    assert.equal(afterKeys, null);
    await panel.page.keyboard.press('PageDown');
    // Keyboard scrolling is animated (smooth scrolling), so wait for it rather than one frame.
    await panel.page.waitForFunction(() => (document.querySelector('.grid') as HTMLElement).scrollTop > 100, undefined, { timeout: 10_000 });
  });

  it('sorts numerically and stably, both directions, then back to file order', async () => {
    const amount = header.indexOf('amount');
    const byAmount = rows.map((_, i) => i).sort((a, b) => Number(rows[a]![amount]) - Number(rows[b]![amount]) || a - b);
    const byAmountDesc = rows.map((_, i) => i).sort((a, b) => Number(rows[b]![amount]) - Number(rows[a]![amount]) || a - b);
    const th = `.grid-header [role=columnheader] >> nth=${amount}`;

    await panel.page.click(th);
    assert.equal(await panel.page.getAttribute(th, 'aria-sort'), 'ascending');
    expectRows((await scrollTo(0)).shown, (i) => byAmount[i]!);
    expectRows((await scrollTo(ROWS - 30)).shown, (i) => byAmount[i]!);
    expectRows((await scrollTo(40_000)).shown, (i) => byAmount[i]!);

    await panel.page.click(th);
    assert.equal(await panel.page.getAttribute(th, 'aria-sort'), 'descending');
    expectRows((await scrollTo(0)).shown, (i) => byAmountDesc[i]!);
    expectRows((await scrollTo(60_000)).shown, (i) => byAmountDesc[i]!);

    await panel.clearPosted();
    await panel.page.click('.table-block button[aria-label="Copy with Headers"]');
    const [copy] = await panel.postedOf('copyTable');
    assert.ok(copy);
    const lines = copy.tsv.split('\n');
    assert.equal(lines.length, ROWS + 2, 'header, every row, trailing newline');
    assert.equal(lines[0], header.join('\t'));
    assert.equal(lines[1], rows[byAmountDesc[0]!]!.join('\t'), 'exact values, in the grid’s order');
    assert.equal(lines[ROWS], rows[byAmountDesc[ROWS - 1]!]!.join('\t'));
    await panel.clearPosted();
    await panel.page.click('.table-block button[aria-label="Copy as Shown with Headers"]');
    const [asShown] = await panel.postedOf('copyTable');
    assert.equal(asShown?.tsv.split('\n')[1], shownText(rows[byAmountDesc[0]!]!).join('\t'), 'numbers as shown on request');

    await panel.page.click(th);
    assert.equal(await panel.page.getAttribute(th, 'aria-sort'), 'none');
    expectRows((await scrollTo(0)).shown, (i) => i);
  });

  it('sorts text columns with numbers inside by value ("name 9" before "name 10")', async () => {
    const name = header.indexOf('name');
    const num = (s: string): number => Number(s.replace('name ', ''));
    const byName = rows.map((_, i) => i).sort((a, b) => num(rows[a]![name]!) - num(rows[b]![name]!) || a - b);
    await panel.page.click(`.grid-header [role=columnheader] >> nth=${name}`);
    expectRows((await scrollTo(0)).shown, (i) => byName[i]!);
    expectRows((await scrollTo(55_555)).shown, (i) => byName[i]!);
    // The sort is remembered in the UI state (saved debounced), keyed by turn and file.
    const key = `t1|${fileKey}`;
    await panel.page.waitForFunction(
      ([k, column]) => {
        const states = window.__posted.filter((m) => (m as { type: string }).type === 'uiState') as Array<{ state: { tableSort: Record<string, { column: number }> } }>;
        return states[states.length - 1]?.state.tableSort[k as string]?.column === column;
      },
      [key, name] as const,
    );
    const saved = (await panel.postedOf('uiState')).pop()?.state.tableSort[key];
    assert.deepEqual(saved, { column: name, descending: false });
  });
});
