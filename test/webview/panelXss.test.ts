/**
 * Security of the answer panel against hostile service content. Every payload in
 * xssPayloads.ts is placed in MESSAGE and CODE blocks, table cells and headers, group names,
 * table and image file names, sources, questions, the title, errors and notices. Nothing may
 * execute (a sentinel global and dialogs are watched), nothing may load from anywhere but the
 * panel's own origin (every other request is aborted and recorded), and links never navigate.
 *
 * The suite runs twice: under the panel's strict CSP, and with no CSP at all, so the sanitizer is
 * shown to hold on its own rather than only because the CSP blocks what slipped through.
 */
import { distinctPlainQuestions } from '../../src/shared/plainQuestion';
import { strict as assert } from 'node:assert';
import type { Browser } from 'playwright-core';
import { formatCsv } from '../../src/shared/csv';
import type { Answer, AnswerGroup, Block } from '../../src/shared/domain';
import { fileKeyOf, type HostToWebview } from '../../src/shared/protocol';
import { initMessage, turnOf } from './builders';
import { PanelPage, requireChromium, launchChromium, startPanelServer, type PanelServer } from './harness';
import { XSS_PAYLOADS } from './xssPayloads';

const P = XSS_PAYLOADS;

function hostileAnswer(): Answer {
  const groups: AnswerGroup[] = P.map((p, i) => ({
    id: `a${i}`, name: p, stage: 'Analyze', status: 'done',
    blocks: [{ type: 'CODE', content: `\`\`\`${p}\n${p}\n\`\`\``, groupId: `a${i}`, groupName: p, stage: 'Analyze' }],
  }));
  P.forEach((p, i) => {
    const place = { groupId: `r${i}`, groupName: p, stage: 'Respond' as const };
    const blocks: Block[] = [
      { type: 'MESSAGE', content: `Payload ${i}:\n\n${p}\n\ninline ${p} text\n\n- ${p}\n\n| h |\n|---|\n| ${p.replace(/\|/g, '\\|')} |\n`, ...place },
      { type: 'CODE', content: p, ...place },
      { type: 'TABLE', content: { url: `https://files.example/t/${i}.csv`, name: `${p}.csv` }, ...place },
      { type: 'IMAGE', content: { url: `https://files.example/i/${i}.png`, name: `${p}.png` }, ...place },
    ];
    groups.push({ id: place.groupId, name: p, stage: 'Respond', blocks });
  });
  groups.push({ id: 'big', name: 'all', stage: 'Respond', blocks: [{ type: 'MESSAGE', content: P.join('\n\n'), groupId: 'big', stage: 'Respond' }] });
  groups.push({
    id: '', name: '', stage: 'Respond',
    blocks: [{ type: 'SOURCES', content: P.map((p, i) => ({ source: p, datasourceId: `d${i}`, datasetId: 'k', fileType: p, externalId: p })), groupId: '', stage: 'Respond' }],
  });
  groups.push({ id: '-1', name: '', stage: 'Respond', blocks: [{ type: 'QUESTIONS', content: [...P], groupId: '-1', stage: 'Respond' }] });
  return { jobId: 'job-x', state: 'error', title: P[0], error: { message: P.join(' ') }, groups, triggers: [{ name: P[1] as string, arguments: { html: P[2] } }] };
}

function fileMessages(origin: string): HostToWebview[] {
  const out: HostToWebview[] = [];
  P.forEach((p, i) => {
    const csv = formatCsv([[p, 'plain', `<b>${i}</b>`], [p, `=HYPERLINK("javascript:alert(1)")`, p], ['1', '2', '3']]);
    out.push({ type: 'tableData', turnId: 'x', fileKey: fileKeyOf({ type: 'TABLE', content: { url: `https://files.example/t/${i}.csv` } }), data: { status: 'ready', csv } });
    const uri = i % 3 === 0 ? `${origin}/cache/chart.png` : i % 3 === 1 ? p : `http://remote.invalid/${i}.png`;
    out.push({ type: 'imageData', turnId: 'x', fileKey: fileKeyOf({ type: 'IMAGE', content: { url: `https://files.example/i/${i}.png` } }), data: { status: 'ready', uri } });
  });
  return out;
}

