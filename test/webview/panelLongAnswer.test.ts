/**
 * Long answers in the browser: only what is in view is rendered at once; the rest waits as
 * pending pages (their markdown source as plain text) that render when they come near the view
 * or, once no answer streams, in idle time, ending exactly like a full render.
 */
import { strict as assert } from 'node:assert';
import { answerOf, initMessage, respond, streamingTurn, turnOf } from './builders';
import { PanelPage, allPagesRendered, usePanelBrowser, closeCleanly } from './harness';
import { fragments, sampleMarkdown } from './markdownSample';

function finishedTurn(id: string, text: string) {
  return turnOf(id, `Question ${id}`, answerOf([{ type: 'MESSAGE', content: text, ...respond }]));
}

/** Pending pages that overlap the conversation's visible area, and all pending pages. */
function pendingPages(panel: PanelPage): Promise<{ inView: number; total: number }> {
  return panel.page.evaluate(() => {
    const view = (document.querySelector('.conversation') as HTMLElement).getBoundingClientRect();
    const pending = [...document.querySelectorAll('.md-pending')];
    const inView = pending.filter((p) => {
      const r = p.getBoundingClientRect();
      return r.bottom > view.top && r.top < view.bottom;
    });
    return { inView: inView.length, total: pending.length };
  });
}

