/**
 * The extension's vscode-free parts in plain Node: paged lists ("Load more…", de-duplication when
 * records shift between pages, reload keeping the user's paging), the live-refresh poller (polls
 * while pending, stops when settled, gives up after its limit, pauses when hidden), one tree level,
 * and the language of the editor "Open in Editor" opens.
 */
import { strict as assert } from 'node:assert';
import { Backoff } from '../../../../src/extension/localService/backoff';
import { PagedList } from '../../../../src/extension/trees/pagedList';
import { failureNode, listFor, noMatchNotice, pagedNodes } from '../../../../src/extension/trees/pagedNodes';
import { editorLanguage } from '../../../../src/extension/panel/editorLanguage';
import { jobAccessibleName } from '../../../../src/extension/trees/nodes';
import { SyncPoller } from '../../../../src/extension/trees/syncPoller';
import type { Page } from '../../../../src/shared/domain';

/** A fake list endpoint over an array that tests mutate between calls. */
function endpoint(data: string[]): { fetch: (p: number, size: number) => Promise<Page<string>>; calls: number } {
  const state = {
    calls: 0,
    fetch: async (pageNumber: number, pageSize: number): Promise<Page<string>> => {
      state.calls++;
      const start = (pageNumber - 1) * pageSize;
      return { total: data.length, pageNumber, pageSize, records: data.slice(start, start + pageSize) };
    },
  };
  return state;
}

async function until(what: string, check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('PagedList', () => {
  it('loads page by page until everything is there', async () => {
    const data = ['a', 'b', 'c', 'd', 'e'];
    const ep = endpoint(data);
    const list = new PagedList(ep.fetch, (x) => x, 2);
    assert.equal(list.loaded, false);
    await list.loadFirst();
    assert.deepEqual(list.items, ['a', 'b']);
    assert.equal(list.hasMore, true);
    await list.loadMore();
    await list.loadMore();
    assert.deepEqual(list.items, data);
    assert.equal(list.hasMore, false);
  });

  it('drops records that shifted onto the next page (a new record arrived meanwhile)', async () => {
    const data = ['b', 'c', 'd'];
    const ep = endpoint(data);
    const list = new PagedList(ep.fetch, (x) => x, 2);
    await list.loadFirst();
    data.unshift('a');
    await list.loadMore();
    assert.deepEqual(list.items, ['b', 'c', 'd'], 'c is not listed twice');
  });

  it('reload re-fetches every loaded page and keeps the paging; remove updates locally', async () => {
    const data = ['a', 'b', 'c', 'd', 'e'];
    const ep = endpoint(data);
    const list = new PagedList(ep.fetch, (x) => x, 2);
    await list.loadFirst();
    await list.loadMore();
    data[3] = 'D';
    await list.reload();
    assert.deepEqual(list.items, ['a', 'b', 'c', 'D']);
    list.remove('b');
    assert.deepEqual(list.items, ['a', 'c', 'D']);
    assert.equal(list.total, 4);
  });

  it('keeps the error of a failed load and clears it on success; concurrent loads run one at a time', async () => {
    let fail = true;
    let inFlight = 0;
    let maxInFlight = 0;
    const list = new PagedList<string>(async (p, size) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      if (fail) throw new Error('service down');
      return { total: 1, pageNumber: p, pageSize: size, records: ['x'] };
    }, (x) => x, 10);
    await assert.rejects(list.loadFirst(), /service down/);
    assert.match(String(list.error), /service down/);
    fail = false;
    await Promise.all([list.loadFirst(), list.loadFirst(), list.reload()]);
    assert.equal(list.error, undefined);
    assert.equal(maxInFlight, 1);
    assert.deepEqual(list.items, ['x']);
  });
});

describe('SyncPoller', () => {
  it('polls while something is pending and stops by itself when it settles', async () => {
    let polls = 0;
    const poller = new SyncPoller({ baseMs: 1, maxMs: 4, poll: async () => ++polls < 4 });
    poller.track('ds1');
    poller.track('ds1');
    assert.equal(poller.size, 1, 'one schedule per key');
    await until('polling to stop', () => !poller.isTracking('ds1'));
    assert.equal(polls, 4);
    poller.dispose();
  });

  it('keeps polling through failures, gives up after its time limit, and reports it', async () => {
    const gaveUp: string[] = [];
    let polls = 0;
    const poller = new SyncPoller({
      baseMs: 1,
      maxMs: 2,
      maxDurationMs: 30,
      poll: async () => {
        polls++;
        throw new Error('service restarting');
      },
      onGiveUp: (k) => gaveUp.push(k),
    });
    poller.track('stuck');
    await until('giving up', () => gaveUp.length > 0);
    assert.deepEqual(gaveUp, ['stuck']);
    assert.ok(polls >= 1);
    assert.equal(poller.isTracking('stuck'), false);
    poller.dispose();
  });

  it('does not poll while the view is hidden, and stops on untrack and dispose', async () => {
    let visible = false;
    let polls = 0;
    const poller = new SyncPoller({ baseMs: 1, maxMs: 2, poll: async () => (++polls, true), active: () => visible });
    poller.track('a');
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(polls, 0, 'hidden: no requests');
    visible = true;
    await until('a poll once visible', () => polls > 0);
    poller.untrack('a');
    const after = polls;
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(polls <= after + 1, 'untracked: at most the poll already running');
    poller.track('b');
    poller.dispose();
    assert.equal(poller.size, 0);
    poller.track('c');
    assert.equal(poller.size, 0, 'a disposed poller tracks nothing');
  });
});

