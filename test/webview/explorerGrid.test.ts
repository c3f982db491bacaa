/**
 * The Data Explorer's grid in Chromium (issue 27): virtualization over 10 M rows (DOM rows stay
 * bounded, the scrollbar reaches the last row, the JS heap stays under 100 MB), stale page
 * replies dropped, sort and multi-sort with aria-sort, keyboard navigation, copy as TSV, pinned
 * columns and rows, resize and persisted state.
 */
import { strict as assert } from 'node:assert';
import { COLUMNS, ExplorerPage, initOf, useExplorerBrowser } from './explorerHarness';

describe('explorer (browser): grid', function () {
  this.timeout(300_000);
  const env = useExplorerBrowser();
  let x: ExplorerPage | undefined;
  afterEach(async () => {
    if (!x) return;
    assert.deepEqual(x.pageErrors, []);
    assert.deepEqual(x.remoteRequests, []);
    assert.deepEqual(await x.cspViolations(), []);
    await x.close();
    x = undefined;
  });

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
});
