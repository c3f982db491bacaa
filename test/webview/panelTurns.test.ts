/**
 * Turns that follow others (issue 24): a chip on an earlier turn leads visibly to the turn it
 * adds (the view follows it, and the new turn names the turn it refines, with a link back), and
 * a cancelled turn offers Retry like a failed one. Screenshots in three themes in test-artifacts/.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { renderChart } from '../../src/server/engine/charts';
import { fileKeyOf, type Turn } from '../../src/shared/protocol';
import { initMessage, patchMessage, respond, sampleAnswer, streamingTurn, turnOf } from './builders';
import { PanelPage, usePanelBrowser } from './harness';
import type { ThemeName } from './fixtures/themes';

/** Is the element (its top part) inside the conversation's visible area? */
async function inView(p: PanelPage, selector: string): Promise<boolean> {
  return p.page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const box = document.querySelector('.conversation')?.getBoundingClientRect();
    if (!el || !box) return false;
    const r = el.getBoundingClientRect();
    return r.top >= box.top - 1 && r.top < box.bottom - 20;
  }, selector);
}

describe('answer panel (browser): follow-ups of earlier turns and cancelled turns', function () {
  this.timeout(60_000);
  const env = usePanelBrowser();
  let panel: PanelPage | undefined;
  afterEach(async () => {
    if (!panel) return;
    assert.deepEqual(panel.pageErrors, [], 'no page errors');
    assert.deepEqual(await panel.cspViolations(), [], 'no CSP violations');
    await panel.close();
    panel = undefined;
  });

  /** Three answered turns, scrolled to the first one's chips (far above the end). */
  async function atFirstTurnsChips(theme: ThemeName = 'dark'): Promise<PanelPage> {
    panel = await PanelPage.open(env.browser, env.server, { theme, height: 700 });
    const p = panel;
    await p.send(initMessage([
      turnOf('t1', 'What is the revenue by region?', sampleAnswer('job-1')),
      turnOf('t2', 'And by channel?', sampleAnswer('job-2')),
      turnOf('t3', 'Which product sells best?', sampleAnswer('job-3')),
    ], { resourceRoots: [`${env.server.origin}/cache/`] }));
    await p.page.evaluate(() => document.querySelector('[data-turn-id=t1] .questions')?.scrollIntoView({ block: 'center' }));
    await p.flush();
    assert.equal(await inView(p, '[data-turn-id=t1] .questions .chip'), true);
    return p;
  }

  /** What the host does on the chip's askFollowUp: a new turn naming the turn it came from. */
  function followUp(question: string): Turn {
    return { ...streamingTurn('t4', ''), question, refines: { turnId: 't1', question: 'What is the revenue by region?' } };
  }

  it('a chip on an earlier turn: the view follows the new turn, which names the turn it refines', async () => {
    // Defect: the new turn was added far below and the view stayed put, so the chip seemed to do nothing.
    const p = await atFirstTurnsChips();
    await p.clearPosted();
    await p.page.click('[data-turn-id=t1] .questions .chip >> nth=0');
    assert.deepEqual(await p.postedOf('askFollowUp'), [{ type: 'askFollowUp', question: 'Which month was best?', fromTurnId: 't1' }]);
    await p.send({ type: 'turn', turn: followUp('Which month was best?') });
    await p.flush();
    assert.equal(await inView(p, '[data-turn-id=t4] .question'), true, 'the new turn is in view');
    assert.equal(await p.page.textContent('[data-turn-id=t4] .refines'), 'Follow-up to: What is the revenue by region?');
    assert.equal(await p.page.getAttribute('[data-turn-id=t4] .refines-link', 'title'), 'What is the revenue by region?');
    // Streaming keeps its top in view ("Follow-up to", the question), not the answer's end as for
    // a typed question: an answer longer than the view would carry them off-screen (issue 24 walk).
    await p.send(patchMessage('t4', { groups: [{ index: 0, appends: [{ block: 0, text: 'March was best.\n\n'.repeat(60) }] }] }));
    await p.flush();
    assert.equal(await inView(p, '[data-turn-id=t4] .refines'), true, 'the view keeps the new turn\'s top in view');
    assert.equal(await inView(p, '[data-turn-id=t4] .question'), true, 'and its question');
    // The link leads back to the turn it refines.
    await p.send(patchMessage('t4', { state: 'done' }));
    await p.page.evaluate(() => document.querySelector('[data-turn-id=t4] .refines-link')?.scrollIntoView());
    await p.page.click('[data-turn-id=t4] .refines-link');
    await p.flush();
    assert.equal(await inView(p, '[data-turn-id=t1] .question'), true, 'the refined turn is brought into view');
  });

  it('a chip on an earlier turn: the new turn\'s top stays in view while its steps, text, table and chart arrive', async () => {
    // Walk defect (issue 24): the view followed the answer's end while it streamed, and the table
    // and chart arrived after the last scroll, so it ended mid-turn with "Follow-up to" off-screen.
    const p = await atFirstTurnsChips();
    await p.page.click('[data-turn-id=t1] .questions .chip >> nth=0');
    await p.send({ type: 'turn', turn: { ...followUp('Which month was best?'), answer: { jobId: 'job-4', state: 'streaming', triggers: [], groups: [] } } });
    await p.flush();
    assert.equal(await inView(p, '[data-turn-id=t4] .refines'), true, 'the new turn is in view');
    const table = { type: 'TABLE' as const, content: { url: 'https://files.example/t/month.csv?sig=4', name: 'month.csv' }, ...respond };
    const image = { type: 'IMAGE' as const, content: { url: 'https://files.example/i/month.png?sig=4', name: 'month chart.png' }, ...respond };
    const steps = [0, 1, 2].map((i) => ({ index: i, id: `a${i}`, name: `Step ${i}`, stage: 'Analyze' as const, status: 'done' as const, blocks: [{ type: 'CODE' as const, content: '```sql\nSELECT 1\n```'.repeat(1), groupId: `a${i}`, groupName: `Step ${i}`, stage: 'Analyze' as const }] }));
    for (const g of steps) {
      await p.send(patchMessage('t4', { groups: [g] }));
      await p.flush();
    }
    await p.send(patchMessage('t4', { groups: [{ index: 3, id: 'r1', name: 'Conclusions', stage: 'Respond', blocks: [{ type: 'MESSAGE', content: '', ...respond }] }] }));
    for (let i = 0; i < 12; i++) {
      await p.send(patchMessage('t4', { groups: [{ index: 3, appends: [{ block: 0, text: `March was best, month ${i} of the year.\n\n` }] }] }));
      await p.flush();
      assert.equal(await inView(p, '[data-turn-id=t4] .refines'), true, `"Follow-up to" stays in view while the text streams (${i})`);
    }
    await p.send(patchMessage('t4', { groups: [{ index: 3, blocks: [table, image] }] }));
    await p.send(patchMessage('t4', { state: 'done' }));
    await p.flush();
    const csv = ['month,total_revenue', ...Array.from({ length: 24 }, (_, i) => `2024-${String(1 + (i % 12)).padStart(2, '0')}-01,${1000 + i * 37.5}`)].join('\n');
    const svg = await renderChart({ kind: 'line', title: 'Total revenue by month', x: 'month', y: 'total_revenue', xType: 'temporal', rows: csv.split('\n').slice(1).map((l) => ({ month: l.split(',')[0], total_revenue: Number(l.split(',')[1]) })) });
    await p.send(
      { type: 'tableData', turnId: 't4', fileKey: fileKeyOf(table), data: { status: 'ready', csv } },
      { type: 'imageData', turnId: 't4', fileKey: fileKeyOf(image), data: { status: 'ready', uri: `${env.server.origin}/cache/chart.png`, svg } },
    );
    await p.page.waitForSelector('[data-turn-id=t4] svg.chart-svg');
    await p.flush();
    const box = await p.page.$eval('[data-turn-id=t4]', (el) => el.getBoundingClientRect().height);
    assert.ok(box > 1000, `the new turn is taller than the view (${box}px)`);
    assert.equal(await inView(p, '[data-turn-id=t4] .refines'), true, '"Follow-up to" is in view once the turn settled');
    assert.equal(await inView(p, '[data-turn-id=t4] .question'), true, 'and so is the question');
    // Scrolling by the user lets go: later content no longer moves the view.
    const c = await p.page.$('.conversation');
    const cb = await c?.boundingBox();
    assert.ok(cb);
    await p.page.mouse.move(cb.x + cb.width / 2, cb.y + cb.height / 2);
    await p.page.mouse.wheel(0, 300);
    await p.flush();
    await p.page.waitForTimeout(200);
    const top = await p.page.$eval('.conversation', (c) => c.scrollTop);
    await p.send(patchMessage('t4', { triggers: [] }));
    await p.send({ type: 'tableData', turnId: 't4', fileKey: fileKeyOf(table), data: { status: 'ready', csv } });
    await p.flush();
    assert.equal(await p.page.$eval('.conversation', (c) => c.scrollTop), top, 'the user\'s scroll position is kept');
  });

  it('a follow-up of a chip\'s turn: "Follow-up to" and the heading read plain, as the chips did', async () => {
    // Walk defect (issue 24): the engine's sentence showed with its backticks and quotes.
    panel = await PanelPage.open(env.browser, env.server);
    const p = panel;
    const chipOfChip = 'total `revenue` by month of `order_date` where `region` is "Asia"';
    await p.send(initMessage([
      turnOf('t1', 'total `revenue` by month of `order_date`', sampleAnswer('job-1')),
      { ...turnOf('t2', chipOfChip, sampleAnswer('job-2')), refines: { turnId: 't1', question: 'total `revenue` by month of `order_date`' } },
    ]));
    await p.send({ type: 'turn', turn: { ...streamingTurn('t3', ''), question: `${chipOfChip} and in 2024`, refines: { turnId: 't2', question: chipOfChip } } });
    await p.flush();
    assert.equal(await p.page.textContent('[data-turn-id=t2] .refines'), 'Follow-up to: total revenue by month of order_date');
    assert.equal(await p.page.textContent('[data-turn-id=t3] .refines'), 'Follow-up to: total revenue by month of order_date where region is Asia');
    assert.equal(await p.page.getAttribute('[data-turn-id=t3] .refines-link', 'title'), 'total revenue by month of order_date where region is Asia');
    assert.equal(await p.page.textContent('[data-turn-id=t2] .question'), 'Question: total revenue by month of order_date where region is Asia');
    assert.equal(await p.page.textContent('[data-turn-id=t3] .question'), 'Question: total revenue by month of order_date where region is Asia and in 2024');
    // A typed question keeps its names marked as code.
    assert.equal(await p.page.$$eval('[data-turn-id=t1] .question code', (e) => e.map((c) => c.textContent).join()), 'revenue,order_date');
  });

  it('a turn of the history, or one asked without a chip, names no earlier turn', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    await panel.send(initMessage([{ ...turnOf('h:1', 'What is the revenue by region?', sampleAnswer('job-1')), fromHistory: true }]));
    await panel.send({ type: 'turn', turn: streamingTurn('t1', '') });
    assert.equal(await panel.page.$$eval('.refines', (e) => e.length), 0);
  });

  it('a cancelled turn offers Retry, as a failed one does', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const p = panel;
    await p.send(initMessage([turnOf('t1', 'first', sampleAnswer('job-1', 'cancelled')), turnOf('h:job-2', 'second', { ...sampleAnswer('job-2', 'cancelled'), groups: [] })]));
    assert.match((await p.page.textContent('[data-turn-id=t1] .status-cancelled')) ?? '', /Cancelled/);
    await p.clearPosted();
    await p.page.click('[data-turn-id=t1] .turn-status button:has-text("Retry")');
    await p.page.click('[data-turn-id="h:job-2"] .turn-status button:has-text("Retry")');
    assert.deepEqual(await p.postedOf('retry'), [{ type: 'retry', turnId: 't1' }, { type: 'retry', turnId: 'h:job-2' }]);
  });

  for (const theme of ['light', 'dark', 'highContrast'] as const) {
    it(`a follow-up of an earlier turn looks right in the ${theme} theme (screenshot)`, async () => {
      const p = await atFirstTurnsChips(theme);
      await p.send({ type: 'turn', turn: followUp('Which month was best?') });
      await p.send(patchMessage('t4', { groups: [{ index: 0, appends: [{ block: 0, text: 'March was best, with **1,240** orders.' }] }], state: 'cancelled' }));
      await p.flush();
      const color = await p.page.$eval('.refines-question', (e) => getComputedStyle(e).color);
      const question = await p.page.$eval('.question', (e) => getComputedStyle(e).color);
      assert.notEqual(color, question, 'the link reads as a link, not as the question');
      const file = await p.screenshot(`panel-follow-up-${theme}.png`);
      assert.ok(existsSync(file));
    });
  }
});
