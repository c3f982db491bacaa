/**
 * The explorer's pure parts in plain Node (issue 27): the scroll mapping that lets 10 M rows
 * scroll end to end, the page cache (stale replies, bounded pages), filters built from the form,
 * sort cycling, the TSV of a selection, the message guards in both directions (pinned rows, a
 * panel's kept origin) and comparing queries.
 */
import { strict as assert } from 'node:assert';
import { EXPLORE_LIMITS, sameQuery } from '../../src/shared/explore';
import { isExplorerHostToWebview, isExplorerPanelState, isExplorerWebviewToHost } from '../../src/shared/explorerGuards';
import { MAX_PINNED_ROWS } from '../../src/shared/explorerProtocol';
import { renderExplorerHtml } from '../../src/webview/explorer/explorerHtml';
import { buildFilter, type FilterInput } from '../../src/webview/explorer/filterModel';
import { nextSort } from '../../src/webview/explorer/gridHeader';
import { MAX_PAGES, PAGE_ROWS, RowCache } from '../../src/webview/explorer/rowCache';
import { frameAt, MAX_SCROLL_PX, scrollTopFor } from '../../src/webview/explorer/scrollMap';
import { moveFor, rectOf, selectionTsv } from '../../src/webview/explorer/selection';
import { initOf } from './explorerHarness';

