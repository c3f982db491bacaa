/**
 * The Data Explorer's filter bar in Chromium (issue 27): each kind of condition builds the
 * ExploreFilter the service reads, the live count of matching rows shows while the grid
 * refetches, input that cannot become a filter is flagged and never sent, a service error for a
 * filter shows on that filter, and sort/filter controls wait for the end of a large file's read.
 */
import { strict as assert } from 'node:assert';
import type { ExploreFilter } from '../../src/shared/explore';
import { checkedAfterEach, ExplorerPage, initOf, useExplorerBrowser } from './explorerHarness';

interface Fields {
  text?: string;
  min?: string;
  max?: string;
  caseSensitive?: boolean;
  negate?: boolean;
}

describe('explorer (browser): filter bar', function () {
  this.timeout(120_000);
  const env = useExplorerBrowser();
  let x: ExplorerPage | undefined;
  checkedAfterEach(() => x, () => (x = undefined));

  async function open(host: { badRegex?: string; delayMs?: number } = {}): Promise<ExplorerPage> {
    x = await ExplorerPage.open(env.browser, env.server, { width: 1100, height: 600, host });
    await x.send(initOf());
    await x.settle();
    return x;
  }

  async function fill(p: ExplorerPage, column: string, op: string, f: Fields): Promise<void> {
    await p.page.selectOption('.x-filter-form select[aria-label=Column]', column);
    await p.page.selectOption('.x-filter-form select[aria-label=Condition]', op);
    if (f.text !== undefined) await p.page.fill('.x-filter-form input[name=text]', f.text);
    if (f.min !== undefined) await p.page.fill('.x-filter-form input[name=min]', f.min);
    if (f.max !== undefined) await p.page.fill('.x-filter-form input[name=max]', f.max);
    if (f.caseSensitive) await p.page.check('.x-filter-form input[name=caseSensitive]');
    if (f.negate) await p.page.check('.x-filter-form input[name=negate]');
    await p.page.click('.x-filter-form .x-apply');
  }

  async function addFilter(p: ExplorerPage, column: string, op: string, f: Fields): Promise<void> {
    await p.page.click('.x-add-filter');
    await fill(p, column, op, f);
    await p.settle();
  }

  const cases: Array<[string, string, Fields, ExploreFilter]> = [
    ['city', 'contains', { text: 'os', caseSensitive: true, negate: true }, { column: 'city', op: 'contains', text: 'os', caseSensitive: true, negate: true }],
    ['city', 'startsWith', { text: 'Li' }, { column: 'city', op: 'startsWith', text: 'Li' }],
    ['note', 'regex', { text: '^note 1\\d+$' }, { column: 'note', op: 'regex', text: '^note 1\\d+$' }],
    ['city', 'in', { text: 'Oslo, Lima, Oslo' }, { column: 'city', op: 'in', values: ['Oslo', 'Lima'] }],
    ['amount', 'between', { min: '10', max: '20.5' }, { column: 'amount', op: 'between', min: 10, max: 20.5 }],
    ['amount', 'in', { text: '1, 2.5', negate: true }, { column: 'amount', op: 'in', values: ['1', '2.5'], negate: true }],
    ['day', 'between', { min: '2024-01-01', max: '2024-03-31' }, { column: 'day', op: 'between', min: '2024-01-01', max: '2024-03-31' }],
    ['seen_at', 'between', { min: '2024-01-01T08:00' }, { column: 'seen_at', op: 'between', min: '2024-01-01T08:00' }],
    ['note', 'missing', { negate: true }, { column: 'note', op: 'missing', negate: true }],
    ['paid', 'in', { text: 'true' }, { column: 'paid', op: 'in', values: ['true'] }],
  ];

  it('builds each kind of filter, counts the matching rows and refetches the grid', async () => {
    const p = await open();
    for (const [column, op, fields, want] of cases) {
      await p.clearPosted();
      await addFilter(p, column, op, fields);
      const counts = await p.postedOf('fetchCount');
      assert.deepEqual(counts.at(-1)?.query.filters.at(-1), want, `${column} ${op}`);
      const rows = await p.postedOf('fetchRows');
      assert.ok(rows.length > 0 && rows[0]?.offset === 0, 'the grid refetches from the top');
      assert.deepEqual(rows[0]?.query, counts.at(-1)?.query);
      assert.equal(await p.page.textContent('.x-count'), '1,234 of 10,000,000 rows match');
      assert.equal(await p.page.getAttribute('[role=grid]', 'aria-rowcount'), '1235');
      // One condition at a time: remove it again.
      await p.page.click('.x-chip-remove');
      await p.settle();
    }
    assert.equal(await p.page.textContent('.x-count'), '10,000,000 rows');
    assert.deepEqual((await p.postedOf('fetchRows')).at(-1)?.query.filters, []);
    assert.deepEqual((await p.postedOf('persist')).at(-1)?.query.filters, []);
  });

  it('offers the conditions that fit the column kind', async () => {
    const p = await open();
    await p.page.click('.x-add-filter');
    const ops = async (column: string): Promise<string[]> => {
      await p.page.selectOption('.x-filter-form select[aria-label=Column]', column);
      return p.page.$$eval('.x-filter-form select[aria-label=Condition] option', (o) => o.map((e) => (e as HTMLOptionElement).value));
    };
    assert.deepEqual(await ops('city'), ['contains', 'startsWith', 'regex', 'in', 'missing']);
    assert.deepEqual(await ops('amount'), ['between', 'in', 'missing']);
    assert.deepEqual(await ops('day'), ['between', 'missing']);
    assert.deepEqual(await ops('paid'), ['in', 'missing']);
    await p.page.selectOption('.x-filter-form select[aria-label=Column]', 'amount');
    await p.page.selectOption('.x-filter-form select[aria-label=Condition]', 'between');
    assert.equal(await p.page.isVisible('.x-filter-form input[name=negate]'), false, 'a range has no "not"');
  });

  it('flags a bad number, date or regex on its field and sends nothing', async () => {
    const p = await open();
    await p.clearPosted();
    const bad: Array<[string, string, Fields, string, RegExp]> = [
      ['amount', 'between', { min: '12,5x', max: '' }, 'min', /not a number/],
      ['amount', 'between', { min: '20', max: '10' }, 'max', /below the lower/],
      ['day', 'between', { min: '2024-13-45' }, 'min', /not a date/],
      ['city', 'regex', { text: '(unclosed' }, 'text', /Not a regular expression/],
      ['amount', 'in', { text: '1, two' }, 'text', /"two" is not a number/],
    ];
    for (const [column, op, fields, field, message] of bad) {
      await p.page.click('.x-add-filter').catch(() => undefined);
      await fill(p, column, op, fields);
      await p.flush();
      assert.equal(await p.page.getAttribute(`.x-filter-form input[name=${field}]`, 'aria-invalid'), 'true', `${column} ${op}`);
      assert.match(await p.page.textContent('#x-filter-invalid') ?? '', message);
      await p.page.click('.x-filter-form .x-cancel');
    }
    assert.deepEqual(await p.postedOf('fetchCount'), []);
    assert.deepEqual(await p.postedOf('fetchRows'), []);
    assert.equal(await p.page.$$eval('.x-chip', (c) => c.length), 0);
  });

  it('shows a service error (a regex DuckDB rejects) next to that filter, and edits it', async () => {
    const p = await open({ badRegex: 'x[[:alpha:]' });
    await addFilter(p, 'city', 'startsWith', { text: 'L' });
    await addFilter(p, 'note', 'regex', { text: 'x[[:alpha:]' });
    await p.settle();
    const chips = await p.page.$$eval('.x-chip', (c) => c.map((e) => ({ error: e.querySelector('.x-filter-error')?.textContent ?? null })));
    assert.deepEqual(chips, [{ error: null }, { error: 'Invalid regular expression: missing )' }]);
    assert.equal(await p.page.textContent('.x-count'), 'The view could not be read');
    // The failed view is not asked for again and again (each error used to trigger a refetch).
    const asked = (await p.postedOf('fetchRows')).length;
    await p.settle();
    await p.settle();
    assert.equal((await p.postedOf('fetchRows')).length, asked);
    // Editing the filter opens the form with its values; fixing it clears the error.
    await p.page.click('.x-chip:nth-child(2) .x-chip-text');
    assert.equal(await p.page.inputValue('.x-filter-form input[name=text]'), 'x[[:alpha:]');
    await p.page.fill('.x-filter-form input[name=text]', 'x[a-z]');
    await p.page.click('.x-filter-form .x-apply');
    await p.settle();
    assert.equal(await p.page.$$eval('.x-filter-error', (e) => e.length), 0);
    assert.deepEqual((await p.postedOf('fetchCount')).at(-1)?.query.filters.map((f) => f.op), ['startsWith', 'regex']);
  });

  it('shows "Counting…" until the count arrives', async () => {
    const p = await open({ delayMs: 300 });
    await p.page.click('.x-add-filter');
    await fill(p, 'city', 'contains', { text: 'o' });
    await p.flush();
    assert.equal(await p.page.textContent('.x-count'), 'Counting matching rows…');
    await p.settle();
    assert.equal(await p.page.textContent('.x-count'), '1,234 of 10,000,000 rows match');
  });

  it('while a large file is read: first rows only, progress, sort and filters disabled until ready', async () => {
    x = await ExplorerPage.open(env.browser, env.server, { width: 1100, height: 600 });
    const p = x;
    await p.send(initOf({}, { state: 'reading', rowCount: undefined }), { type: 'status', status: { state: 'reading', done: 50, total: 100 } });
    await p.settle();
    assert.equal(await p.page.isVisible('.x-progress'), true);
    assert.equal(await p.page.getAttribute('.x-progress', 'aria-valuenow'), '50');
    assert.match(await p.page.textContent('.x-progress-text') ?? '', /first rows only/);
    assert.equal(await p.page.isDisabled('.x-add-filter'), true);
    assert.equal(await p.page.isDisabled('.x-summary-toggle'), true);
    await p.clearPosted();
    await p.page.click('#x-h-2');
    await p.settle();
    assert.deepEqual((await p.postedOf('fetchRows')).filter((f) => f.query.sort.length > 0), [], 'no sort while reading');
    assert.equal(await p.page.getAttribute('#x-h-2', 'aria-sort'), null);
    assert.match(await p.page.textContent('.x-count') ?? '', /rows so far/);
    await p.send({ type: 'status', status: { state: 'ready', rowCount: 5_000_000 } });
    await p.settle();
    assert.equal(await p.page.isVisible('.x-progress'), false);
    assert.equal(await p.page.isDisabled('.x-add-filter'), false);
    assert.equal(await p.page.textContent('.x-count'), '5,000,000 rows');
    assert.equal(await p.page.getAttribute('[role=grid]', 'aria-rowcount'), '5000001');
    await p.page.click('#x-h-2');
    await p.settle();
    assert.deepEqual((await p.postedOf('fetchRows')).at(-1)?.query.sort, [{ column: 'amount', desc: false }]);
  });
});