describe('answer panel (browser): long answers', function () {
  this.timeout(120_000);
  const env = usePanelBrowser();
  let panel: PanelPage;
  afterEach(() => closeCleanly(panel));

  it('a re-opened long answer shows its end rendered at once and renders the rest in idle time, completely', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const text = sampleMarkdown(300_000, 8);
    await panel.send(initMessage([finishedTurn('d', text)]));
    const first = await pendingPages(panel);
    assert.ok(first.total > 10, `pages far from the view wait (${first.total} pending)`);
    assert.equal(first.inView, 0, 'nothing in view is left as source text');
    const lastPage = await panel.page.$$eval('[data-turn-id=d] .md-page', (ps) => ps[ps.length - 1]?.querySelector('h2, p, pre') !== null);
    assert.ok(lastPage, 'the last page is rendered markdown');

    await allPagesRendered(panel);
    const counts = await panel.page.evaluate(() => ({
      headings: document.querySelectorAll('[data-turn-id=d] .markdown h2').length,
      fences: document.querySelectorAll('[data-turn-id=d] .markdown pre.md-code').length,
      tables: document.querySelectorAll('[data-turn-id=d] .markdown table').length,
    }));
    const sections = text.split('\n').filter((l) => /^## \d+\. /.test(l)).length;
    assert.equal(counts.headings, sections, 'every section heading is rendered');
    assert.ok(counts.fences >= sections - 1 && counts.tables >= sections - 1, JSON.stringify(counts));
  });

  it('renders a pending page as soon as it is scrolled into view, even while another answer streams', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    await panel.send(initMessage([finishedTurn('old', sampleMarkdown(200_000, 3)), streamingTurn('s', 'Working on it. ')]));
    const before = await pendingPages(panel);
    assert.ok(before.total > 10);
    // The top of the old answer was never in view; idle rendering waits while 's' streams.
    await panel.page.evaluate(() => {
      (document.querySelector('.conversation') as HTMLElement).scrollTop = 0;
    });
    await panel.page.waitForFunction(() => {
      const first = document.querySelector('[data-turn-id=old] .md-page');
      return first !== null && !first.classList.contains('md-pending');
    });
    await panel.flush();
    const after = await pendingPages(panel);
    assert.equal(after.inView, 0, 'the pages in view were rendered');
    assert.ok(after.total > 5, `idle rendering held back while an answer streams (${after.total} pending)`);
    assert.ok(await panel.page.$eval('[data-turn-id=old] .md-page', (p) => /^1\. Revenue in /.test(p.querySelector('h2')?.textContent ?? '')));

    await panel.send({ type: 'answerPatch', turnId: 's', patch: { state: 'done' } });
    await allPagesRendered(panel);
  });

  it('renders pages within a screen of the view before they scroll into it', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    await panel.send(initMessage([finishedTurn('old', sampleMarkdown(200_000, 3)), streamingTurn('s', 'Working on it. ')]));
    // Bring a pending page to half a screen below the view: near enough to render, not yet visible.
    const target = await panel.page.evaluate(() => {
      const c = document.querySelector('.conversation') as HTMLElement;
      const pages = [...document.querySelectorAll('[data-turn-id=old] .md-page')];
      const i = Math.floor(pages.length / 2);
      const page = pages[i] as HTMLElement;
      const box = c.getBoundingClientRect();
      c.scrollTop += page.getBoundingClientRect().top - (box.bottom + box.height / 2);
      return { i, pending: page.classList.contains('md-pending') };
    });
    assert.equal(target.pending, true, 'the page was pending before');
    await panel.page.waitForTimeout(300);
    const after = await panel.page.evaluate((i) => {
      const c = (document.querySelector('.conversation') as HTMLElement).getBoundingClientRect();
      const page = document.querySelectorAll('[data-turn-id=old] .md-page')[i] as HTMLElement;
      return { belowView: page.getBoundingClientRect().top > c.bottom, pending: page.classList.contains('md-pending') };
    }, target.i);
    assert.deepEqual(after, { belowView: true, pending: false }, 'rendered while still below the view');
    await panel.send({ type: 'answerPatch', turnId: 's', patch: { state: 'done' } });
    await allPagesRendered(panel);
  });

  it('idle rendering waits while an answer streams, also one that arrives with long text (a resync mid-stream)', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    await panel.send(initMessage([streamingTurn('s', sampleMarkdown(100_000, 6))]));
    const before = await pendingPages(panel);
    assert.ok(before.total > 5 && before.inView === 0, JSON.stringify(before));
    await panel.page.waitForTimeout(1500);
    assert.equal((await pendingPages(panel)).total, before.total, 'nothing rendered in idle time while streaming');
    await panel.send({ type: 'answerPatch', turnId: 's', patch: { state: 'done' } });
    await allPagesRendered(panel);
  });

  it('a streaming turn replaced by its finished copy (not finished in place) does not hold back idle rendering', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    await panel.send(initMessage([finishedTurn('old', sampleMarkdown(150_000, 4)), streamingTurn('s', 'Working on it. ')]));
    assert.ok((await pendingPages(panel)).total > 5);
    // A resync or retry posts the whole turn: the streaming block leaves the document without finishing.
    await panel.send({ type: 'turn', turn: finishedTurn('s', 'Done, briefly.') });
    await allPagesRendered(panel);
    assert.equal((await pendingPages(panel)).total, 0);
  });

  it('a fast stream leaves pages it scrolled past pending, then ends exactly like the finished answer', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const text = sampleMarkdown(300_000, 12);
    const frags = fragments(text, 3000, 2);
    await panel.send(initMessage([streamingTurn('s'), finishedTurn('whole', text)]));
    const sawPending = await panel.page.evaluate(async (frags) => {
      let pending = 0;
      const growing = document.querySelector('[data-turn-id=s] .markdown') as HTMLElement;
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n instanceof Element && n.classList.contains('md-pending')) pending++;
      }).observe(growing, { childList: true });
      // 50 posts of about 100 characters per frame, every fragment its own message, in order.
      for (let i = 0; i < frags.length; i += 50) {
        for (let k = i; k < Math.min(i + 50, frags.length); k++) {
          window.postMessage({ type: 'answerPatch', turnId: 's', patch: { groups: [{ index: 0, appends: [{ block: 0, text: frags[k] }] }] } }, '*');
        }
        await new Promise((r) => requestAnimationFrame(r));
      }
      return pending;
    }, frags);
    assert.ok(sawPending > 0, 'text that streamed by faster than a render waited as pending pages');
    await panel.send({ type: 'answerPatch', turnId: 's', patch: { state: 'done' } });
    await allPagesRendered(panel);
    const [streamed, whole] = await panel.page.evaluate(() =>
      ['s', 'whole'].map((id) => (document.querySelector(`[data-turn-id=${id}] .markdown`) as HTMLElement).innerHTML),
    );
    assert.ok(streamed === whole, 'streamed and finished renders are identical');
    const plain = await panel.page.$eval('[data-turn-id=s] .markdown', (m) => m.textContent ?? '');
    assert.ok(plain.includes('1. Revenue in North America') && plain.length > 200_000);
  });
});