describe('Backoff', () => {
  it('grows by its factor up to the maximum and starts over on reset', () => {
    const b = new Backoff({ baseMs: 100, maxMs: 1000, factor: 3 });
    assert.deepEqual([b.next(), b.next(), b.next(), b.next()], [100, 300, 900, 1000]);
    assert.equal(b.attempts, 4);
    b.reset();
    assert.equal(b.next(), 100);
  });
});

describe('pagedNodes (one tree level)', () => {
  type Node = { kind: 'item'; id: string };
  const toNode = (x: string): Node => ({ kind: 'item', id: x });

  it('shows the first page, then "Load more…" with the count left, under its parent', async () => {
    const list = new PagedList(endpoint(['a', 'b', 'c']).fetch, (x) => x, 2);
    const nodes = await pagedNodes({ list, tree: 't', parentId: 'p', toNode, failed: () => [] });
    assert.deepEqual(nodes, [toNode('a'), toNode('b'), { kind: 'more', id: 'more:t:p', parentId: 'p', remaining: 1 }]);
    await list.loadMore();
    assert.deepEqual(await pagedNodes({ list, tree: 't', parentId: 'p', toNode, failed: () => [] }), [toNode('a'), toNode('b'), toNode('c')]);
  });

  it('shows the empty notice with its action only when there is nothing, and none at the root without one', async () => {
    const empty = new PagedList(endpoint([]).fetch, (x) => x, 2);
    const notice = { text: 'No files yet', command: { id: 'add', title: 'Add' } };
    assert.deepEqual(await pagedNodes({ list: empty, tree: 't', parentId: 'p', toNode, empty: notice, failed: () => [] }), [
      { kind: 'message', id: 'message:t:p', parentId: 'p', severity: 'info', text: 'No files yet', command: { id: 'add', title: 'Add' } },
    ]);
    assert.deepEqual(await pagedNodes({ list: empty, tree: 't', toNode, failed: () => [] }), []);
  });

  it('a filtered root that is empty says nothing matches and offers to clear the filter; an unfiltered one stays empty', async () => {
    const empty = new PagedList(endpoint([]).fetch, (x) => x, 2);
    assert.deepEqual(await pagedNodes({ list: empty, tree: 't', toNode, ...noMatchNotice('dataset', 'q3', 'clear'), failed: () => [] }), [
      { kind: 'message', id: 'message:t:root', severity: 'info', text: 'No dataset matches "q3"', command: { id: 'clear', title: 'Clear Filter' } },
    ]);
    assert.deepEqual(await pagedNodes({ list: empty, tree: 't', toNode, ...noMatchNotice('dataset', '', 'clear'), failed: () => [] }), []);
  });

  it('shows what the level says on a failed first load, and loads again on the next expand', async () => {
    const data = ['a'];
    let fail = true;
    const ep = endpoint(data);
    const list = new PagedList(async (n: number, size: number) => {
      if (fail) throw new Error('service down');
      return ep.fetch(n, size);
    }, (x) => x, 2);
    const failed = (err: unknown) => [failureNode('t', undefined, { message: `Could not load: ${String(err)}. See the log for details.` }, 'retry')];
    const first = await pagedNodes<string, Node>({ list, tree: 't', toNode, failed });
    assert.deepEqual(first, [{
      kind: 'message', id: 'message:t:root', severity: 'error', text: 'Could not load: Error: service down. Click to retry.',
      tooltip: 'Could not load: Error: service down. See the log for details.', command: { id: 'retry', title: 'Retry' },
    }]);
    fail = false;
    assert.deepEqual(await pagedNodes<string, Node>({ list, tree: 't', toNode, failed }), [toNode('a')]);
  });

  it('keeps one list per key', () => {
    const lists = new Map<string, PagedList<string>>();
    const make = () => new PagedList(endpoint([]).fetch, (x) => x, 2);
    const a = listFor(lists, 'k', make);
    assert.equal(listFor(lists, 'k', make), a);
    assert.notEqual(listFor(lists, 'other', make), a);
  });
});

describe('editorLanguage (Open in Editor)', () => {
  const known = ['plaintext', 'python', 'shellscript', 'sql', 'markdown', 'rust'];
  it('keeps the VS Code language id the webview sent when VS Code knows it', () => {
    // The webview maps fences (sh -> shellscript); the host must not map them a second time.
    for (const id of ['shellscript', 'python', 'sql', 'markdown', 'rust']) assert.equal(editorLanguage(id, known), id);
  });
  it('falls back to plain text for ids VS Code does not know or that are not ids at all', () => {
    for (const id of ['', 'sh', 'cobol', '"><img>', 'python ']) assert.equal(editorLanguage(id, known), 'plaintext');
  });
});

describe('jobAccessibleName (a past job in the Sessions tree, as a screen reader names it)', () => {
  it('is the plain question and how the job ended, without the engine\'s backticks and quotes', () => {
    const q = 'total `revenue` by month of `order_date` where `region` is "Asia"';
    assert.equal(jobAccessibleName(q, undefined), 'total revenue by month of order_date where region is Asia, done');
    assert.equal(jobAccessibleName(q, 'cancelled'), 'total revenue by month of order_date where region is Asia, cancelled');
    assert.equal(jobAccessibleName('How many\n  rows?', 'error'), 'How many rows?, failed');
  });
});