describe('explorer units', () => {
  describe('scroll mapping', () => {
    it('is exact below the cap and maps the capped range end to end above it', () => {
      const small = frameAt(240, 480, 1000, 24);
      assert.deepEqual([small.firstRow, small.shift, small.virtualHeight], [10, 0, 24_000]);
      const total = 10_000_000;
      const top = frameAt(0, 480, total, 24);
      assert.equal(top.virtualHeight, MAX_SCROLL_PX);
      assert.equal(top.firstRow, 0);
      const bottom = frameAt(MAX_SCROLL_PX - 480, 480, total, 24);
      assert.equal(bottom.firstRow + bottom.rowsInView, total, 'the last row is in view at the bottom');
      const mid = frameAt((MAX_SCROLL_PX - 480) / 2, 480, total, 24);
      assert.ok(Math.abs(mid.firstRow - total / 2) < 20, `middle: ${mid.firstRow}`);
      for (const row of [0, 1, 12_345, 5_000_000, total - 20]) {
        const f = frameAt(scrollTopFor(row, 480, total, 24), 480, total, 24);
        assert.ok(Math.abs(f.firstRow - row) <= 1, `row ${row} -> ${f.firstRow}`);
      }
    });
  });

  describe('row cache', () => {
    it('asks for missing pages once, drops unknown and stale replies, and stays bounded', () => {
      let id = 0;
      const c = new RowCache(() => ++id);
      const first = c.want(0, 30, 10_000);
      assert.deepEqual(first.map((r) => r.offset), [0], 'the page in view alone first');
      assert.deepEqual(c.want(0, 30, 10_000), [], 'nothing asked twice');
      const rows = Array.from({ length: PAGE_ROWS }, (_, i) => [i]);
      assert.equal(c.accept(999, 0, rows), false, 'an id never sent');
      assert.equal(c.accept(first[0]?.requestId ?? -1, 200, rows), false, 'a reply for another offset');
      assert.equal(c.accept(first[0]?.requestId ?? -1, 0, rows), true);
      assert.equal(c.accept(first[0]?.requestId ?? -1, 0, rows), false, 'a second reply');
      const margin = c.want(0, 30, 10_000);
      assert.deepEqual(margin.map((r) => r.offset), [200], 'the margin once the page in view is here');
      c.reset();
      assert.equal(c.accept(margin[0]?.requestId ?? -1, 200, rows), false, 'a reply to the query before a reset');
      for (let p = 0; p < 200; p++) {
        for (let round = 0; round < 2; round++) for (const r of c.want(p * PAGE_ROWS, 30, 1_000_000)) c.accept(r.requestId, r.offset, rows);
        assert.ok(c.pageCount <= MAX_PAGES && c.pendingCount <= 4);
      }
      const far = c.want(0, 30, 1_000_000);
      assert.ok(far.length > 0, 'pages far from the view were evicted and are asked for again');
    });

    it('asks for a view across two pages in one request, and for the margins only once the view is here', () => {
      let id = 0;
      const c = new RowCache(() => ++id);
      const view = (): Array<[number, number]> => c.want(5 * PAGE_ROWS + 190, 30, 10_000).map((r) => [r.offset, r.limit]);
      const asked = c.want(5 * PAGE_ROWS + 190, 30, 10_000);
      assert.deepEqual(asked.map((r) => [r.offset, r.limit]), [[5 * PAGE_ROWS, 2 * PAGE_ROWS]], 'the two pages in view, as one request');
      assert.deepEqual(view(), [], 'nothing more while it is asked for');
      const rows = Array.from({ length: 2 * PAGE_ROWS }, (_, i) => [5 * PAGE_ROWS + i]);
      assert.equal(c.accept(asked[0]?.requestId ?? -1, 5 * PAGE_ROWS, rows), true);
      assert.deepEqual(c.row(6 * PAGE_ROWS + 3), [6 * PAGE_ROWS + 3], 'the second page is kept from the same reply');
      assert.deepEqual(view(), [[4 * PAGE_ROWS, PAGE_ROWS], [7 * PAGE_ROWS, PAGE_ROWS]], 'then the margins');
      // A short reply ends the view where it ends.
      const end = new RowCache(() => ++id);
      const last = end.want(9_990, 30, 10_400);
      assert.deepEqual(last.map((r) => [r.offset, r.limit]), [[9_800, 2 * PAGE_ROWS]]);
      end.accept(last[0]?.requestId ?? -1, 9_800, Array.from({ length: 250 }, (_, i) => [9_800 + i]));
      assert.equal(end.endSeen, 10_050);
      assert.deepEqual(end.row(10_049), [10_049]);
      assert.equal(end.row(10_050), undefined);
    });
  });

  describe('filters from the form', () => {
    const base: FilterInput = { column: 'c', kind: 'text', op: 'contains', text: '', min: '', max: '', caseSensitive: false, negate: false };
    it('builds each kind and refuses what cannot be sent', () => {
      assert.deepEqual(buildFilter({ ...base, text: 'ab', negate: true }), { ok: true, filter: { column: 'c', op: 'contains', text: 'ab', negate: true } });
      assert.deepEqual(buildFilter({ ...base, kind: 'number', op: 'between', min: '1e3', max: '' }), { ok: true, filter: { column: 'c', op: 'between', min: 1000 } });
      assert.equal(buildFilter({ ...base, kind: 'number', op: 'between', min: '1,5' }).ok, false);
      assert.equal(buildFilter({ ...base, kind: 'date', op: 'between', min: '2024-02-30' }).ok, true, 'DuckDB judges days of month');
      assert.equal(buildFilter({ ...base, kind: 'date', op: 'between', min: '31/01/2024' }).ok, false);
      assert.equal(buildFilter({ ...base, op: 'regex', text: '[' }).ok, false);
      assert.equal(buildFilter({ ...base, op: 'in', text: Array.from({ length: EXPLORE_LIMITS.inValues + 1 }, (_, i) => i).join(',') }).ok, false);
      assert.deepEqual(buildFilter({ ...base, op: 'in', text: 'a, b\nc' }), { ok: true, filter: { column: 'c', op: 'in', values: ['a, b', 'c'] } }, 'one per line when there are lines');
      assert.deepEqual(buildFilter({ ...base, kind: 'number', op: 'between', min: '5', max: '5', negate: true }), { ok: true, filter: { column: 'c', op: 'between', min: 5, max: 5 } }, 'no negate on a range');
    });
  });

  it('cycles sort asc → desc → off and keeps a multi-column sort on Shift', () => {
    let s = nextSort([], 'a', false, 8);
    assert.deepEqual(s, [{ column: 'a', desc: false }]);
    s = nextSort(s, 'a', false, 8);
    assert.deepEqual(s, [{ column: 'a', desc: true }]);
    assert.deepEqual(nextSort(s, 'a', false, 8), []);
    s = nextSort(s, 'b', true, 8);
    assert.deepEqual(s, [{ column: 'a', desc: true }, { column: 'b', desc: false }]);
    assert.deepEqual(nextSort(s, 'b', true, 8), [{ column: 'a', desc: true }, { column: 'b', desc: true }]);
    assert.deepEqual(nextSort(nextSort(s, 'b', true, 8), 'b', true, 8), [{ column: 'a', desc: true }]);
    assert.equal(nextSort(s, 'c', true, 2).length, 2, 'the service limit holds');
  });

  it('moves with keys and copies a selection as TSV, quoting tabs, newlines and quotes', () => {
    const b = { rows: 100, cols: 5, pageRows: 10 };
    assert.deepEqual(moveFor('PageDown', false, { row: 95, col: 1 }, b), { row: 99, col: 1 });
    assert.deepEqual(moveFor('ArrowUp', false, { row: 0, col: 1 }, b), { row: -1, col: 1 });
    assert.deepEqual(moveFor('End', true, { row: 3, col: 1 }, b), { row: 99, col: 4 });
    assert.equal(moveFor('a', false, { row: 0, col: 0 }, b), undefined);
    const rows = [['x\ty', 1, null], ['say "hi"', 2.5, true]];
    const out = selectionTsv(rectOf({ anchor: { row: 0, col: 0 }, focus: { row: 2, col: 2 } }), ['a', 'b', 'c'], (i) => rows[i], (d) => d);
    assert.equal(out.text, 'a\tb\tc\n"x\ty"\t1\t\n"say ""hi"""\t2.5\ttrue\n');
    assert.deepEqual([out.rows, out.missing], [2, 1]);
  });

  describe('message guards', () => {
    it('accept what the protocol declares and drop the rest', () => {
      assert.equal(isExplorerHostToWebview(initOf({ widths: { id: 90 } })), true);
      assert.equal(isExplorerHostToWebview({ ...initOf(), protocol: 0 }), false);
      assert.equal(isExplorerHostToWebview({ type: 'page', requestId: 1, page: { offset: 0, rows: [[1, 'a', null, true]] } }), true);
      assert.equal(isExplorerHostToWebview({ type: 'page', requestId: 1, page: { offset: 0, rows: [[{ html: 'x' }]] } }), false);
      assert.equal(isExplorerHostToWebview({ type: 'page', requestId: 1, page: { offset: 0, rows: Array(EXPLORE_LIMITS.pageRows + 1).fill([]) } }), false);
      assert.equal(isExplorerHostToWebview({ type: 'error', message: 'x' }), true);
      assert.equal(isExplorerHostToWebview({ type: 'status', status: { state: 'done' } }), false);
      assert.equal(isExplorerHostToWebview({ type: 'summary', requestId: 2, columns: [{ column: 'a', kind: 'text', count: 1, missing: 0, top: [{ value: 'v', count: 1 }] }] }), true);
      const q = { sort: [{ column: 'a', desc: true }], filters: [{ column: 'a', op: 'between', min: '2024-01-01' }] };
      assert.equal(isExplorerWebviewToHost({ type: 'fetchRows', requestId: 3, offset: 0, limit: 200, query: q }), true);
      assert.equal(isExplorerWebviewToHost({ type: 'fetchRows', requestId: 3, offset: 0, limit: 5000, query: q }), false);
      assert.equal(isExplorerWebviewToHost({ type: 'fetchCount', requestId: 3, query: { sort: [], filters: [{ column: 'a', op: 'like', text: '%' }] } }), false);
      assert.equal(isExplorerWebviewToHost({ type: 'action', action: 'ask', query: q }), true);
      assert.equal(isExplorerWebviewToHost({ type: 'action', action: 'rm -rf', query: q }), false);
      assert.equal(isExplorerWebviewToHost({ type: 'persist', query: q, pinned: ['a'], widths: { a: 10 } }), false, 'widths below the minimum');
      assert.equal(isExplorerWebviewToHost({ type: 'persist', query: q, pinned: ['a'], widths: { a: 120 } }), true);
      assert.equal(isExplorerWebviewToHost({ type: 'ready', protocol: 1 }), true);
      assert.equal(isExplorerWebviewToHost({ type: 'webviewError', message: 'TypeError: x' }), true);
    });

    it('check pinned rows and a panel\'s kept origin (what the serializer reads back after a reload)', () => {
      const q = { sort: [{ column: 'a', desc: true }], filters: [] };
      assert.equal(isExplorerWebviewToHost({ type: 'persist', query: q, pinned: [], widths: {}, pinnedRows: [3, 0] }), true);
      assert.equal(isExplorerWebviewToHost({ type: 'persist', query: q, pinned: [], widths: {}, pinnedRows: [-1] }), false);
      assert.equal(isExplorerWebviewToHost({ type: 'persist', query: q, pinned: [], widths: {}, pinnedRows: Array.from({ length: MAX_PINNED_ROWS + 1 }, (_, i) => i) }), false);
      assert.equal(isExplorerHostToWebview({ type: 'pinnedRows', query: q, rows: [{ index: 4, values: ['x', 1, null, true] }] }), true);
      assert.equal(isExplorerHostToWebview({ type: 'pinnedRows', query: q, rows: [{ index: 4, values: [{ html: 'x' }] }] }), false);
      assert.equal(isExplorerHostToWebview({ type: 'pinnedRows', rows: [] }), false, 'rows without their query');
      const table = { v: 1, origin: { kind: 'table', path: '/g/answer-files/ab.csv', name: 'by region.csv' } };
      const source = { v: 1, origin: { kind: 'source', datasourceId: 'ds1', datasetId: 'd1', name: 'orders.csv' } };
      for (const state of [table, source]) {
        assert.equal(isExplorerPanelState(state), true);
        assert.equal(isExplorerHostToWebview({ type: 'panelState', state }), true);
      }
      for (const bad of [undefined, null, 'x', { v: 2, origin: table.origin }, { v: 1, origin: { kind: 'file', path: '/etc/passwd', name: 'x' } }, { v: 1, origin: { kind: 'table', path: 7, name: 'x' } },
        { v: 1, origin: { kind: 'source', datasourceId: 'ds1', name: 'x' } }, { v: 1, origin: { kind: 'table', path: `/${'a'.repeat(5000)}`, name: 'x' } }]) {
        assert.equal(isExplorerPanelState(bad), false, JSON.stringify(bad)?.slice(0, 100));
      }
    });

    it('compares queries whatever their key order', () => {
      assert.equal(sameQuery({ sort: [{ column: 'a', desc: false }], filters: [] }, { filters: [], sort: [{ desc: false, column: 'a' }] }), true);
      assert.equal(sameQuery({ sort: [], filters: [{ column: 'a', op: 'contains', text: 'x', negate: undefined }] }, { sort: [], filters: [{ column: 'a', op: 'contains', text: 'x' }] }), true);
      assert.equal(sameQuery({ sort: [{ column: 'a', desc: false }], filters: [] }, { sort: [{ column: 'a', desc: true }], filters: [] }), false);
      assert.equal(sameQuery({ sort: [{ column: 'a', desc: false }, { column: 'b', desc: false }], filters: [] }, { sort: [{ column: 'b', desc: false }, { column: 'a', desc: false }], filters: [] }), false);
    });
  });

  it('renders the document under the strict CSP and refuses a nonce or cspSource that could widen it', () => {
    const html = renderExplorerHtml({ scriptUri: 'https://r/x.js', styleUri: 'https://r/x.css', cspSource: 'https://r', nonce: 'abcdefghijklmnop1234', title: 'a<b>.csv' });
    assert.ok(html.includes('content="default-src &#39;none&#39;; script-src &#39;nonce-abcdefghijklmnop1234&#39;; style-src https://r; img-src https://r data:; font-src https://r"'));
    assert.ok(html.includes('a&#60;b&#62;.csv') && !html.includes('a<b>'));
    assert.throws(() => renderExplorerHtml({ scriptUri: '', styleUri: '', cspSource: "https://r 'unsafe-inline'", nonce: 'abcdefghijklmnop1234', title: '' }));
    assert.throws(() => renderExplorerHtml({ scriptUri: '', styleUri: '', cspSource: 'https://r', nonce: "x' 'unsafe-eval", title: '' }));
  });
});
