/**
 * The Data Explorer's summary panel, toolbar and page safety in Chromium (issue 27): summaries
 * render (missing bars, sparklines, top values, statistics) and are searchable; the sheet
 * switcher and the actions post the right messages with the view's query; invalid host messages
 * are dropped; names and values from a file are text, never markup; nothing remote is loaded;
 * screenshots in light, dark and high contrast go to test-artifacts/explorer-*.png.
 */
import { strict as assert } from 'node:assert';
import type { ColumnSummary } from '../../src/shared/explore';
import { THEMES, type ThemeName } from './fixtures/themes';
import { checkedAfterEach, COLUMNS, ExplorerPage, initOf, useExplorerBrowser } from './explorerHarness';

const bins = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => Math.round(f(i)));

export const SUMMARY: ColumnSummary[] = [
  { column: 'id', kind: 'number', count: 10_000_000, missing: 0, distinct: 10_000_000, zero: 0, min: 1, max: 10_000_000, mean: 5_000_000.5, median: 5_000_000, stdev: 2_886_751.3, histogram: bins(20, () => 500_000) },
  { column: 'city', kind: 'text', count: 10_000_000, missing: 0, distinct: 7, empty: 0, top: [
    { value: 'Lisbon', count: 1_428_572 }, { value: 'Oslo', count: 1_428_572 }, { value: 'Kyoto', count: 1_428_571 },
    { value: 'Lima', count: 1_428_571 }, { value: 'Accra', count: 1_428_571 }] },
  { column: 'amount', kind: 'number', count: 10_000_000, missing: 120_000, distinct: 100_000, zero: 100, min: 0, max: 999.99, mean: 499.99, median: 500, stdev: 288.7, histogram: bins(20, (i) => 1000 * Math.exp(-((i - 9) ** 2) / 18)) },
  { column: 'day', kind: 'date', count: 10_000_000, missing: 0, distinct: 365, min: '2024-01-01', max: '2024-12-30', median: '2024-07-01', histogram: bins(20, (i) => 400 + 30 * i) },
  { column: 'paid', kind: 'boolean', count: 10_000_000, missing: 0, distinct: 2, top: [{ value: 'false', count: 6_666_666 }, { value: 'true', count: 3_333_334 }] },
  { column: 'note', kind: 'text', count: 10_000_000, missing: 1_000_000, distinct: 9_000_000, empty: 0, top: [{ value: 'note 1', count: 1 }] },
  { column: 'region', kind: 'text', count: 10_000_000, missing: 0, distinct: 2, empty: 0, top: [{ value: 'north', count: 5_000_000 }, { value: 'south', count: 5_000_000 }] },
  { column: 'seen_at', kind: 'datetime', count: 10_000_000, missing: 3, min: '2024-01-01 00:00:00', max: '2024-03-10 10:39:00', histogram: bins(20, () => 7) },
];

