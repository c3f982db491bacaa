/**
 * Re-opening a finished answer from history, for the panel benchmark: wall and main-thread time
 * from posting the `init` until the turn is painted with the text in view rendered, and the
 * idle-time rendering of the rest; against marked + DOMPurify over the whole text at once.
 */
import type { Browser } from 'playwright-core';
import { answerOf, initMessage, respond, turnOf } from '../test/webview/builders';
import { PanelPage, type PanelServer } from '../test/webview/harness';
import { backgroundRendering, naiveBundle, takeLongTasks, taskMs, watchLongTasks } from './panelMeasure';

export interface ReopenRun {
  /** Wall ms from posting the init to the turn painted with every page in view rendered. */
  wall: number;
  /** Main-thread ms in that time. */
  ms: number;
  longTasks: number[];
  background: { ms: number; longest: number };
}

/** Opens the panel on a session whose finished answer is `text` (as after a reload). */
export async function reopenOnce(browser: Browser, server: PanelServer, text: string): Promise<ReopenRun> {
  const panel = await PanelPage.open(browser, server, { height: 900 });
  try {
    const init = initMessage([turnOf('d', 'Summarize every region', answerOf([{ type: 'MESSAGE', content: text, ...respond }]))]);
    await panel.page.evaluate((m) => {
      (window as unknown as { reopen: () => Promise<number> }).reopen = async () => {
        const t0 = performance.now();
        window.postMessage(m, '*');
        const shown = (): boolean => {
          const c = document.querySelector('.conversation');
          if (!c || !document.querySelector('[data-turn-id=d] .md-tail')) return false;
          const view = c.getBoundingClientRect();
          for (const p of document.querySelectorAll('.md-pending')) {
            const r = p.getBoundingClientRect();
            if (r.bottom > view.top && r.top < view.bottom) return false;
          }
          return true;
        };
        do await new Promise((r) => requestAnimationFrame(r));
        while (!shown());
        // The frame that shows it: painted once this frame's tasks are done.
        await new Promise((r) => setTimeout(r, 0));
        return performance.now() - t0;
      };
    }, init);
    const cdp = await panel.page.context().newCDPSession(panel.page);
    await cdp.send('Performance.enable');
    await watchLongTasks(panel);
    const before = await taskMs(cdp);
    const wall = await panel.page.evaluate(() => (window as unknown as { reopen: () => Promise<number> }).reopen());
    const ms = (await taskMs(cdp)) - before;
    const longTasks = await takeLongTasks(panel);
    const background = await backgroundRendering(panel, cdp);
    const chars = await panel.page.$eval('[data-turn-id=d] .markdown', (m) => m.textContent?.length ?? 0);
    if (chars < text.length * 0.8) throw new Error(`the re-opened answer rendered only ${chars} characters`);
    if (panel.pageErrors.length > 0) throw new Error(`page errors: ${panel.pageErrors.join('; ')}`);
    return { wall, ms, longTasks, background };
  } finally {
    await panel.close();
  }
}

/** marked + DOMPurify over the whole finished text at once, in the same document: wall ms to painted. */
export async function naiveReopenOnce(browser: Browser, server: PanelServer, text: string): Promise<number> {
  const panel = await PanelPage.open(browser, server, { height: 900, bundle: false });
  try {
    await panel.page.evaluate(await naiveBundle());
    return await panel.page.evaluate(async (text) => {
      const app = document.getElementById('app') as HTMLElement;
      app.innerHTML = '<main class="conversation"><article class="turn"><div class="response"><div class="block message markdown"></div></div></article></main>';
      const el = app.querySelector('.markdown') as HTMLElement;
      const render = (window as unknown as { naiveRender: (el: HTMLElement, t: string) => void }).naiveRender;
      const t0 = performance.now();
      render(el, text);
      await new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => setTimeout(r, 0));
      return performance.now() - t0;
    }, text);
  } finally {
    await panel.close();
  }
}
