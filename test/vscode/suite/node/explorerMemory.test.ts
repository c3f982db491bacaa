/**
 * What an explorer tab keeps across closing and reopening it (issue 27): the query, pins, widths,
 * sheet and — new — the rows pinned at the top, by index with the query they are indices under.
 * Read back through the protocol's guards (damaged pinned rows are dropped alone), bounded; and
 * the pinned rows' values are fetched again by index (in runs, past-the-end indices dropped).
 */
import { strict as assert } from 'node:assert';
import { EXPLORER_STATE_KEY, ExplorerMemory, MAX_ENTRIES } from '../../../../src/extension/explorer/explorerMemory';
import { fetchPinnedRows, indexRuns } from '../../../../src/extension/explorer/explorerPins';
import type { ExplorePage, ExploreQuery } from '../../../../src/shared/explore';
import { MAX_PINNED_ROWS } from '../../../../src/shared/explorerProtocol';
import { memento } from './memento';


const sorted: ExploreQuery = { sort: [{ column: 'amount', desc: true }], filters: [{ column: 'region', op: 'in', values: ['north'] }] };

describe('ExplorerMemory (a tab\'s state across closing and reopening it)', () => {
  it('keeps the pinned rows with the query they belong to, beside the rest of the tab\'s state', async () => {
    const state = memento();
    await new ExplorerMemory(state).set('file:///a.csv', { query: sorted, pinned: ['region'], widths: { region: 120 }, pinnedRows: { query: sorted, rows: [7, 2, 30] } });
    // A new window reads the same workspace state.
    const back = new ExplorerMemory(state).get('file:///a.csv');
    assert.deepEqual(back, { query: sorted, pinned: ['region'], widths: { region: 120 }, pinnedRows: { query: sorted, rows: [7, 2, 30] } });
  });

  it('keeps nothing for no pinned rows, and drops damaged pinned rows alone', async () => {
    const state = memento();
    const m = new ExplorerMemory(state);
    await m.set('k', { query: sorted, pinned: [], widths: {}, pinnedRows: { query: sorted, rows: [] } });
    assert.deepEqual(Object.keys((state.data.get(EXPLORER_STATE_KEY) as Record<string, object>)['k'] ?? {}).sort(), ['pinned', 'query', 'widths']);
    const damaged: unknown[] = [
      { query: sorted, rows: [-1] },
      { query: sorted, rows: [1.5] },
      { query: sorted, rows: ['3'] },
      { query: sorted, rows: Array.from({ length: MAX_PINNED_ROWS + 1 }, (_, i) => i) },
      { query: { sort: [{ column: 'a', desc: 'yes' }], filters: [] }, rows: [1] },
      { rows: [1] },
      [1, 2],
    ];
    for (const pinnedRows of damaged) {
      await state.update(EXPLORER_STATE_KEY, { k: { query: sorted, pinned: ['a'], widths: {}, sheet: 'S', pinnedRows } });
      assert.deepEqual(m.get('k'), { query: sorted, pinned: ['a'], widths: {}, sheet: 'S' }, JSON.stringify(pinnedRows));
    }
    await state.update(EXPLORER_STATE_KEY, { k: { query: sorted, pinned: ['a'], widths: {}, pinnedRows: { query: sorted, rows: [4, 4, 1] } } });
    assert.deepEqual(m.get('k')?.pinnedRows?.rows, [4, 1], 'each row once');
    await state.update(EXPLORER_STATE_KEY, { k: { query: { sort: 'x' }, pinned: [], widths: {} } });
    assert.equal(m.get('k'), undefined, 'a damaged query: nothing of the tab');
  });

  it('stays bounded, the oldest tab first out', async () => {
    const state = memento();
    const m = new ExplorerMemory(state);
    for (let i = 0; i < MAX_ENTRIES + 5; i++) await m.set(`tab${i}`, { query: sorted, pinned: [], widths: {}, pinnedRows: { query: sorted, rows: [i] } });
    const keys = Object.keys(state.data.get(EXPLORER_STATE_KEY) as object);
    assert.equal(keys.length, MAX_ENTRIES);
    assert.equal(keys[0], 'tab5');
    assert.equal(m.get('tab4'), undefined);
    assert.deepEqual(m.get(`tab${MAX_ENTRIES + 4}`)?.pinnedRows?.rows, [MAX_ENTRIES + 4]);
  });
});

describe('pinned rows fetched again by index', () => {
  it('groups consecutive indices into runs of at most a page', () => {
    assert.deepEqual(indexRuns([9, 3, 4, 5, 4, 20]), [{ offset: 3, limit: 3 }, { offset: 9, limit: 1 }, { offset: 20, limit: 1 }]);
    assert.deepEqual(indexRuns([0, 1, 2, 3, 4], 2), [{ offset: 0, limit: 2 }, { offset: 2, limit: 2 }, { offset: 4, limit: 1 }]);
    assert.deepEqual(indexRuns([]), []);
  });

  it('asks the service for each run under the saved query, keeps the pin order and drops indices past the end', async () => {
    const asked: Array<{ offset: number; limit: number; query: ExploreQuery }> = [];
    const total = 12;
    const client = {
      rows: async (_view: string, offset: number, limit: number, query: ExploreQuery): Promise<ExplorePage> => {
        asked.push({ offset, limit, query });
        const rows: unknown[][] = [];
        for (let i = offset; i < Math.min(total, offset + limit); i++) rows.push(i === 11 ? [{ not: 'a cell' }] : [`row ${i}`, i]);
        return { offset, rows };
      },
    };
    const rows = await fetchPinnedRows(client, 'v1', sorted, [10, 2, 3, 40, 11]);
    assert.deepEqual(asked, [{ offset: 2, limit: 2, query: sorted }, { offset: 10, limit: 2, query: sorted }, { offset: 40, limit: 1, query: sorted }]);
    assert.deepEqual(rows, [{ index: 10, values: ['row 10', 10] }, { index: 2, values: ['row 2', 2] }, { index: 3, values: ['row 3', 3] }], 'past the end (40) and not a row of cells (11) are dropped');
  });
});