describe('explorer (browser): summary, toolbar, safety and looks', function () {
  this.timeout(120_000);
  const env = useExplorerBrowser();
  let x: ExplorerPage | undefined;
  checkedAfterEach(() => x, () => (x = undefined));

  async function open(theme: ThemeName = 'dark'): Promise<ExplorerPage> {
    x = await ExplorerPage.open(env.browser, env.server, { theme, width: 1200, height: 640, host: { summary: SUMMARY } });
    await x.send(initOf());
    await x.settle();
    return x;
  }

  it('shows per column a missing bar and a sparkline or top values, expands to statistics, and searches', async () => {
    const p = await open();
    await p.clearPosted();
    await p.page.click('.x-summary-toggle');
    await p.settle();
    assert.deepEqual((await p.postedOf('fetchSummary')).map((m) => m.query), [{ sort: [], filters: [] }]);
    assert.equal(await p.page.getAttribute('.x-summary-toggle', 'aria-pressed'), 'true');
    const items = await p.page.$$eval('.x-sum-item', (els) => els.map((e) => ({
      column: e.getAttribute('data-column'),
      missing: e.querySelector('.x-missing')?.getAttribute('aria-label'),
      bars: e.querySelectorAll('.x-spark rect').length,
      top: [...e.querySelectorAll('.x-top-value')].map((t) => t.textContent),
    })));
    assert.equal(items.length, COLUMNS.length);
    assert.deepEqual(items[0], { column: 'id', missing: '0% missing', bars: 20, top: [] });
    assert.deepEqual(items[1], { column: 'city', missing: '0% missing', bars: 0, top: ['Lisbon', 'Oslo', 'Kyoto'] });
    assert.deepEqual(items[5], { column: 'note', missing: '10% missing', bars: 0, top: ['note 1'] });
    assert.equal(items[7]?.missing, '<0.1% missing');
    const fill = await p.page.$eval('.x-sum-item[data-column=amount] .x-missing-fill', (e) => (e as HTMLElement).style.width);
    assert.equal(fill, '1.2%');
    await p.page.click('.x-sum-item[data-column=amount] .x-sum-toggle');
    const stats = await p.page.$$eval('.x-sum-item[data-column=amount] dt', (d) => d.map((e) => e.textContent));
    assert.deepEqual(stats, ['Min', 'Max', 'Mean', 'Median', 'Std dev', 'Distinct', 'Missing', 'Zero', 'Rows']);
    assert.equal(await p.page.getAttribute('.x-sum-item[data-column=amount] .x-sum-toggle', 'aria-expanded'), 'true');
    await p.page.click('.x-sum-item[data-column=city] .x-sum-toggle');
    assert.equal(await p.page.$$eval('.x-sum-item[data-column=city] .x-top', (t) => t.length), 5, 'expanded: every top value');
    await p.page.fill('.x-sum-search', 'AM');
    assert.deepEqual(await p.page.$$eval('.x-sum-item', (e) => e.map((i) => i.getAttribute('data-column'))), ['amount']);
    await p.page.fill('.x-sum-search', 'zzz');
    assert.equal(await p.page.textContent('.x-sum-none'), 'No column matches.');
    await p.page.fill('.x-sum-search', '');
    // A new query refreshes the open summary with it.
    await p.clearPosted();
    await p.page.click('#x-h-1');
    await p.settle();
    assert.deepEqual((await p.postedOf('fetchSummary')).at(-1)?.query.sort, [{ column: 'city', desc: false }]);
  });

  it('posts each action with the current query, and switches sheets', async () => {
    x = await ExplorerPage.open(env.browser, env.server, { width: 1200 });
    const p = x;
    await p.send(initOf({}, { fileName: 'budget.xlsx', sheets: ['Q1', 'Q2'], sheet: 'Q1' }));
    await p.settle();
    await p.page.click('#x-h-2');
    await p.settle();
    await p.clearPosted();
    for (const sel of ['.x-copy-sql', '.x-export-csv', '.x-export-parquet', '.x-ask']) await p.page.click(sel);
    const query = { sort: [{ column: 'amount', desc: false }], filters: [] };
    assert.deepEqual(await p.postedOf('action'), ['copySql', 'exportCsv', 'exportParquet', 'ask'].map((action) => ({ type: 'action', action, query })));
    assert.equal(await p.page.inputValue('.x-sheet'), 'Q1');
    await p.page.selectOption('.x-sheet', 'Q2');
    assert.deepEqual(await p.postedOf('switchSheet'), [{ type: 'switchSheet', sheet: 'Q2' }]);
    // The host answers with the other sheet's frame: the grid starts over, keeping what applies.
    await p.clearPosted();
    await p.send({ type: 'reloaded', opened: { viewId: 'v2', fileName: 'budget.xlsx', sheets: ['Q1', 'Q2'], sheet: 'Q2', columns: COLUMNS.slice(0, 2), rowCount: 40, state: 'ready' } });
    await p.settle();
    assert.equal(await p.page.inputValue('.x-sheet'), 'Q2');
    const rows = await p.postedOf('fetchRows');
    assert.deepEqual(rows.map((r) => [r.offset, r.query.sort]), [[0, []]], 'the sort on a column the sheet lacks is dropped');
    assert.equal(await p.page.getAttribute('[role=grid]', 'aria-colcount'), '2');
    assert.equal(await p.page.getAttribute('[role=grid]', 'aria-rowcount'), '41');
  });

  it('drops invalid host messages, shows a view error, and treats names and values as text', async () => {
    x = await ExplorerPage.open(env.browser, env.server);
    const p = x;
    const evil = '<img src="https://evil.example/x.png" onerror="window.__pwned=1">';
    await p.send(
      { type: 'init', protocol: 1, opened: { viewId: 'v' }, query: { sort: [], filters: [] }, theme: 'dark', pinned: [] },
      { type: 'page', requestId: 1, page: { offset: -1, rows: [] } },
      { type: 'nope' },
      'init',
    );
    assert.equal(await p.page.getAttribute('body', 'data-dropped'), '4');
    // Reported to the host once, not per message.
    assert.deepEqual(await p.postedOf('webviewError'), [{ type: 'webviewError', message: 'dropped an invalid message from the host' }]);
    p.expectWebviewErrors = true;
    assert.equal(await p.page.getAttribute('#app', 'data-state'), 'loading');
    await p.setHost({ kinds: ['text'] });
    await p.page.evaluate((e) => {
      const h = window.__host;
      if (h) window.__host = { ...h, total: 3 };
      void e;
    }, evil);
    await p.send(initOf({}, { fileName: evil, rowCount: 3, columns: [{ name: evil, type: 'VARCHAR', kind: 'text' }] }));
    await p.send({ type: 'page', requestId: 1, page: { offset: 0, rows: [[evil], [evil], [evil]] } });
    await p.settle();
    assert.equal(await p.page.textContent('.x-file'), evil);
    assert.equal(await p.page.textContent('#x-h-0 .x-hname'), evil);
    assert.equal(await p.page.$$eval('img', (i) => i.length), 0);
    assert.equal(await p.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    await p.send({ type: 'error', message: 'The file was deleted.' });
    assert.equal(await p.page.textContent('.x-notice'), 'The file was deleted.');
    assert.equal(await p.page.isVisible('.x-notice'), true);
  });

  for (const theme of ['light', 'dark', 'highContrast'] as ThemeName[]) {
    it(`looks like VS Code in ${theme} (screenshot)`, async () => {
      const p = await open(theme);
      await p.page.click('#x-h-2');
      await p.page.click('#x-h-1', { modifiers: ['Shift'] });
      await p.settle();
      await p.page.click('.x-add-filter');
      await p.page.selectOption('.x-filter-form select[aria-label=Column]', 'city');
      await p.page.selectOption('.x-filter-form select[aria-label=Condition]', 'in');
      await p.page.fill('.x-filter-form input[name=text]', 'Oslo, Lima');
      await p.page.click('.x-filter-form .x-apply');
      await p.settle();
      await p.page.hover('#x-h-0');
      await p.page.click('#x-h-0 .x-pin');
      await p.page.click('.x-summary-toggle');
      await p.settle();
      await p.page.click('.x-sum-item[data-column=amount] .x-sum-toggle');
      await p.page.click('#x-c-2-1');
      await p.page.click('#x-c-4-3', { modifiers: ['Shift'] });
      await p.settle();
      const bg = await p.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const hex = THEMES[theme].vars['--vscode-editor-background'] ?? '#000000';
      const n = Number.parseInt(hex.slice(1), 16);
      assert.equal(bg, `rgb(${n >> 16}, ${(n >> 8) & 255}, ${n & 255})`);
      const path = await p.screenshot(`explorer-${theme}.png`);
      assert.ok(path.endsWith(`explorer-${theme}.png`));
    });
  }
});
