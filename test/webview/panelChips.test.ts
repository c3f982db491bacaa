/**
 * Follow-up chips read as plain questions (issue 24, point 4): the engine's sentences carry
 * backticks around column names and quotes around values, which a chip no longer shows; two
 * sentences that read alike are one chip; a long chip wraps instead of being cut, so chips that
 * differ only at the end look different; the tooltip shows the whole plain question, and a click
 * asks the exact sentence. Step names and the question heading show names as code, never backticks.
 */
import { strict as assert } from 'node:assert';
import { answerOf, initMessage, respond, turnOf } from './builders';
import { PanelPage, usePanelBrowser } from './harness';

const EXACT = [
  'total `revenue` by month of `order_date` where `region` is "Asia" and in 2024',
  'total `revenue` by month of `order_date` where `region` is "Asia" and in 2024 and where `country` is "Argentina"',
  'total `revenue` by month of `order_date` where `region` is "Asia" and in 2024 and where `country` is "Japan"',
  'total revenue by month of order_date where region is Asia and in 2024',
];

describe('answer panel (browser): follow-up chips read as plain questions', function () {
  this.timeout(60_000);
  const env = usePanelBrowser();
  let panel: PanelPage;
  before(async () => {
    panel = await PanelPage.open(env.browser, env.server, { height: 900, width: 700 });
    const answer = answerOf([
      { type: 'MESSAGE', content: 'Read the question.', groupId: 'g1', groupName: 'Read the question as: Total `revenue` by `region`', stage: 'Analyze' },
      { type: 'MESSAGE', content: 'Total revenue by month in Asia.', ...respond },
      { type: 'QUESTIONS', content: EXACT, groupId: '-1', stage: 'Respond' },
    ]);
    await panel.send(initMessage([turnOf('t1', 'distribution of `revenue`', answer)]));
    await panel.clearPosted();
  });
  after(async () => {
    assert.deepEqual(panel.pageErrors, []);
    await panel.close();
  });

  it('shows no backticks or quotes, and each sentence once', async () => {
    const labels = await panel.page.$$eval('.questions .chip-label', (els) => els.map((e) => e.textContent ?? ''));
    assert.deepEqual(labels, [
      'total revenue by month of order_date where region is Asia and in 2024',
      'total revenue by month of order_date where region is Asia and in 2024 and where country is Argentina',
      'total revenue by month of order_date where region is Asia and in 2024 and where country is Japan',
    ]);
  });

  it('wraps long chips instead of cutting them, so they never look the same', async () => {
    const cut = await panel.page.$$eval('.questions .chip-label', (els) => els.map((e) => e.scrollWidth > e.clientWidth + 1));
    assert.deepEqual(cut, [false, false, false]);
  });

  it('shows the whole plain question on hover and asks the exact sentence', async () => {
    const titles = await panel.page.$$eval('.questions .chip', (els) => els.map((e) => e.getAttribute('title')));
    const labels = await panel.page.$$eval('.questions .chip-label', (els) => els.map((e) => e.textContent ?? ''));
    assert.deepEqual(titles, labels.map((q) => `Ask: ${q}`));
    await panel.page.click('.questions .chip >> nth=1');
    const asked = (await panel.postedOf('askFollowUp')).map((m) => m.question);
    assert.deepEqual(asked, [EXACT[1]]);
  });

  it('shows names in step titles and the question as code, never as backticks', async () => {
    const step = await panel.page.$eval('.step-name', (e) => ({ text: e.textContent ?? '', code: [...e.querySelectorAll('code')].map((c) => c.textContent) }));
    assert.equal(step.text, 'Read the question as: Total revenue by region');
    assert.deepEqual(step.code, ['revenue', 'region']);
    const heading = await panel.page.$eval('.turn .question', (e) => ({ text: e.textContent ?? '', code: [...e.querySelectorAll('code')].map((c) => c.textContent) }));
    assert.equal(heading.text, 'Question: distribution of revenue');
    assert.deepEqual(heading.code, ['revenue']);
  });
});
