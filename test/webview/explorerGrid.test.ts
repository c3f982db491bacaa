/**
 * The Data Explorer's grid in Chromium (issue 27): virtualization over 10 M rows (DOM rows stay
 * bounded, the scrollbar reaches the last row, the JS heap stays under 100 MB), stale page
 * replies dropped, sort and multi-sort with aria-sort, keyboard navigation, copy as TSV, pinned
 * columns and rows, resize and persisted state.
 */
import { strict as assert } from 'node:assert';
import { checkedAfterEach, COLUMNS, ExplorerPage, initOf, useExplorerBrowser } from './explorerHarness';

describe('explorer (browser): grid', function () {
  this.timeout(300_000);
  const env = useExplorerBrowser();
  let x: ExplorerPage | undefined;
  checkedAfterEach(() => x, () => (x = undefined));

  async function open(host: Parameters<typeof ExplorerPage.open>[2] = {}): Promise<ExplorerPage> {
    x = await ExplorerPage.open(env.browser, env.server, host);
    return x;
  }

  const rowCount = (p: ExplorerPage): Promise<number> => p.page.$$eval('.x-body .x-row', (r) => r.length);
  const firstCells = (p: ExplorerPage): Promise<string[]> =>
    p.page.$$eval('.x-body .x-row:not(.x-placeholder)', (rows) => rows.map((r) => r.querySelector('.x-cell')?.textContent ?? ''));

  it('draws the frame, fetches the first pages and fills the rows', async () => {
    const p = await open();
    await p.send(initOf());
    await p.settle();
    const grid = await p.page.$eval('[role=grid]', (g) => ({ rows: g.getAttribute('aria-rowcount'), cols: g.getAttribute('aria-colcount') }));
    assert.deepEqual(grid, { rows: '10000001', cols: String(COLUMNS.length) });
    const fetches = await p.postedOf('fetchRows');
    assert.ok(fetches.length >= 1 && fetches[0]?.offset === 0 && fetches[0].limit === 200, JSON.stringify(fetches));
    const ids = await firstCells(p);
    assert.equal(ids[0], '1');
    assert.ok(ids.length >= 15 && ids.length <= 40, `rows in view: ${ids.length}`);
    const headers = await p.page.$$eval('[role=columnheader]', (hs) => hs.map((hd) => ({ name: hd.querySelector('.x-hname')?.textContent, icon: hd.querySelector('svg.kind title')?.textContent })));
    assert.deepEqual(headers[0], { name: 'id', icon: 'number (BIGINT)' });
    assert.deepEqual(headers[3], { name: 'day', icon: 'date (DATE)' });
  });

  it('scrolls 10 M rows end to end with bounded DOM rows and a JS heap under 100 MB', async () => {
    const p = await open({ height: 700 });
    await p.send(initOf());
    await p.settle();
    const cdp = await p.page.context().newCDPSession(p.page);
    const steps = 400;
    let maxRows = 0;
    let maxCells = 0;
    for (let k = 0; k <= steps; k++) {
      await p.page.$eval('.x-scroller', (el, f) => {
        el.scrollTop = f * (el.scrollHeight - el.clientHeight);
      }, k / steps);
      await p.settle();
      maxRows = Math.max(maxRows, await rowCount(p));
      maxCells = Math.max(maxCells, await p.page.$$eval('.x-cell', (c) => c.length));
    }
    const scroller = await p.page.$eval('.x-scroller', (el) => el.scrollHeight);
    assert.ok(scroller < 9_000_000, `scroll height capped: ${scroller}`);
    const last = await firstCells(p);
    assert.equal(last[last.length - 1], '10000000', 'the last row is reached');
    assert.equal(await p.page.$eval('.x-body .x-row:last-child', (r) => r.getAttribute('aria-rowindex')), '10000001');
    assert.ok(maxRows <= 40, `DOM rows stayed bounded: ${maxRows}`);
    assert.ok(maxCells <= 40 * COLUMNS.length + 2 * COLUMNS.length, `DOM cells stayed bounded: ${maxCells}`);
    const fetched = await p.postedOf('fetchRows');
    assert.ok(fetched.some((f) => f.offset === 9_999_800), 'the last page was fetched');
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; totalSize: number };
    const mb = heap.usedSize / (1024 * 1024);
    console.log(`      explorer JS heap after scrolling 10,000,000 rows end to end (${steps + 1} positions, ${fetched.length} page requests): used ${mb.toFixed(1)} MB, total ${(heap.totalSize / 1048576).toFixed(1)} MB; max DOM rows ${maxRows}`);
    assert.ok(mb < 100, `heap ${mb.toFixed(1)} MB`);
    await cdp.detach();
  });

  it('drops a page reply for an older query and one it never asked for', async () => {
    const p = await open({ host: { rows: false } });
    await p.send(initOf());
    const [first] = await p.postedOf('fetchRows');
    assert.ok(first);
    await p.clearPosted();
    await p.page.click('[role=columnheader][aria-colindex="3"]');
    await p.flush();
    const [second] = await p.postedOf('fetchRows');
    assert.ok(second && second.requestId !== first.requestId);
    assert.deepEqual(second.query.sort, [{ column: 'amount', desc: false }]);
    const row = (tag: string, i: number): unknown[] => COLUMNS.map((_, j) => (j === 0 ? i + 1 : `${tag}${i}`));
    const rows = (tag: string): unknown[][] => Array.from({ length: 200 }, (_, i) => row(tag, i));
    await p.send(
      { type: 'page', requestId: first.requestId, page: { offset: 0, rows: rows('stale') } },
      { type: 'page', requestId: 999_999, page: { offset: 0, rows: rows('foreign') } },
    );
    assert.equal((await firstCells(p)).length, 0, 'stale and foreign pages are not shown');
    assert.ok((await p.page.$$eval('.x-placeholder', (r) => r.length)) > 10, 'placeholders while the page loads');
    await p.send({ type: 'page', requestId: second.requestId, page: { offset: 0, rows: rows('fresh') } });
    const cities = await p.page.$$eval('.x-body .x-row:not(.x-placeholder) .x-cell[aria-colindex="2"]', (c) => c.map((e) => e.textContent));
    assert.equal(cities[0], 'fresh0');
    // A second reply to the same request is dropped too.
    await p.send({ type: 'page', requestId: second.requestId, page: { offset: 0, rows: rows('again') } });
    assert.equal((await p.page.$$eval('.x-body .x-row .x-cell[aria-colindex="2"]', (c) => c.map((e) => e.textContent)))[0], 'fresh0');
  });

  it('sorts on click, adds columns with Shift+click, and says so with aria-sort and order numbers', async () => {
    const p = await open();
    await p.send(initOf());
    await p.settle();
    const header = (name: string): string => `[role=columnheader]:has(.x-hname:text-is("${name}"))`;
    await p.clearPosted();
    await p.page.click(header('amount'));
    await p.settle();
    assert.equal(await p.page.getAttribute(header('amount'), 'aria-sort'), 'ascending');
    await p.page.click(header('amount'));
    await p.settle();
    assert.equal(await p.page.getAttribute(header('amount'), 'aria-sort'), 'descending');
    await p.page.click(header('city'), { modifiers: ['Shift'] });
    await p.settle();
    const last = (await p.postedOf('fetchRows')).at(-1);
    assert.deepEqual(last?.query.sort, [{ column: 'amount', desc: true }, { column: 'city', desc: false }]);
    assert.equal(await p.page.getAttribute(header('city'), 'aria-sort'), 'ascending');
    assert.equal(await p.page.textContent(`${header('amount')} .x-sort-order`), '1');
    assert.equal(await p.page.textContent(`${header('city')} .x-sort-order`), '2');
    assert.equal(await p.page.getAttribute(header('id'), 'aria-sort'), null);
    const persisted = (await p.postedOf('persist')).at(-1);
    assert.deepEqual(persisted?.query.sort, last?.query.sort);
    // A plain click makes one column the only sort again.
    await p.page.click(header('city'));
    await p.settle();
    assert.deepEqual((await p.postedOf('fetchRows')).at(-1)?.query.sort, [{ column: 'city', desc: false }]);
  });
});
