/**
 * A document answer as the panel shows it (headless Chromium, the real webview bundle, the real
 * engine's message): the quoted passage shows its section heading as a bold line, not as a list
 * item, and its list items with the document's numbers ("5." stays 5, not 1 or 7).
 */
import { strict as assert } from 'node:assert';
import { POLICY_MD } from '../engine/documents';
import { startRig } from '../engine/engineHarness';
import { answerOf, initMessage, respond, turnOf } from './builders';
import { PanelPage, usePanelBrowser } from './harness';

describe('answer panel (browser): quoted document passages', function () {
  this.timeout(60_000);
  const env = usePanelBrowser();

  it('shows the heading as a bold line and each list item with its own number', async () => {
    const rig = await startRig({ 'policy.md': POLICY_MD });
    const question = 'if a refund is over 1000 dollars, who has to sign off on it?';
    const message = (await rig.ask(question, ['policy.md'])).message;
    await rig.close();
    const panel = await PanelPage.open(env.browser, env.server, {});
    try {
      await panel.send(initMessage([turnOf('t1', question, answerOf([{ type: 'MESSAGE', content: message, ...respond }]))]));
      await panel.page.waitForSelector('.markdown blockquote');
      const shown = await panel.page.evaluate(() => {
        const quote = document.querySelector('.markdown blockquote') as HTMLElement;
        const items: string[] = [];
        for (const ol of quote.querySelectorAll('ol')) {
          const start = ol.hasAttribute('start') ? Number(ol.getAttribute('start')) : 1;
          [...ol.children].forEach((li, i) => items.push(`${start + i}. ${li.textContent?.trim()}`));
        }
        return { heading: quote.querySelector('p > strong')?.textContent, items };
      });
      assert.equal(shown.heading, 'Expense and refund policy › 2. Approvals');
      assert.deepEqual(shown.items, [
        '3. Refunds up to 200 dollars are approved by the support agent.',
        '4. Refunds between 200 and 1,000 dollars need a team lead.',
        '5. Refunds above $1,000 must be signed off by the finance director.',
      ]);
      assert.deepEqual(panel.pageErrors, []);
    } finally {
      await panel.close();
    }
  });
});
