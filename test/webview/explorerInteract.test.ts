/**
 * The Data Explorer's grid under keyboard and mouse (issue 27): arrow/page/home/end navigation
 * with aria-activedescendant, a selection copied as TSV with headers on Ctrl+C, pinned columns
 * kept in view while scrolling sideways, pinned rows kept at the top, column resize, and the
 * persisted query, pins and widths restored from `init`.
 */
import { strict as assert } from 'node:assert';
import { checkedAfterEach, ExplorerPage, initOf, useExplorerBrowser } from './explorerHarness';

const CITIES = ['Lisbon', 'Oslo', 'Kyoto', 'Lima', 'Accra', 'Perth', 'Quito'];
const amount = (i: number): number => ((i * 7919) % 100000) / 100;

describe('explorer (browser): keyboard, selection, copy and pins', function () {
  this.timeout(120_000);
  const env = useExplorerBrowser();
  let x: ExplorerPage | undefined;
  checkedAfterEach(() => x, () => (x = undefined));

  async function open(): Promise<ExplorerPage> {
    x = await ExplorerPage.open(env.browser, env.server, { width: 900, height: 600 });
    await x.send(initOf());
    await x.settle();
    return x;
  }

  const active = (p: ExplorerPage): Promise<string | null> => p.page.getAttribute('[role=grid]', 'aria-activedescendant');
  const cell = (row: number, col: number): string => `#x-c-${row}-${col}`;

  it('moves the focused cell with arrows, PageUp/Down, Home/End and Ctrl+Home/End, and shows it', async () => {
    const p = await open();
    await p.page.focus('[role=grid]');
    for (const k of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight']) await p.page.keyboard.press(k);
    await p.settle();
    assert.equal(await active(p), 'x-c-3-2');
    assert.ok(await p.page.$eval(cell(3, 2), (e) => e.classList.contains('x-active') && getComputedStyle(e).outlineStyle !== 'none'), 'the focus is visible');
    const per = await p.page.$eval('.x-scroller', (e) => Math.floor((e.clientHeight - 28) / 24) - 1);
    await p.page.keyboard.press('PageDown');
    await p.settle();
    assert.equal(await active(p), `x-c-${3 + per}-2`);
    await p.page.keyboard.press('PageUp');
    await p.page.keyboard.press('End');
    await p.settle();
    assert.equal(await active(p), 'x-c-3-7');
    await p.page.keyboard.press('Home');
    await p.settle();
    assert.equal(await active(p), 'x-c-3-0');
    await p.page.keyboard.press('Control+End');
    await p.settle();
    await p.settle();
    assert.equal(await active(p), 'x-c-9999999-7');
    assert.equal(await p.page.$eval(cell(9999999, 7), (e) => e.closest('[role=row]')?.getAttribute('aria-rowindex')).catch(() => 'not drawn'), '10000001', 'the last row is scrolled into view');
    await p.page.keyboard.press('Control+Home');
    await p.settle();
    assert.equal(await active(p), 'x-c-0-0');
    assert.equal(await p.page.textContent(cell(0, 0)), '1');
    // Up from the first row reaches the header; Enter sorts by that column.
    await p.page.keyboard.press('ArrowRight');
    await p.page.keyboard.press('ArrowUp');
    await p.settle();
    assert.equal(await active(p), 'x-h-1');
    await p.clearPosted();
    await p.page.keyboard.press('Enter');
    await p.settle();
    assert.deepEqual((await p.postedOf('fetchRows')).at(-1)?.query.sort, [{ column: 'city', desc: false }]);
    assert.equal(await p.page.getAttribute('#x-h-1', 'aria-sort'), 'ascending');
  });

  it('copies the selection as TSV with the column names on Ctrl+C', async () => {
    const p = await open();
    await p.page.evaluate(() => {
      window.addEventListener('copy', (e) => {
        (window as unknown as { __copied?: string }).__copied = e.clipboardData?.getData('text/plain');
      });
    });
    await p.page.click(cell(1, 1));
    await p.page.click(cell(3, 2), { modifiers: ['Shift'] });
    await p.flush();
    const selected = await p.page.$$eval('[role=gridcell][aria-selected=true]', (c) => c.length);
    assert.equal(selected, 6);
    await p.page.keyboard.press('Control+c');
    await p.flush();
    const copied = await p.page.evaluate(() => (window as unknown as { __copied?: string }).__copied);
    const lines = ['city\tamount', ...[1, 2, 3].map((i) => `${CITIES[i % 7]}\t${amount(i)}`)];
    assert.equal(copied, `${lines.join('\n')}\n`);
    // Keyboard extension of the selection: Shift+Down adds a row.
    await p.page.keyboard.press('Shift+ArrowDown');
    await p.page.keyboard.press('Control+c');
    await p.flush();
    const more = await p.page.evaluate(() => (window as unknown as { __copied?: string }).__copied);
    assert.equal(more?.split('\n').filter((l) => l !== '').length, 5);
  });

  it('keeps a pinned column at the left while scrolling sideways, and persists it', async () => {
    const p = await open();
    await p.page.hover('#x-h-6');
    await p.page.click('#x-h-6 .x-pin');
    await p.settle();
    assert.deepEqual((await p.postedOf('persist')).at(-1)?.pinned, ['region']);
    assert.equal(await p.page.textContent('#x-h-0 .x-hname'), 'region', 'a pinned column comes first');
    await p.page.$eval('.x-scroller', (e) => {
      e.scrollLeft = e.scrollWidth;
    });
    await p.settle();
    const gridLeft = await p.page.$eval('.x-scroller', (e) => e.getBoundingClientRect().left);
    const pinnedLeft = await p.page.$eval('#x-h-0', (e) => e.getBoundingClientRect().left);
    assert.equal(Math.round(pinnedLeft), Math.round(gridLeft), 'the pinned header stays at the left edge');
    assert.equal(await p.page.textContent(cell(0, 0)), 'north');
    assert.equal(await p.page.$(cell(0, 1)), null, 'the first unpinned column scrolled out of the DOM');
    const onTop = await p.page.evaluate(() => {
      const c = document.querySelector('#x-c-0-0') as HTMLElement;
      const r = c.getBoundingClientRect();
      return document.elementFromPoint(r.left + 5, r.top + 5)?.closest('.x-cell')?.id;
    });
    assert.equal(onTop, 'x-c-0-0', 'nothing scrolls over the pinned column');
  });

  it('pins the selected rows at the top while the view scrolls', async () => {
    const p = await open();
    await p.page.click(cell(2, 0));
    await p.page.click(cell(3, 0), { modifiers: ['Shift'] });
    await p.page.click('.x-pin-rows');
    await p.settle();
    await p.page.$eval('.x-scroller', (e) => {
      e.scrollTop = 500_000;
    });
    await p.settle();
    const pinned = await p.page.$$eval('.x-pinned-rows .x-row', (r) => r.map((e) => [e.getAttribute('aria-rowindex'), e.querySelector('.x-cell')?.textContent]));
    assert.deepEqual(pinned, [['4', '3'], ['5', '4']]);
    const bandBottom = await p.page.$eval('.x-pinned-rows', (e) => e.getBoundingClientRect().bottom);
    const firstBody = await p.page.$eval('.x-body .x-row', (e) => e.getBoundingClientRect().top);
    assert.ok(firstBody >= bandBottom - 24, 'body rows start under the pinned band');
  });

  it('resizes a column by dragging its header edge and persists the width', async () => {
    const p = await open();
    const box = await p.page.$eval('#x-h-1 .x-resize', (e) => {
      const r = e.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    const before = await p.page.$eval('#x-h-1', (e) => e.getBoundingClientRect().width);
    await p.page.mouse.move(box.x, box.y);
    await p.page.mouse.down();
    await p.page.mouse.move(box.x + 30, box.y);
    await p.page.mouse.move(box.x + 60, box.y);
    await p.page.mouse.up();
    await p.settle();
    const after = await p.page.$eval('#x-h-1', (e) => e.getBoundingClientRect().width);
    assert.equal(Math.round(after - before), 60);
    assert.deepEqual((await p.postedOf('persist')).at(-1)?.widths, { city: Math.round(before) + 60 });
    assert.equal(Math.round(await p.page.$eval(cell(0, 1), (e) => e.getBoundingClientRect().width)), Math.round(after));
  });

  it('restores the query, pinned columns and widths from init', async () => {
    x = await ExplorerPage.open(env.browser, env.server);
    const p = x;
    const query = { sort: [{ column: 'day', desc: true }], filters: [{ column: 'city', op: 'contains' as const, text: 'o' }] };
    await p.send(initOf({ query, pinned: ['amount'], widths: { amount: 150 } }));
    await p.settle();
    assert.deepEqual((await p.postedOf('fetchRows'))[0]?.query, query);
    assert.deepEqual((await p.postedOf('fetchCount'))[0]?.query, query);
    assert.equal(await p.page.textContent('#x-h-0 .x-hname'), 'amount');
    assert.equal(Math.round(await p.page.$eval('#x-h-0', (e) => e.getBoundingClientRect().width)), 150);
    assert.equal(await p.page.getAttribute('#x-h-3', 'aria-sort'), 'descending', 'day (after the pinned amount) is sorted');
    assert.match(await p.page.textContent('.x-chip') ?? '', /city contains "o"/);
  });

  it('resizes and pins a column from the keyboard on its header', async () => {
    const p = await open();
    await p.page.focus('[role=grid]');
    for (const k of ['ArrowRight', 'ArrowRight', 'ArrowUp']) await p.page.keyboard.press(k);
    await p.settle();
    assert.equal(await active(p), 'x-h-2');
    const before = await p.page.$eval('#x-h-2', (e) => e.getBoundingClientRect().width);
    await p.page.keyboard.press('Alt+ArrowRight');
    await p.page.keyboard.press('Alt+ArrowRight');
    await p.settle();
    assert.equal(Math.round(await p.page.$eval('#x-h-2', (e) => e.getBoundingClientRect().width)), Math.round(before) + 32);
    assert.deepEqual((await p.postedOf('persist')).at(-1)?.widths, { amount: Math.round(before) + 32 });
    await p.page.keyboard.press('Alt+KeyP');
    await p.settle();
    assert.deepEqual((await p.postedOf('persist')).at(-1)?.pinned, ['amount']);
    assert.equal(await active(p), 'x-h-0', 'the focus follows the column to the left');
    assert.equal(await p.page.textContent('#x-h-0 .x-hname'), 'amount');
  });
});
