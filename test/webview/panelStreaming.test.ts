/**
 * Streaming in the browser: 10k MESSAGE fragments end in exactly the text (and exactly the DOM)
 * a finished answer renders to, and appending touches only the growing block: finished chunks
 * are never re-rendered and nothing else in the conversation changes. Text that streams by
 * faster than a render may be left as a pending page (its source as plain text, mdPages.ts) and
 * rendered later; the comparisons are made once the panel has rendered every page.
 */
import { strict as assert } from 'node:assert';
import { initMessage, respond, sampleAnswer, streamingTurn, turnOf } from './builders';
import { PanelPage, allPagesRendered, usePanelBrowser, closeCleanly } from './harness';
import { fragments, plainProse, sampleMarkdown } from './markdownSample';

/**
 * Feeds `frags` to turn `turnId` as answerPatch appends, in irregular batches that sometimes
 * yield to a task and sometimes to an animation frame, like posts from a coalescing host.
 */
async function stream(panel: PanelPage, turnId: string, frags: string[]): Promise<void> {
  await panel.page.evaluate(
    async ({ turnId, frags }) => {
      let i = 0;
      let seed = 11;
      while (i < frags.length) {
        seed = (seed * 16807) % 2147483647;
        const burst = 1 + (seed % 60);
        for (let k = 0; k < burst && i < frags.length; k++, i++) {
          const patch = { groups: [{ index: 0, appends: [{ block: 0, text: frags[i] }] }] };
          window.dispatchEvent(new MessageEvent('message', { data: { type: 'answerPatch', turnId, patch } }));
        }
        await new Promise<void>((resolve) => (seed % 3 === 0 ? requestAnimationFrame(() => resolve()) : setTimeout(resolve, 0)));
      }
    },
    { turnId, frags },
  );
}

