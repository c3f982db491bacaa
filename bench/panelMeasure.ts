/** Measuring helpers shared by the panel benchmarks (panelBench.ts, panelReopen.ts). */
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import type { CDPSession } from 'playwright-core';
import type { PanelPage } from '../test/webview/harness';

/** Main-thread ms so far: CDP TaskDuration (script, style, layout, paint and GC). */
export async function taskMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
}

/** CPU ms of the renderer's main thread so far (CDP ThreadTime): unlike TaskDuration, it does not
 * grow when other processes on the machine take the CPU away mid-task. */
export async function threadMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((m) => m.name === 'ThreadTime')?.value ?? 0) * 1000;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

type LongTaskWindow = Window & { longTasks?: number[] };

/** Starts recording the page's long tasks (over 50 ms) into `window.longTasks`. */
export async function watchLongTasks(panel: PanelPage): Promise<void> {
  await panel.page.evaluate(() => {
    const w = window as LongTaskWindow;
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks?.push(e.duration);
    }).observe({ type: 'longtask' });
  });
}

/** The long tasks recorded since the last call (entries arrive a task late, so wait one). */
export async function takeLongTasks(panel: PanelPage): Promise<number[]> {
  return panel.page.evaluate(async () => {
    await new Promise((r) => setTimeout(r, 0));
    const w = window as LongTaskWindow;
    return (w.longTasks ?? []).splice(0);
  });
}

/** Main-thread ms (and long tasks) until the lazy queue has rendered every pending page. */
export async function backgroundRendering(panel: PanelPage, cdp: CDPSession): Promise<{ ms: number; longest: number }> {
  await takeLongTasks(panel);
  const before = await taskMs(cdp);
  await panel.page.evaluate(async () => {
    while (document.querySelector('.md-pending')) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  const ms = (await taskMs(cdp)) - before;
  return { ms, longest: Math.max(0, ...(await takeLongTasks(panel))) };
}

let naiveCode: Promise<string> | undefined;

/** marked + DOMPurify, nothing else, as one script the bench evaluates in the page. */
export function naiveBundle(): Promise<string> {
  naiveCode ??= esbuild
    .build({
      stdin: {
        contents: `
          import { Marked } from 'marked';
          import DOMPurify from 'dompurify';
          const marked = new Marked({ gfm: true, async: false });
          window.naiveRender = (el, text) => { el.innerHTML = DOMPurify.sanitize(marked.parse(text)); };
        `,
        resolveDir: join(__dirname, '..'),
        loader: 'js',
      },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      logLevel: 'error',
    })
    .then((r) => r.outputFiles[0]?.text ?? '');
  return naiveCode;
}
