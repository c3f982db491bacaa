/**
 * `npm start` as a newcomer runs it, in a real process: it must build and package the extension,
 * start code-server (no desktop VS Code here) with the .vsix installed on a copy of the sample
 * workspace, and print a URL where the extension is ACTIVE and its embedded local service runs.
 * Ctrl+C (SIGINT to the launcher's process group, as a terminal sends it) must then stop
 * everything: nothing left in the group, and no process anywhere that still refers to the
 * launcher's temp folder (every process it starts inherits that TMPDIR).
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/vscode/codeServer';
import { groupMembers } from '../../scripts/vscode/processGroup';
import { explorerItem, runCommand, waitForWorkbenchReady } from '../ui/harness/workbench';
import { REPO } from './packagedVsix';

/** Live processes (not zombies, not this one) whose cwd, command line or environment mention `dir`. */
function processesReferencing(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'latin1').replace(/\0/g, ' ');
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      let cwd = '';
      try {
        cwd = readlinkSync(`/proc/${name}/cwd`);
      } catch {
        // kernel threads and processes of other users
      }
      if (cwd.startsWith(dir) || cmdline.includes(dir) || environ.includes(dir)) out.push(`${name}: ${cmdline.slice(0, 200)}`);
    } catch {
      // exited while we looked
    }
  }
  return out;
}

function waitForOutput(child: ChildProcess, output: () => string, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => finish(new Error(`no ${pattern} within ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      const m = pattern.exec(output());
      if (m) finish(undefined, m);
    };
    const onExit = (code: number | null) => finish(new Error(`npm start exited (code ${code}) before printing ${pattern}`));
    function finish(err: Error | undefined, m?: RegExpExecArray) {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
      if (err) fail(new Error(`${err.message}\n--- npm start output ---\n${output().slice(-5000)}`));
      else done(m as RegExpExecArray);
    }
    child.stdout?.on('data', check);
    child.once('exit', onExit);
    check();
  });
}

/** The output panel's text once it matches `pattern` (the editor renders spaces as U+00A0). */
async function waitForLog(page: Page, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = (await page.locator('.part.panel .view-lines').allTextContents()).join('\n').replace(/\u00a0/g, ' ');
    if (pattern.test(text)) return text;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the log never showed ${pattern}; it showed:\n${text.slice(-3000)}`);
}

describe('npm start (launcher in a real process)', function () {
  this.timeout(8 * 60_000);
  let scratch: string;
  let child: ChildProcess | undefined;
  let browser: Browser | undefined;
  let output = '';

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'td-start-test-'));
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    // Only if the test failed half-way: never leave the launcher running.
    if (child?.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('opens code-server with the packaged extension active on the samples, and Ctrl+C leaves nothing running', async () => {
    child = spawn('npm', ['start', '--', '--editor', 'code-server'], {
      cwd: REPO,
      // Own process group, like a terminal's foreground job; TMPDIR marks every descendant.
      detached: true,
      env: { ...process.env, TMPDIR: scratch },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pgid = child.pid as number;
    child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const exited = new Promise<number | null>((r) => child?.once('exit', (code) => r(code)));

    const [, url] = await waitForOutput(child, () => output, /\[start\] URL: (http:\/\/127\.0\.0\.1:\d+\/\S*)/, 5 * 60_000);
    assert.match(output, /\[start\] +building production bundles/);
    assert.match(output, /\[start\] installed team-data\.team-data-analysis@\d+\.\d+\.\d+ from the \.vsix/);
    assert.match(output, /sample workspace .*refund-policy\.md, sales\.csv, targets\.xlsx/);

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url as string);
    await waitForWorkbenchReady(page);
    for (const f of ['sales.csv', 'targets.xlsx', 'refund-policy.md']) await explorerItem(page, f).waitFor({ state: 'visible', timeout: 30_000 });

    // Opening the Team Data view activates the extension (lazily: nothing ran before) and loads
    // the Datasets tree, which starts the embedded local service.
    await page.locator('.activitybar .action-item a[aria-label^="Team Data"]').first().click();
    await page.locator('.part.sidebar .pane-header').filter({ hasText: 'Datasets' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator('.statusbar-item').filter({ hasText: 'Team Data: Local' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await runCommand(page, 'Team Data: Show Logs');
    const log = await waitForLog(page, /Local service ready at http:\/\/127\.0\.0\.1:\d+/, 90_000);
    assert.match(log, /Team Data Analysis \d+\.\d+\.\d+ activated \(local service\)/);
    await browser.close();
    browser = undefined;

    // Ctrl+C in a terminal: SIGINT to the whole foreground process group.
    process.kill(-pgid, 'SIGINT');
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 90_000)))]);
    clearTimeout(timer);
    assert.notEqual(code, 'timeout', `npm start did not stop after SIGINT:\n${output.slice(-3000)}`);
    assert.match(output, /\[start\] stopped; no process left running/);
    assert.deepEqual(groupMembers(pgid).map((m) => m.pid), [], 'processes left in the launcher group');
    assert.deepEqual(processesReferencing(scratch), [], 'processes still using the launcher temp folder');
    assert.deepEqual(readdirSync(scratch).filter((d) => /^(team-data-start-|tdcs-|td-package-)/.test(d)), [], 'temp folders left behind');
  });
});
