/**
 * The panel's data selector (headless Chromium, real CSP): it names the dataset and files the next
 * question uses, says plainly when none are selected, asks the host to choose (disabled while an
 * answer runs), and follows the host's updates.
 */
import { strict as assert } from 'node:assert';
import { initMessage, streamingTurn } from './builders';
import { PanelPage, usePanelBrowser } from './harness';

describe('answer panel (browser): data selector', function () {
  this.timeout(60_000);
  const env = usePanelBrowser();
  let panel: PanelPage | undefined;
  afterEach(async function () {
    if (panel) {
      assert.deepEqual(panel.pageErrors, [], 'no page errors');
      assert.deepEqual(await panel.cspViolations(), [], 'no CSP violations');
      await panel.close();
      panel = undefined;
    }
  });

  const bar = (p: PanelPage): Promise<{ label: string; button: string; empty: boolean; disabled: boolean; title: string }> =>
    p.page.evaluate(() => {
      const el = document.querySelector('.data-bar') as HTMLElement;
      const btn = el.querySelector('button') as HTMLButtonElement;
      const label = el.querySelector('.data-bar-label') as HTMLElement;
      return { label: label.textContent ?? '', button: btn.textContent ?? '', empty: el.classList.contains('empty'), disabled: btn.disabled, title: label.title };
    });

  it('names the data of the next question and asks the host to change it', async () => {
    const p = await PanelPage.open(env.browser, env.server, { theme: 'dark', height: 600 });
    panel = p;
    await p.send(initMessage([], { data: { dataset: 'ws', files: ['sales.csv', 'targets.xlsx'], allFiles: false } }));
    assert.deepEqual(await bar(p), { label: 'ws · sales.csv, targets.xlsx', button: 'Change…', empty: false, disabled: false, title: 'ws: sales.csv, targets.xlsx' });
    await p.page.click('.data-bar button');
    assert.deepEqual(await p.postedOf('chooseData'), [{ type: 'chooseData' }]);

    await p.send({ type: 'dataScope', data: { dataset: 'ws', files: ['a.csv', 'b.csv', 'c.csv', 'd.csv', 'e.csv'], allFiles: true } });
    assert.equal((await bar(p)).label, 'ws · all 5 files');
    await p.send({ type: 'dataScope', data: { dataset: 'ws', files: ['a.csv', 'b.csv', 'c.csv', 'd.csv', 'e.csv'], allFiles: false } });
    assert.equal((await bar(p)).label, 'ws · a.csv, b.csv, c.csv and 2 more');
    await p.screenshot('data-bar.png');
  });

  it('says when no data is selected and offers to choose it', async () => {
    const p = await PanelPage.open(env.browser, env.server, { theme: 'light', height: 600 });
    panel = p;
    await p.send(initMessage([], { data: { files: [], allFiles: false } }));
    const b = await bar(p);
    assert.equal(b.empty, true);
    assert.match(b.label, /No data selected/);
    assert.equal(b.button, 'Choose Data…');
    await p.screenshot('data-bar-empty.png');
  });

  it('cannot change the data while an answer runs', async () => {
    const p = await PanelPage.open(env.browser, env.server, { theme: 'dark', height: 600 });
    panel = p;
    await p.send(initMessage([streamingTurn('t1')], { data: { dataset: 'ws', files: ['sales.csv'], allFiles: true } }));
    assert.equal((await bar(p)).disabled, true);
    assert.equal((await bar(p)).label, 'ws · sales.csv');
    await p.send({ type: 'answerPatch', turnId: 't1', patch: { state: 'done' } });
    assert.equal((await bar(p)).disabled, false);
  });
});