describe('answer panel (browser): streaming', function () {
  this.timeout(120_000);
  const env = usePanelBrowser();
  let panel: PanelPage;
  afterEach(() => closeCleanly(panel));

  it('10k fragments of plain prose end with exactly the text', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const text = plainProse(1500);
    const frags = fragments(text, 10_000);
    assert.equal(frags.join(''), text);
    await panel.send(initMessage([streamingTurn('s1')]));
    await stream(panel, 's1', frags);
    await panel.send({ type: 'answerPatch', turnId: 's1', patch: { state: 'done' } });
    await allPagesRendered(panel);
    const rendered = await panel.page.$$eval('[data-turn-id=s1] .markdown p', (ps) => ps.map((p) => p.textContent).join('\n\n'));
    assert.equal(rendered.length, text.length);
    assert.ok(rendered === text, 'the rendered paragraphs are exactly the streamed text');
  });

  it('10k fragments of rich markdown render exactly like the finished answer', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const text = sampleMarkdown(400_000, 5);
    const frags = fragments(text, 10_000, 9);
    const finished = turnOf('whole', 'Same answer, not streamed', {
      jobId: 'job-whole', state: 'done', triggers: [],
      groups: [{ id: 'r1', name: 'Conclusions', stage: 'Respond', blocks: [{ type: 'MESSAGE', content: text, ...respond }] }],
    });
    await panel.send(initMessage([streamingTurn('s1'), finished]));
    await stream(panel, 's1', frags);
    await panel.send({ type: 'answerPatch', turnId: 's1', patch: { state: 'done' } });
    await allPagesRendered(panel);
    const [streamed, whole] = await panel.page.evaluate(() =>
      ['s1', 'whole'].map((id) => (document.querySelector(`[data-turn-id=${id}] .markdown`) as HTMLElement).innerHTML),
    );
    assert.ok(streamed && whole);
    assert.ok(streamed.length > 400_000);
    assert.ok(streamed === whole, 'streamed and finished renders are identical');
    const stats = await panel.page.evaluate(() => ({
      pages: document.querySelectorAll('[data-turn-id=s1] .md-page').length,
      links: document.querySelectorAll('[data-turn-id=s1] a.md-link[data-href^="https://example.com/r/"]').length,
      code: document.querySelectorAll('[data-turn-id=s1] pre.md-code .hljs-built_in, [data-turn-id=s1] pre.md-code .hljs-string').length,
    }));
    assert.ok(stats.pages > 50, `finished blocks were laid into pages (${stats.pages})`);
    assert.ok(stats.links > 100 && stats.code > 100);
  });

  it('re-renders only the growing block: finished chunks and other turns are never touched', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const text = sampleMarkdown(120_000, 7);
    const frags = fragments(text, 3000, 4);
    await panel.send(initMessage([turnOf('old', 'earlier question', sampleAnswer('job-old')), streamingTurn('s1')]));
    await stream(panel, 's1', frags.slice(0, 300));
    const outside = await panel.page.evaluate(async () => {
      const growing = document.querySelector('[data-turn-id=s1] .markdown') as HTMLElement;
      const first = growing.querySelector('.md-page > *') as HTMLElement & { marker?: number };
      first.marker = 42;
      const w = window as unknown as { outside: string[]; removedChunks: number; firstChunk: unknown };
      w.outside = [];
      w.removedChunks = 0;
      w.firstChunk = first;
      new MutationObserver((records) => {
        for (const r of records) {
          if (!growing.contains(r.target)) w.outside.push(`${r.type} ${(r.target as Element).className ?? r.target.nodeName}`);
          // Finished content may only gain nodes at the end of a page; nothing in it is ever removed or changed.
          // The one exception is a pending page being rendered once: its plain source text (text
          // nodes only) is replaced and it loses the md-pending class.
          const inPage = (r.target instanceof Element ? r.target : r.target.parentElement)?.closest('.md-page');
          const firstRender = r.target === inPage && (
            (r.type === 'childList' && [...r.removedNodes].every((n) => n.nodeType === Node.TEXT_NODE)) ||
            (r.type === 'attributes' && r.attributeName === 'class' && (r.oldValue ?? '').includes('md-pending')));
          if (inPage && !firstRender && (r.type !== 'childList' || r.removedNodes.length > 0 || r.target !== inPage)) w.removedChunks++;
        }
      }).observe(document.querySelector('.conversation') as HTMLElement, { subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true });
      return null;
    });
    assert.equal(outside, null);
    await stream(panel, 's1', frags.slice(300));
    await panel.flush();
    const result = await panel.page.evaluate(() => {
      const w = window as unknown as { outside: string[]; removedChunks: number; firstChunk: HTMLElement & { marker?: number } };
      return { outside: w.outside, removed: w.removedChunks, same: w.firstChunk.marker === 42 && w.firstChunk.isConnected };
    });
    assert.deepEqual(result.outside, [], 'appends changed nothing outside the growing MESSAGE block');
    assert.equal(result.removed, 0, 'no finished content was re-rendered or changed');
    assert.ok(result.same, 'the first finished node is the same node it was');
  });

  it('a new block after the growing message starts a new growing block (fold semantics)', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    await panel.send(initMessage([streamingTurn('s1', 'Before the table. ')]));
    await panel.send(
      { type: 'answerPatch', turnId: 's1', patch: { groups: [{ index: 0, appends: [{ block: 0, text: 'More.' }], blocks: [{ type: 'TABLE', content: { url: 'https://f/t.csv', name: 't.csv' }, ...respond }, { type: 'MESSAGE', content: 'After ', ...respond }] }] } },
      { type: 'answerPatch', turnId: 's1', patch: { groups: [{ index: 0, appends: [{ block: 2, text: 'the table.' }] }], state: 'done' } },
    );
    const texts = await panel.page.$$eval('[data-turn-id=s1] .response .block', (bs) => bs.map((b) => `${b.classList[1]}:${b.textContent?.trim().slice(0, 40)}`));
    assert.deepEqual(texts, ['message:Before the table. More.', 'table-block:t.csvDownloading the table…', 'message:After the table.']);
  });
});
