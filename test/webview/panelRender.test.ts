/**
 * The answer panel in headless Chromium under its real CSP: every block type renders, actions
 * post the right messages, states (streaming, cancelled, error, expired) show, and the panel
 * looks right in light, dark and high contrast (screenshots in test-artifacts/).
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import type { Answer } from '../../src/shared/domain';
import { fileKeyOf } from '../../src/shared/protocol';
import { initMessage, patchMessage, respond, sampleAnswer, sampleSource, step, streamingTurn, turnOf } from './builders';
import { PanelPage, usePanelBrowser } from './harness';
import type { ThemeName } from './fixtures/themes';

const TABLE_KEY = fileKeyOf({ type: 'TABLE', content: { url: 'https://files.example/t/result.csv?sig=1' } });
const IMAGE_KEY = fileKeyOf({ type: 'IMAGE', content: { url: 'https://files.example/i/chart.png?sig=1' } });
const CSV = 'region,revenue,orders\nEurope,1200.50,31\nAsia,900,27\nNorth America,1830.25,40\nAfrica,410,9\n';

describe('answer panel (browser): rendering and actions', function () {
  this.timeout(60_000);
  const env = usePanelBrowser();
  let panel: PanelPage;
  afterEach(async function () {
    if (panel) {
      assert.deepEqual(panel.pageErrors, [], 'no page errors');
      assert.deepEqual(panel.remoteRequests, [], 'no remote requests');
      assert.deepEqual(await panel.cspViolations(), [], 'no CSP violations');
      await panel.close();
    }
  });

  async function openWithSample(theme: ThemeName = 'dark', height = 900): Promise<PanelPage> {
    panel = await PanelPage.open(env.browser, env.server, { theme, height });
    await panel.send(
      initMessage([turnOf('t1', 'What is the revenue by region?', sampleAnswer('job-1'))], { resourceRoots: [`${env.server.origin}/cache/`] }),
      { type: 'tableData', turnId: 't1', fileKey: TABLE_KEY, data: { status: 'ready', csv: CSV } },
      { type: 'imageData', turnId: 't1', fileKey: IMAGE_KEY, data: { status: 'ready', uri: `${env.server.origin}/cache/chart.png` } },
    );
    await panel.page.waitForFunction(() => (document.querySelector('.image-block img') as HTMLImageElement | null)?.complete === true);
    return panel;
  }

  it('renders every block type of an answer', async () => {
    const p = await openWithSample();
    const dom = await p.page.evaluate(() => {
      const q = (s: string): Element | null => document.querySelector(s);
      const img = q('.image-block img') as HTMLImageElement;
      return {
        question: q('.question')?.textContent,
        heading: q('.markdown h2')?.textContent,
        strong: q('.markdown strong')?.textContent,
        link: q('.markdown a.md-link')?.getAttribute('data-href'),
        linkHref: q('.markdown a')?.hasAttribute('href'),
        listItems: document.querySelectorAll('.markdown li').length,
        mdTable: document.querySelectorAll('.markdown table td').length,
        mdCode: q('.markdown pre code .hljs-built_in, .markdown pre code .hljs-string') !== null,
        codeLabel: q('.response .code-block .code-language')?.textContent,
        codeKeywords: document.querySelectorAll('.response .code-block .hljs-keyword').length,
        tableMeta: q('.table-block .block-meta')?.textContent,
        headers: [...document.querySelectorAll('.grid-header [role=columnheader]')].map((c) => c.textContent),
        firstRow: [...document.querySelectorAll('.grid-body .grid-row:not([hidden]) [role=gridcell]')].slice(0, 3).map((c) => c.textContent),
        numericAligned: q('.grid-body .grid-cell.num') !== null,
        imgAlt: img?.alt,
        imgLoaded: (img?.naturalWidth ?? 0) > 0,
        sources: [...document.querySelectorAll('.sources .chip')].map((c) => c.textContent),
        questions: [...document.querySelectorAll('.questions .chip')].map((c) => c.textContent),
        steps: [...document.querySelectorAll('.step')].map((s) => `${s.getAttribute('data-status')}:${s.querySelector('.step-name')?.textContent}`),
        stepsOpen: (q('.steps-details') as HTMLDetailsElement).open,
        state: q('.turn')?.getAttribute('data-state'),
        jobId: q('.turn')?.getAttribute('data-job-id'),
      };
    });
    assert.equal(dom.question, 'Question: What is the revenue by region?');
    assert.equal(dom.heading, 'Revenue by region');
    assert.equal(dom.strong, '42%');
    assert.equal(dom.link, 'https://example.com/docs');
    assert.equal(dom.linkHref, false, 'links carry no href, so nothing navigates in the webview');
    assert.equal(dom.listItems, 2);
    assert.equal(dom.mdTable, 2);
    assert.ok(dom.mdCode, 'fenced code inside markdown is highlighted');
    assert.equal(dom.codeLabel, 'sql');
    assert.ok(dom.codeKeywords >= 4);
    assert.equal(dom.tableMeta, '4 rows · 3 columns');
    assert.deepEqual(dom.headers, ['region', 'revenue', 'orders']);
    assert.deepEqual(dom.firstRow, ['Europe', '1,200.50', '31']);
    assert.ok(dom.numericAligned);
    assert.equal(dom.imgAlt, 'revenue chart');
    assert.ok(dom.imgLoaded, 'the local image loaded under the CSP');
    assert.deepEqual(dom.sources, ['sales.csv', 'regions.xlsx']);
    assert.deepEqual(dom.questions, ['Which month was best?', 'Show revenue by channel']);
    assert.deepEqual(dom.steps, ['done:Step 1: load the data', 'done:Step 2: load the data']);
    assert.equal(dom.stepsOpen, false, 'steps are collapsed once the answer is done');
    assert.equal(dom.state, 'done');
    assert.equal(dom.jobId, 'job-1');
  });

  it('code, link, table, image, source and question actions post the right messages', async () => {
    const p = await openWithSample();
    await p.clearPosted();
    const code = 'SELECT region, SUM(revenue) AS total\nFROM sales\nGROUP BY region\nORDER BY total DESC;';
    await p.page.click('.response .code-block button[aria-label="Open in Editor"]');
    await p.page.click('.response .code-block button[aria-label="Copy"]');
    await p.page.click('.response .code-block button[aria-label="Insert at Cursor"]');
    await p.page.click('.markdown a.md-link');
    await p.page.click('.table-block button[aria-label="Open as CSV"]');
    await p.page.click('.table-block button[aria-label="Explore"]');
    await p.page.click('.table-block button[aria-label="Save to Workspace…"]');
    await p.page.click('.table-block button[aria-label="Copy with Headers"]');
    await p.page.click('.image-block button[aria-label="Save As…"]');
    await p.page.click('.sources .chip >> nth=1');
    await p.page.click('.questions .chip >> nth=0');
    const posted = (await p.posted()).filter((m) => m.type !== 'uiState');
    assert.deepEqual(posted, [
      { type: 'openCode', code, language: 'sql', turnId: 't1' },
      { type: 'copyText', text: code },
      { type: 'insertCode', code, language: 'sql' },
      { type: 'openLink', url: 'https://example.com/docs' },
      { type: 'openTableAsCsv', turnId: 't1', fileKey: TABLE_KEY },
      { type: 'exploreTable', turnId: 't1', fileKey: TABLE_KEY },
      { type: 'saveTable', turnId: 't1', fileKey: TABLE_KEY },
      // "Copy with Headers" copies the exact values the table file holds (issue 24), not the rounded display.
      { type: 'copyTable', turnId: 't1', fileKey: TABLE_KEY, tsv: 'region\trevenue\torders\nEurope\t1200.50\t31\nAsia\t900\t27\nNorth America\t1830.25\t40\nAfrica\t410\t9\n' },
      { type: 'saveImage', turnId: 't1', fileKey: IMAGE_KEY },
      { type: 'revealSource', source: { ...sampleSource, source: 'regions.xlsx', fileType: 'xlsx', datasourceId: 'ds2' } },
      { type: 'askFollowUp', question: 'Which month was best?', fromTurnId: 't1' },
    ]);
    assert.equal(p.page.url(), `${env.server.origin}/panel.html`, 'the link did not navigate the webview');
  });

  it('enlarges an image in an overlay that Escape closes, returning focus', async () => {
    const p = await openWithSample();
    await p.page.click('.image-open');
    assert.equal(await p.page.isVisible('.overlay'), true);
    assert.equal(await p.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Close');
    assert.equal(await p.page.getAttribute('.overlay', 'aria-label'), 'revenue chart');
    await p.page.keyboard.press('Escape');
    assert.equal(await p.page.isVisible('.overlay'), false);
    assert.equal(await p.page.evaluate(() => document.activeElement?.className), 'image-open');
  });

  it('shows loading, expired and error states for files, and refuses non-local image URIs', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const p = panel;
    await p.send(initMessage([turnOf('t1', 'q', sampleAnswer('job-1'))], { resourceRoots: [`${env.server.origin}/cache/`] }));
    assert.match((await p.page.textContent('.table-block .block-note')) ?? '', /Downloading the table/);
    assert.equal(await p.page.isDisabled('.table-block button[aria-label="Copy with Headers"]'), true);
    await p.send(
      { type: 'tableData', turnId: 't1', fileKey: TABLE_KEY, data: { status: 'expired' } },
      { type: 'imageData', turnId: 't1', fileKey: IMAGE_KEY, data: { status: 'expired' } },
    );
    assert.match((await p.page.textContent('.table-block .block-note')) ?? '', /expired and no copy was saved/);
    assert.match((await p.page.textContent('.image-block .block-note')) ?? '', /expired and no copy was saved/);
    for (const uri of ['https://files.example/i/chart.png', `${env.server.origin}/other/chart.png`, `${env.server.origin}/cache/../x.png`, 'javascript:alert(1)']) {
      await p.send({ type: 'imageData', turnId: 't1', fileKey: IMAGE_KEY, data: { status: 'ready', uri } });
      assert.equal(await p.page.$('.image-block img'), null, uri);
      assert.match((await p.page.textContent('.image-block .block-note')) ?? '', /not a local copy/);
    }
    await p.send({ type: 'tableData', turnId: 't1', fileKey: TABLE_KEY, data: { status: 'error', message: 'disk full' } });
    assert.match((await p.page.textContent('.table-block .block-note')) ?? '', /could not be loaded: disk full/);
  });

  it('shows streaming with Cancel, the cancelled marker, and errors with Retry', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const p = panel;
    const failed: Answer = { ...sampleAnswer('job-2', 'error'), error: { message: 'The service failed to analyze the file', code: 210020 } };
    await p.send(initMessage([turnOf('t1', 'first', sampleAnswer('job-1')), turnOf('t2', 'second', failed), streamingTurn('t3', 'Partial')]));
    assert.equal(await p.page.getAttribute('[data-turn-id=t3]', 'data-state'), 'streaming');
    assert.equal(await p.page.isDisabled('.composer-input'), true, 'the input is disabled while an answer runs');
    assert.match((await p.page.textContent('[data-turn-id=t2] .status-error')) ?? '', /failed to analyze the file \(code 210020\)/);
    await p.clearPosted();
    await p.page.click('[data-turn-id=t2] button:has-text("Retry")');
    await p.page.click('[data-turn-id=t3] .turn-status button:has-text("Cancel")');
    await p.page.click('.composer button:has-text("Cancel")');
    assert.deepEqual((await p.posted()).filter((m) => m.type !== 'uiState'), [
      { type: 'retry', turnId: 't2' },
      { type: 'cancel', turnId: 't3' },
      { type: 'cancel', turnId: 't3' },
    ]);
    await p.send(patchMessage('t3', { state: 'cancelled' }));
    assert.match((await p.page.textContent('[data-turn-id=t3] .status-cancelled')) ?? '', /Cancelled/);
    assert.equal((await p.page.textContent('[data-turn-id=t3] .markdown'))?.trim(), 'Partial', 'the partial answer stays');
    assert.equal(await p.page.isDisabled('.composer-input'), false);
  });

  it('a cancel during the analysis shows stopped steps and says no answer arrived', async () => {
    // Defect: a green check and "The answer above is incomplete" with nothing above it.
    panel = await PanelPage.open(env.browser, env.server);
    const p = panel;
    await p.send(initMessage([turnOf('t1', 'q', { jobId: '', state: 'streaming', groups: [], triggers: [] })]));
    const s1 = step(1, 'running');
    await p.send(patchMessage('t1', { jobId: 'job-5', groups: [{ index: 0, id: s1.id, name: s1.name, stage: 'Analyze', status: 'running', blocks: s1.blocks }] }));
    await p.send(patchMessage('t1', { state: 'cancelled' }));
    assert.equal(await p.page.textContent('[data-turn-id=t1] .status-cancelled'), 'Cancelled before an answer arrived.');
    assert.equal(await p.page.$$eval('.step[data-status=stopped]', (e) => e.length), 1);
    assert.equal(await p.page.$$eval('.step .spinner, .step [data-status=done]', (e) => e.length), 0);
    assert.match((await p.page.textContent('.steps-summary')) ?? '', /Analysis stopped/);
    assert.equal(await p.page.getAttribute('.step[data-status=stopped] .step-status', 'title'), 'Stopped');
  });

  it('streams steps: spinner while running, open while streaming, collapsed when done', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const p = panel;
    await p.send(initMessage([turnOf('t1', 'q', { jobId: '', state: 'streaming', groups: [], triggers: [] })]));
    assert.match((await p.page.textContent('.status-running')) ?? '', /Thinking/);
    const s1 = step(1, 'running');
    await p.send(patchMessage('t1', { jobId: 'job-9', groups: [{ index: 0, id: s1.id, name: s1.name, stage: 'Analyze', status: 'running', blocks: s1.blocks }] }));
    assert.equal(await p.page.$$eval('.step[data-status=running] .spinner', (e) => e.length), 1);
    assert.equal(await p.page.$eval('.steps-details', (d) => (d as HTMLDetailsElement).open), true);
    await p.send(patchMessage('t1', {
      groups: [{ index: 0, status: 'done' }, { index: 1, id: 'r1', name: 'Conclusions', stage: 'Respond', blocks: [{ type: 'MESSAGE', content: 'Done.', ...respond }] }],
    }));
    assert.equal(await p.page.$$eval('.step[data-status=done]', (e) => e.length), 1);
    assert.match((await p.page.textContent('.status-running')) ?? '', /Answering/);
    await p.send(patchMessage('t1', { state: 'done', title: 'Revenue' }));
    assert.equal(await p.page.$eval('.steps-details', (d) => (d as HTMLDetailsElement).open), false);
    assert.equal(await p.page.$('.status-running'), null);
    assert.equal(await p.page.getAttribute('.turn', 'data-job-id'), 'job-9');
  });

  it('while the service starts it says so, never "Ask a question" over a conversation still loading', async () => {
    panel = await PanelPage.open(env.browser, env.server, { theme: 'dark' });
    const empty = async (): Promise<{ text: string | null | undefined; shown: boolean }> =>
      panel.page.evaluate(() => ({ text: document.querySelector('.empty')?.textContent, shown: !(document.querySelector('.empty') as HTMLElement).hidden }));
    // Before the host's init (a restored panel whose extension is still activating).
    assert.deepEqual(await empty(), { text: 'Loading the answer panel…', shown: true });
    // The host holds no turns yet and is starting the service.
    await panel.send(initMessage([], { busy: true, busyLabel: 'Starting the local service…' }));
    assert.deepEqual(await empty(), { text: 'Starting the local service…', shown: true });
    assert.equal(await panel.page.isDisabled('.composer-input'), true, 'nothing to ask until the service answers');
    await panel.send({ type: 'busy', busy: true, label: 'Loading the conversation…' });
    assert.deepEqual(await empty(), { text: 'Loading the conversation…', shown: true });
    // The history arrives, then the host is idle: the turns show and the notice goes.
    await panel.send({ type: 'conversation', title: 'Sales analysis', turns: [turnOf('t1', 'What is the revenue by region?', sampleAnswer('job-1'))] }, { type: 'busy', busy: false });
    assert.equal((await empty()).shown, false);
    assert.equal(await panel.page.isDisabled('.composer-input'), false);
    // A session that really has no questions says so once the host is idle.
    await panel.send({ type: 'conversation', title: 'New session', turns: [] });
    assert.deepEqual(await empty(), { text: 'Ask a question about your data to start.', shown: true });
  });

  it('scrolls to a job, updates the title, shows and dismisses notices', async () => {
    panel = await PanelPage.open(env.browser, env.server, { height: 500 });
    const p = panel;
    const turns = [1, 2, 3, 4, 5].map((i) => turnOf(`t${i}`, `question ${i}`, sampleAnswer(`job-${i}`)));
    await p.send(initMessage(turns), { type: 'title', title: 'Revenue deep dive' }, { type: 'scrollTo', jobId: 'job-2' });
    const top = await p.page.evaluate(() => {
      const c = document.querySelector('.conversation') as HTMLElement;
      const t = document.querySelector('[data-job-id="job-2"]') as HTMLElement;
      return Math.abs(t.getBoundingClientRect().top - c.getBoundingClientRect().top);
    });
    assert.ok(top < 4, `job-2 is at the top of the view (off by ${top}px)`);
    assert.equal(await p.page.evaluate(() => document.activeElement?.getAttribute('data-job-id')), 'job-2');
    assert.equal(await p.page.textContent('.panel-title'), 'Revenue deep dive');
    assert.equal(await p.page.title(), 'Revenue deep dive');
    await p.send({ type: 'notice', notice: { level: 'error', message: 'Session limit reached (150)' } });
    assert.equal(await p.page.textContent('.notice .notice-text'), 'Session limit reached (150)');
    assert.equal(await p.page.getAttribute('.notice', 'role'), 'alert');
    await p.page.click('.notice button[aria-label="Dismiss"]');
    assert.equal(await p.page.isVisible('.notice'), false);
  });

  it('scrolls only the conversation: the page itself never scrolls into blank space', async () => {
    // Defect: `.sr-only` text positioned against the page made the whole webview scrollable.
    panel = await PanelPage.open(env.browser, env.server, { height: 400 });
    const p = panel;
    const turns = Array.from({ length: 12 }, (_, i) => turnOf(`t${i}`, `question ${i}`, sampleAnswer(`job-${i}`)));
    await p.send(initMessage(turns), { type: 'scrollTo', jobId: 'job-11' });
    const page = await p.page.evaluate(() => {
      const c = document.querySelector('.conversation') as HTMLElement;
      c.scrollTop = c.scrollHeight;
      window.scrollTo(0, 1e6);
      const el = document.scrollingElement as HTMLElement;
      return { scrolled: el.scrollTop, extra: el.scrollHeight - el.clientHeight, inner: c.scrollHeight > c.clientHeight };
    });
    assert.ok(page.inner, 'the conversation itself scrolls');
    assert.equal(page.extra, 0, `the page is ${page.extra}px taller than the view`);
    assert.equal(page.scrolled, 0);
  });

  it('keeps UI state with setState and restores it (draft, collapsed steps, table sort)', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    let p = panel;
    await p.send(initMessage([turnOf('t1', 'q', sampleAnswer('job-1'))]), { type: 'tableData', turnId: 't1', fileKey: TABLE_KEY, data: { status: 'ready', csv: CSV } });
    await p.page.click('.steps-summary');
    await p.page.click('.grid-header [role=columnheader] >> nth=1');
    await p.page.fill('.composer-input', 'unsent question');
    await p.page.waitForFunction(() => window.__posted.some((m) => (m as { type: string; state?: { draft?: string } }).type === 'uiState' && (m as { state: { draft: string } }).state.draft === 'unsent question'));
    const saved = (await p.postedOf('uiState')).pop()?.state;
    assert.ok(saved);
    assert.equal(saved.sessionId, 'sess-1');
    assert.equal(saved.collapsed['t1:steps'], false);
    assert.deepEqual(saved.tableSort[`t1|${TABLE_KEY}`], { column: 1, descending: false });
    await p.close();

    panel = await PanelPage.open(env.browser, env.server, { state: saved });
    p = panel;
    await p.send(initMessage([turnOf('t1', 'q', sampleAnswer('job-1'))]), { type: 'tableData', turnId: 't1', fileKey: TABLE_KEY, data: { status: 'ready', csv: CSV } });
    assert.equal(await p.page.inputValue('.composer-input'), 'unsent question');
    assert.equal(await p.page.$eval('.steps-details', (d) => (d as HTMLDetailsElement).open), true, 'the user opened the steps; that sticks');
    assert.equal(await p.page.getAttribute('.grid-header [role=columnheader] >> nth=1', 'aria-sort'), 'ascending');
    const firstCell = await p.page.textContent('.grid-body .grid-row[aria-rowindex="2"] .grid-cell');
    assert.equal(firstCell, 'Africa', 'restored sort: lowest revenue first');
  });

  it('drops garbled messages and asks for a resync when a patch does not apply', async () => {
    panel = await PanelPage.open(env.browser, env.server);
    const p = panel;
    await p.send(initMessage([turnOf('t1', 'q', sampleAnswer('job-1'))]));
    const before = await p.page.innerHTML('.conversation');
    await p.clearPosted();
    await p.send(
      null, 'init', { type: 'turn' }, { type: 'turn', turn: { id: 't9' } }, { type: 'answerPatch', turnId: 't1', patch: { state: 'boom' } },
      { type: 'imageData', turnId: 't1', fileKey: IMAGE_KEY, data: { status: 'ready', uri: 42 } }, { type: 'evil', html: '<img src=x>' },
    );
    assert.equal(await p.page.innerHTML('.conversation'), before, 'nothing rendered from garbage');
    const errors = await p.postedOf('webviewError');
    assert.equal(errors.length, 1, 'dropped messages are reported once, not per message');
    await p.send(patchMessage('t1', { groups: [{ index: 9, id: 'g', name: 'n', stage: 'Respond' }] }));
    const ready = await p.postedOf('ready');
    assert.deepEqual(ready.map((r) => r.resync), [true]);
    assert.equal(await p.page.innerHTML('.conversation'), before, 'a conflicting patch changes nothing');
  });

  for (const theme of ['light', 'dark', 'highContrast'] as const) {
    it(`looks right in the ${theme} theme (screenshot)`, async () => {
      const p = await openWithSample(theme, 1500);
      await p.send({ type: 'turn', turn: streamingTurn('t2', 'Streaming **answer** in progress…') });
      await p.page.click('.steps-summary');
      await p.page.focus('.questions .chip');
      await p.page.keyboard.press('Tab');
      await p.flush();
      const colors = await p.page.evaluate(() => {
        const body = getComputedStyle(document.body);
        const btn = getComputedStyle(document.querySelector('.composer .btn.primary') as Element);
        return { bg: body.backgroundColor, fg: body.color, focus: getComputedStyle(document.activeElement as Element).outlineStyle, btn: btn.backgroundColor };
      });
      const expected = { light: 'rgb(255, 255, 255)', dark: 'rgb(31, 31, 31)', highContrast: 'rgb(0, 0, 0)' }[theme];
      assert.equal(colors.bg, expected, 'the editor background comes from the theme variables');
      assert.notEqual(colors.focus, 'none', 'keyboard focus is visible');
      const file = await p.screenshot(`panel-${theme}.png`);
      assert.ok(existsSync(file));
    });
  }
});

