/**
 * Keyboard use of the panel: Enter sends and Shift+Enter adds a line, nothing is sent while an
 * answer runs, every action is a tab stop with an accessible name and a visible focus ring, and
 * chips, links, steps and images work from the keyboard.
 */
import { strict as assert } from 'node:assert';
import { fileKeyOf } from '../../src/shared/protocol';
import { initMessage, sampleAnswer, streamingTurn, turnOf } from './builders';
import { PanelPage, usePanelBrowser } from './harness';

describe('answer panel (browser): keyboard and accessibility', function () {
  this.timeout(60_000);
  const env = usePanelBrowser();
  let panel: PanelPage;
  beforeEach(async () => {
    panel = await PanelPage.open(env.browser, env.server, { height: 1400 });
    await panel.send(
      initMessage([turnOf('t1', 'Revenue by region?', sampleAnswer('job-1'))], { resourceRoots: [`${env.server.origin}/cache/`] }),
      { type: 'imageData', turnId: 't1', fileKey: fileKeyOf({ type: 'IMAGE', content: { url: 'https://files.example/i/chart.png' } }), data: { status: 'ready', uri: `${env.server.origin}/cache/chart.png` } },
      { type: 'tableData', turnId: 't1', fileKey: fileKeyOf({ type: 'TABLE', content: { url: 'https://files.example/t/result.csv' } }), data: { status: 'ready', csv: 'a,b\n1,2\n' } },
    );
    await panel.clearPosted();
  });
  afterEach(async () => {
    assert.deepEqual(panel.pageErrors, []);
    assert.deepEqual(await panel.cspViolations(), []);
    await panel.close();
  });

  const asks = async (): Promise<string[]> => (await panel.postedOf('ask')).map((m) => m.question);

  it('Enter sends the question; Shift+Enter inserts a new line; empty input sends nothing', async () => {
    const p = panel.page;
    await p.focus('.composer-input');
    await p.keyboard.press('Enter');
    assert.deepEqual(await asks(), [], 'nothing to send');
    assert.equal(await p.isDisabled('.composer button[aria-label="Send"]'), true);
    await p.keyboard.type('Top regions');
    await p.keyboard.press('Shift+Enter');
    await p.keyboard.type('by revenue?  ');
    assert.equal(await p.inputValue('.composer-input'), 'Top regions\nby revenue?  ');
    assert.deepEqual(await asks(), [], 'Shift+Enter does not send');
    await p.keyboard.press('Enter');
    assert.deepEqual(await asks(), ['Top regions\nby revenue?']);
    assert.equal(await p.inputValue('.composer-input'), '', 'the box is cleared after sending');
    await p.keyboard.type('second');
    await p.click('.composer button[aria-label="Send"]');
    assert.deepEqual(await asks(), ['Top regions\nby revenue?', 'second']);
  });

  it('while an answer runs the input is disabled, Cancel takes focus, and nothing is sent', async () => {
    const p = panel.page;
    await p.focus('.composer-input');
    await p.keyboard.type('draft');
    await panel.send({ type: 'turn', turn: streamingTurn('t2', 'Working') });
    assert.equal(await p.isDisabled('.composer-input'), true);
    assert.equal(await p.evaluate(() => document.activeElement?.textContent), 'Cancel', 'focus moved to Cancel');
    await p.keyboard.press('Enter');
    assert.deepEqual(await panel.postedOf('cancel'), [{ type: 'cancel', turnId: 't2' }]);
    assert.deepEqual(await asks(), []);
    assert.equal(await p.isDisabled('.questions .chip >> nth=0'), true, 'follow-up chips wait too');
    await panel.send({ type: 'answerPatch', turnId: 't2', patch: { state: 'cancelled' } });
    assert.equal(await p.isDisabled('.composer-input'), false);
    assert.equal(await p.evaluate(() => document.activeElement?.className), 'composer-input', 'focus returns to the input');
    assert.equal(await p.inputValue('.composer-input'), 'draft', 'the draft survived');
    await panel.send({ type: 'busy', busy: true, label: 'Creating a session…' });
    assert.equal(await p.getAttribute('.composer-input', 'placeholder'), 'Creating a session…');
    assert.equal(await p.isVisible('.composer button:has-text("Cancel")'), false, 'nothing to cancel before a turn exists');
  });

  it('an empty session asks for a question, not a follow-up; a session with turns asks for a follow-up', async () => {
    const p = panel.page;
    assert.equal(await p.getAttribute('.composer-input', 'placeholder'), 'Ask a follow-up question…');
    await panel.send(initMessage([], { sessionId: 'sess-2' }));
    assert.equal(await p.getAttribute('.composer-input', 'placeholder'), 'Ask a question about your data…');
    assert.equal(await p.getAttribute('.composer-input', 'aria-label'), 'Ask a question');
    await panel.send({ type: 'turn', turn: turnOf('t9', 'Revenue?', sampleAnswer('job-9')) });
    assert.equal(await p.getAttribute('.composer-input', 'placeholder'), 'Ask a follow-up question…');
    assert.equal(await p.getAttribute('.composer-input', 'aria-label'), 'Ask a follow-up question');
  });

  it('every control is a tab stop with an accessible name and a visible focus ring', async () => {
    const p = panel.page;
    await p.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const seen: Array<{ name: string; outline: string }> = [];
    for (let i = 0; i < 60; i++) {
      await p.keyboard.press('Tab');
      const info = await p.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('title') || '').trim();
        return { name: `${el.tagName.toLowerCase()}:${name}`, outline: getComputedStyle(el).outlineStyle, key: el.outerHTML.slice(0, 60) };
      });
      if (!info) continue;
      if (seen.some((s) => s.name === info.name) && info.name.startsWith('textarea')) break;
      seen.push(info);
    }
    const names = seen.map((s) => s.name);
    for (const expected of [
      'summary:Analysis2 steps', 'a:the docs', 'button:Open in Editor', 'button:Copy', 'button:Insert at Cursor',
      'button:Open as CSV', 'button:Save to Workspace…', 'button:Copy with Headers', 'button:Copy as Shown with Headers', 'div:', 'button:Enlarge revenue chart',
      'button:Save As…', 'button:sales.csv', 'button:Which month was best?', 'textarea:Ask a follow-up question',
    ]) {
      assert.ok(names.some((n) => n === expected || (expected === 'div:' && n.startsWith('div:'))), `tab reaches ${expected}; got ${names.join(' | ')}`);
    }
    for (const s of seen) {
      assert.ok(s.name.split(':')[1] !== '' || s.name.startsWith('div:') || s.name.startsWith('pre:'), `${s.name} has a name`);
      if (!s.name.startsWith('textarea')) assert.notEqual(s.outline, 'none', `${s.name} shows focus`);
    }
  });

  it('chips, links, steps and images work from the keyboard', async () => {
    const p = panel.page;
    await p.focus('.questions .chip >> nth=1');
    await p.keyboard.press('Enter');
    await p.focus('.sources .chip >> nth=0');
    await p.keyboard.press('Space');
    await p.focus('.markdown a.md-link');
    await p.keyboard.press('Enter');
    assert.deepEqual((await panel.posted()).filter((m) => m.type !== 'uiState').map((m) => m.type), ['askFollowUp', 'revealSource', 'openLink']);
    assert.deepEqual((await panel.postedOf('askFollowUp'))[0], { type: 'askFollowUp', question: 'Show revenue by channel', fromTurnId: 't1' });

    await p.focus('.steps-summary');
    await p.keyboard.press('Enter');
    assert.equal(await p.$eval('.steps-details', (d) => (d as HTMLDetailsElement).open), true);
    await p.focus('.step-summary >> nth=0');
    await p.keyboard.press('Space');
    assert.equal(await p.$eval('.step-details', (d) => (d as HTMLDetailsElement).open), true);

    await p.focus('.image-open');
    await p.keyboard.press('Enter');
    assert.equal(await p.isVisible('.overlay'), true);
    await p.keyboard.press('Tab');
    assert.equal(await p.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Close', 'focus stays in the dialog');
    await p.keyboard.press('Enter');
    assert.equal(await p.isVisible('.overlay'), false);
  });

  it('labels regions and widgets for assistive technology', async () => {
    const roles = await panel.page.evaluate(() => ({
      main: document.querySelector('main')?.getAttribute('aria-label'),
      live: document.getElementById('announcer')?.getAttribute('aria-live'),
      grid: document.querySelector('[role=grid]')?.getAttribute('aria-label'),
      toolbars: [...document.querySelectorAll('[role=toolbar]')].map((t) => t.getAttribute('aria-label')),
      question: document.querySelector('.question')?.getAttribute('role'),
      iconButtonsWithoutName: [...document.querySelectorAll('button.icon-only')].filter((b) => !b.getAttribute('aria-label')).length,
      svgHidden: [...document.querySelectorAll('svg.icon')].every((s) => s.getAttribute('aria-hidden') === 'true'),
      img: document.querySelector('.image-block img')?.getAttribute('alt'),
    }));
    assert.equal(roles.main, 'Conversation');
    assert.equal(roles.live, 'polite');
    assert.equal(roles.grid, 'result.csv');
    assert.deepEqual(roles.toolbars, ['sql code actions', 'sql code actions', 'sql code actions', 'result.csv actions', 'revenue chart.png actions']);
    assert.equal(roles.question, 'heading');
    assert.equal(roles.iconButtonsWithoutName, 0);
    assert.ok(roles.svgHidden);
    assert.equal(roles.img, 'revenue chart');
  });
});
