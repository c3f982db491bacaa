/**
 * Turns that follow others (issue 24): a chip on an earlier turn leads visibly to the turn it
 * adds (the view follows it, and the new turn names the turn it refines, with a link back), and
 * a cancelled turn offers Retry like a failed one. Screenshots in three themes in test-artifacts/.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import type { Turn } from '../../src/shared/protocol';
import { initMessage, patchMessage, sampleAnswer, streamingTurn, turnOf } from './builders';
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
    ]));
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
    // Streaming keeps it in view, as for a typed question.
    await p.send(patchMessage('t4', { groups: [{ index: 0, appends: [{ block: 0, text: 'March was best.\n\n'.repeat(60) }] }] }));
    await p.flush();
    assert.equal(await inView(p, '[data-turn-id=t4] .turn-status'), true, 'the view follows the streaming answer');
    // The link leads back to the turn it refines.
    await p.send(patchMessage('t4', { state: 'done' }));
    await p.page.evaluate(() => document.querySelector('[data-turn-id=t4] .refines-link')?.scrollIntoView());
    await p.page.click('[data-turn-id=t4] .refines-link');
    await p.flush();
    assert.equal(await inView(p, '[data-turn-id=t1] .question'), true, 'the refined turn is brought into view');
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
