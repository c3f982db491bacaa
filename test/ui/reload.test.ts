/**
 * A window reload with the Team Data views open (issue 24 item 13), in code-server driven by
 * Playwright. Until the extension has activated the views have no data provider; VS Code then
 * showed our welcome text ("No datasets yet", "No sessions yet") for seconds, which is false for a
 * user with data, and before that, until it has read the extension's contributions, its own
 * "There is no data provider registered…". The views now say "Starting Team Data Analysis…"
 * until the trees answer. The span VS Code shows its own message is printed (a figure): it falls
 * before any of the extension's contributions are known, so the extension cannot shorten it.
 */
import { strict as assert } from 'node:assert';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo, useExtensionWorkbench } from './harness/extensionUnderTest';
import { saveScreenshot } from './harness/workbench';

interface Sample {
  t: number;
  noProvider: boolean;
  welcome: string;
  rows: string;
}

describe('window reload with the Team Data views open (Playwright)', function () {
  this.timeout(8 * 60_000);
  const ui = useExtensionWorkbench('reload');

  it('the views say the extension is starting, never "No datasets yet", until the trees answer', async () => {
    const { page } = await ui.open('reload-demo', (ws) => copyFileSync(join(repo, 'samples', 'sales.csv'), join(ws, 'sales.csv')));
    await page.locator('.activitybar .action-item a[aria-label^="Team Data"]').first().click();
    const sidebar = page.locator('.part.sidebar');
    await sidebar.locator('.monaco-list-row, .welcome-view-content').first().waitFor({ state: 'visible', timeout: 120_000 });
    for (let round = 1; round <= 2; round++) {
      const started = Date.now();
      await page.reload();
      const samples: Sample[] = [];
      // Until a tree row (the provider answered: "Starting the local service…" or data) shows.
      for (;;) {
        // No named functions inside: tsx wraps them in a helper the workbench page does not have.
        const [message, welcome, rows] = await page.evaluate((sels) => sels.map((sel) => [...document.querySelectorAll(`.part.sidebar ${sel}`)]
          .map((e) => (e.textContent ?? '').trim()).filter(Boolean).join(' | ')), ['.tree-explorer-viewlet-tree-view .message:not(.hide)', '.welcome-view-content', '.tree-explorer-viewlet-tree-view .monaco-list-row'])
          .catch(() => ['', '', '']);
        const s = { noProvider: /no data provider registered/.test(message ?? ''), welcome: welcome ?? '', rows: rows ?? '' };
        samples.push({ t: Date.now() - started, ...s });
        if (s.rows !== '') break;
        assert.ok(Date.now() - started < 120_000, `no tree row within 2 minutes: ${JSON.stringify(samples.slice(-3))}`);
        if (s.welcome.startsWith('Starting Team Data')) await saveScreenshot(page, 'reload-starting').catch(() => undefined);
        await new Promise((r) => setTimeout(r, 25));
      }
      const claims = samples.filter((x) => /No datasets yet|No sessions yet/.test(x.welcome));
      const changes = samples.filter((x, i) => i === 0 || JSON.stringify({ ...x, t: 0 }) !== JSON.stringify({ ...samples[i - 1], t: 0 })).map((x) => `+${x.t} ms ${x.noProvider ? '[no data provider] ' : ''}welcome: ${x.welcome.slice(0, 40)} rows: ${x.rows}`);
      assert.deepEqual(claims.map((x) => `+${x.t} ms: ${x.welcome.slice(0, 60)}`), [], `before the trees answered, a view claimed there was nothing:\n${changes.join('\n')}`);
      // Visible only while no welcome text covers it.
      const shown = samples.filter((x) => x.noProvider && x.welcome === '');
      const span = shown.length > 0 ? (shown[shown.length - 1] as Sample).t - (shown[0] as Sample).t : 0;
      console.log(`      reload ${round}: VS Code's "no data provider" message for ~${span} ms (before our contributions were read); "Starting Team Data Analysis…" in ${samples.filter((x) => x.welcome.startsWith('Starting Team Data')).length} of ${samples.length} samples; first tree row after ${(samples[samples.length - 1] as Sample).t} ms`);
    }
  });
});