for (const csp of ['strict', 'none'] as const) {
  describe(`answer panel (browser): ${P.length} XSS payloads, ${csp === 'strict' ? 'under the strict CSP' : 'with no CSP (sanitizer alone)'}`, function () {
    this.timeout(90_000);
    let server: PanelServer;
    let browser: Browser;
    let panel: PanelPage;

    before(async function () {
      requireChromium();
      assert.ok(P.length >= 25);
      server = await startPanelServer();
      browser = await launchChromium();
      panel = await PanelPage.open(browser, server, { csp, height: 1200 });
      await panel.send(
        initMessage([turnOf('x', P.join('\n'), hostileAnswer())], {
          title: P[36] as string, resourceRoots: [`${server.origin}/cache/`], notice: { level: 'error', message: P.join(' ') }, busyLabel: P[0],
        }),
        ...fileMessages(server.origin),
        { type: 'title', title: P[37] as string },
        { type: 'busy', busy: true, label: P[1] as string },
        // Valid-looking shapes carrying hostile values, and invalid shapes: both must do no harm.
        { type: 'turn', turn: { id: 'y', question: 'q', answer: { jobId: 'j', state: 'done', triggers: [], groups: [{ id: 'g', name: 'n', stage: 'Respond', blocks: [{ type: 'HTML', content: P[0], groupId: 'g', stage: 'Respond' }] }] } } },
        { type: 'settings', settings: { collapseStepsWhenDone: '<img src=x onerror=alert(1)>', wrapCode: true } },
        { type: 'theme', theme: '"><script>alert(1)</script>' },
      );
      await panel.page.waitForTimeout(300);
    });
    after(async () => {
      await panel?.close();
      await browser?.close();
      await server?.close();
    });

    function assertClean(): void {
      assert.deepEqual(panel.dialogs, [], 'no dialog opened');
      assert.deepEqual(panel.remoteRequests, [], 'nothing was requested from outside the panel origin');
      assert.deepEqual(panel.pageErrors, []);
    }

    it('accepted and rendered the hostile answer (so the checks below check something)', async () => {
      assert.deepEqual(await panel.postedOf('webviewError'), [{ type: 'webviewError', message: 'dropped an invalid message from the host' }], 'only the malformed turn/settings/theme were dropped');
      assert.equal(await panel.page.$$eval('.turn', (t) => t.length), 1);
      assert.equal(await panel.page.$$eval('.step', (s) => s.length), P.length);
      assert.equal(await panel.page.$$eval('.grid', (g) => g.length), P.length);
    });

    it('runs no payload and loads nothing remote', async () => {
      assert.equal(await panel.page.evaluate(() => window.__pwned), undefined, 'sentinel untouched');
      assertClean();
      if (csp === 'strict') {
        // DOMPurify parses untrusted HTML in an inert DOMParser document, which inherits the page's
        // CSP and reports inline handlers/styles it sees while parsing (nothing runs there; the
        // no-CSP run below proves it). What must never appear is a blocked load or script element.
        const violations = await panel.cspViolations();
        const serious = violations.filter((v) => !/^(script-src-attr|style-src-attr|style-src-elem) inline\b/.test(v));
        assert.deepEqual(serious, [], 'the CSP had to block no load and no script element');
      }
    });

    it('leaves no executable or loading markup in the DOM', async () => {
      const found = await panel.page.evaluate(() => {
        const body = document.body;
        const bad: string[] = [];
        for (const el of body.querySelectorAll('*')) {
          const tag = el.tagName.toLowerCase();
          // The panel's own bundle, the only script the page may have.
          if (tag === 'script' && el.getAttribute('src') === `${location.origin}/dist/webview.js` && el.hasAttribute('nonce')) continue;
          if (['script', 'iframe', 'object', 'embed', 'form', 'input', 'style', 'link', 'meta', 'base', 'video', 'audio', 'source', 'math', 'x'].includes(tag)) bad.push(`tag ${tag}`);
          if (tag === 'svg' && !el.classList.contains('icon')) bad.push('foreign svg');
          for (const a of el.attributes) {
            if (/^on/i.test(a.name)) bad.push(`${tag}[${a.name}]`);
            if (['href', 'xlink:href', 'action', 'formaction', 'srcdoc', 'ping', 'target', 'background'].includes(a.name)) bad.push(`${tag}[${a.name}=${a.value.slice(0, 30)}]`);
            if (a.name === 'src' && !a.value.startsWith(`${location.origin}/cache/`)) bad.push(`${tag}[src=${a.value.slice(0, 40)}]`);
            if (a.name === 'style' && el.closest('.markdown, .question, .step-name, .block-title, .chip')) bad.push(`${tag}[style]`);
          }
        }
        for (const el of body.querySelectorAll('.markdown [class]')) {
          for (const c of el.classList) if (!/^(hljs(-[\w-]+)?|language-[\w+#.-]+|md-[\w-]+)$/.test(c)) bad.push(`class ${c}`);
        }
        for (const a of body.querySelectorAll('[data-href]')) if (!/^https?:\/\//i.test(a.getAttribute('data-href') ?? '')) bad.push(`data-href ${a.getAttribute('data-href')}`);
        return { bad, app: document.getElementById('app')?.tagName, announcer: document.getElementById('announcer')?.tagName };
      });
      assert.deepEqual(found.bad, []);
      assert.equal(found.app, 'DIV', 'content could not clobber #app');
      assert.equal(found.announcer, 'DIV', 'content could not clobber #announcer');
    });

    it('shows hostile names as plain text, not markup', async () => {
      const texts = await panel.page.evaluate(() => ({
        steps: [...document.querySelectorAll('.step-name')].map((s) => s.textContent),
        tables: [...document.querySelectorAll('.table-block .block-title')].map((s) => s.textContent),
        sources: [...document.querySelectorAll('.sources .chip-label')].map((s) => s.textContent),
        questions: [...document.querySelectorAll('.questions .chip-label')].map((s) => s.textContent),
        header: [...document.querySelectorAll('.table-block')][5]?.querySelector('.grid-header .cell-text')?.textContent,
        title: document.querySelector('.panel-title')?.textContent,
        docTitle: document.title,
        error: document.querySelector('.status-error')?.textContent,
        code: [...document.querySelectorAll('.response .code-block code')].map((c) => c.textContent),
        imagesShown: document.querySelectorAll('.image-block img').length,
        imagesRefused: [...document.querySelectorAll('.image-block .block-note')].filter((n) => /not a local copy/.test(n.textContent ?? '')).length,
      }));
      // (Step names show `names` as code and chips read as plain questions: the rest is the text as sent.)
      assert.deepEqual(texts.steps, P.map((p) => p.replace(/`([^`\n]+)`/g, '$1')));
      assert.deepEqual(texts.tables, P.map((p) => `${p}.csv`));
      assert.deepEqual(texts.sources, [...P]);
      assert.deepEqual(texts.questions, distinctPlainQuestions(P).map((q) => q.label));
      assert.equal(texts.header, P[5]);
      assert.equal(texts.title, P[37]);
      assert.equal(texts.docTitle, P[37]);
      assert.equal(texts.error, P.join(' '));
      assert.deepEqual(texts.code, [...P]);
      assert.equal(texts.imagesShown, Math.ceil(P.length / 3), 'only local cache URIs became images');
      assert.equal(texts.imagesRefused, P.length - Math.ceil(P.length / 3));
    });

    it('clicking every link, chip and code or table action executes nothing and never navigates', async () => {
      await panel.send({ type: 'busy', busy: false });
      await panel.send({ type: 'answerPatch', turnId: 'x', patch: {} });
      await panel.clearPosted();
      await panel.page.evaluate(() => {
        const targets = document.querySelectorAll('.markdown a, .markdown x, .markdown details summary, .chip, .code-block button, .table-block button, .md-dead-link');
        for (const t of targets) (t as HTMLElement).click();
        for (const t of document.querySelectorAll('.markdown *')) t.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      });
      await panel.page.waitForTimeout(200);
      assert.equal(await panel.page.evaluate(() => window.__pwned), undefined);
      assert.equal(panel.page.url(), `${server.origin}/panel.html${csp === 'none' ? '?csp=none' : ''}`, 'the page never navigated');
      assertClean();
      const posted = await panel.posted();
      const links = posted.filter((m) => m.type === 'openLink');
      assert.ok(links.length > 0);
      for (const l of links) assert.match(l.url, /^https?:\/\//, 'only http(s) links reach the host');
      const followUps = posted.filter((m) => m.type === 'askFollowUp').map((m) => m.question);
      assert.deepEqual(followUps, P.map((p) => p.trim()), 'question chips post the text as data');
    });
  });
}
