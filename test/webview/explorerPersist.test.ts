/**
 * What the explorer webview keeps (issue 27): rows pinned at the top are persisted by index with
 * the query they are indices under, dropped when the query changes, and shown again from the
 * host's `pinnedRows` (values fetched again) only under that same query; a restored sort or filter
 * on a file still being read waits for the whole file; a panel's origin goes into the webview's
 * own state (`setState`) for the panel serializer after a window reload.
 */
import { strict as assert } from 'node:assert';
import type { ExploreQuery } from '../../src/shared/explore';
import { checkedAfterEach, ExplorerPage, initOf, useExplorerBrowser } from './explorerHarness';

describe('explorer (browser): pinned rows and panel state kept', function () {
  this.timeout(120_000);
  const env = useExplorerBrowser();
  let x: ExplorerPage | undefined;
  checkedAfterEach(() => x, () => (x = undefined));

  const cell = (row: number, col: number): string => `#x-c-${row}-${col}`;
  const band = (p: ExplorerPage): Promise<Array<Array<string | null | undefined>>> =>
    p.page.$$eval('.x-pinned-rows .x-row', (r) => r.map((e) => [e.getAttribute('aria-rowindex'), e.querySelector('.x-cell')?.textContent]));

  async function open(query: ExploreQuery = { sort: [], filters: [] }): Promise<ExplorerPage> {
    x = await ExplorerPage.open(env.browser, env.server, { width: 900, height: 600 });
    await x.send(initOf({ query }));
    await x.settle();
    return x;
  }

  it('persists pinned rows by index with the query, and drops them when the query changes', async () => {
    const p = await open();
    await p.page.click(cell(2, 0));
    await p.page.click(cell(4, 0), { modifiers: ['Shift'] });
    await p.page.click('.x-pin-rows');
    await p.settle();
    const pinned = (await p.postedOf('persist')).at(-1);
    assert.deepEqual([pinned?.pinnedRows, pinned?.query], [[2, 3, 4], { sort: [], filters: [] }]);
    assert.deepEqual(await band(p), [['4', '3'], ['5', '4'], ['6', '5']], 'aria-rowindex counts the header row');
    // Unpinning persists too.
    await p.page.click('.x-pin-rows');
    await p.settle();
    assert.deepEqual((await p.postedOf('persist')).at(-1)?.pinnedRows, []);
    await p.page.click('.x-pin-rows');
    await p.settle();
    // A sort: the indices meant rows of the old order, so the pins go (and the host hears it).
    await p.page.click('#x-h-2 .x-hname');
    await p.settle();
    const sorted = (await p.postedOf('persist')).at(-1);
    assert.deepEqual(sorted?.query.sort, [{ column: 'amount', desc: false }]);
    assert.deepEqual(sorted?.pinnedRows, []);
    assert.deepEqual(await band(p), []);
  });

  it('shows the host\'s restored pinned rows only under their own query, after rows pinned meanwhile', async () => {
    const query: ExploreQuery = { sort: [{ column: 'amount', desc: true }], filters: [] };
    const p = await open(query);
    await p.send({ type: 'pinnedRows', query: { sort: [], filters: [] }, rows: [{ index: 1, values: [901, 'Oslo', 1, '2024-01-01', true, null, 'south', '2024-01-01 00:00:00'] }] });
    await p.settle();
    assert.deepEqual(await band(p), [], 'rows of another query are not shown');
    await p.page.click(cell(6, 0));
    await p.page.click('.x-pin-rows');
    await p.settle();
    const row = (i: number): unknown[] => [1000 + i, 'Kyoto', i, '2024-02-01', false, `kept ${i}`, 'north', '2024-02-01 10:00:00'];
    await p.send({ type: 'pinnedRows', query: { filters: [], sort: [{ desc: true, column: 'amount' }] }, rows: [{ index: 40, values: row(40) }, { index: 6, values: row(6) }, { index: 9, values: row(9) }] });
    await p.settle();
    assert.deepEqual(await band(p), [['8', '7'], ['42', '1040'], ['11', '1009']], 'the values the host sent, once each, after the row pinned meanwhile');
    assert.match(await p.page.textContent('#announcer') ?? '', /2 pinned rows restored/);
  });

  it('a restored sort and filter on a file still being read wait for the whole file, then ask (the service refuses them before)', async () => {
    x = await ExplorerPage.open(env.browser, env.server, { width: 900, height: 600 });
    const p = x;
    const query: ExploreQuery = { sort: [{ column: 'amount', desc: true }], filters: [{ column: 'city', op: 'in', values: ['Oslo'] }] };
    await p.send(initOf({ query }, { state: 'reading', rowCount: undefined }));
    await p.settle();
    assert.deepEqual([await p.postedOf('fetchRows'), await p.postedOf('fetchCount')], [[], []], 'nothing asked while the file is read');
    assert.match(await p.page.textContent('.x-count') ?? '', /once the whole file is read/);
    assert.equal(await p.page.isVisible('.x-notice'), false, 'no failure shown');
    await p.send({ type: 'status', status: { state: 'ready', rowCount: 10_000_000 } });
    await p.settle();
    const asked = await p.postedOf('fetchRows');
    assert.equal(asked[0]?.offset, 0);
    assert.ok(asked.every((m) => JSON.stringify(m.query) === JSON.stringify(query)), 'under the restored query');
    assert.deepEqual((await p.postedOf('fetchCount')).map((m) => m.query), [query]);
    assert.match(await p.page.textContent('.x-count') ?? '', /1,234 of 10,000,000 rows match/);
    assert.equal(await p.page.textContent('#x-c-0-0'), '1');
  });

  it('keeps a panel\'s origin in the webview state, and a garbled one is dropped', async () => {
    const p = await open();
    assert.equal(await p.savedState(), undefined);
    const state = { v: 1 as const, origin: { kind: 'source' as const, datasourceId: 'ds-1', datasetId: 'd-1', name: 'orders.csv' } };
    await p.send({ type: 'panelState', state });
    assert.deepEqual(await p.savedState(), state);
    p.expectWebviewErrors = true;
    await p.send({ type: 'panelState', state: { v: 1, origin: { kind: 'file', path: '/etc/passwd' } } });
    assert.deepEqual(await p.savedState(), state, 'an invalid state never replaces the kept one');
  });
});
