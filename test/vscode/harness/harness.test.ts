/**
 * Proves the VS Code test harness on a fixture extension, in a real VS Code (code-server 4.100.3
 * = VS Code 1.100.3) driven through Chromium:
 * - extension-host mocha tests through @vscode/test-electron's runTests + our executable shim;
 * - a Playwright UI check (palette command, Explorer context menu, webview text, screenshot).
 * Needs scripts/vscode/ensureCodeServer.sh to have run once; otherwise it fails saying so.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findChromium, findCodeServer, HarnessSetupError, installVsix, listExtensions } from '../../../scripts/vscode/codeServer';
import { parseExtensionTestArgs, workbenchUrl } from '../../../scripts/vscode/extensionTestArgs';
import { groupMembers, processesWithEnv, stopProcessGroup } from '../../../scripts/vscode/processGroup';
import {
  activeWebviewFrame, explorerContextMenu, openWorkbench, readNotifications, runCommand, saveScreenshot,
  waitForNotification, type Workbench,
} from '../../ui/harness/workbench';
import { CODE_SERVER_SHIM, resolveVscodeTarget, runExtensionTests } from './runExtensionTests';
import { packVsix } from './vsix';

const FIXTURE = resolve(__dirname, '../../fixtures/fixtureExtension');
const FIXTURE_TESTS = join(FIXTURE, 'test', 'index.js');
const FIXTURE_TITLES = [
  'is loaded from the development path and activates',
  'registers its commands',
  'opens the folder given on the command line',
  'Say Hello shows its message and opens the webview panel',
  'Describe File takes the Explorer multi-selection',
  'sees the environment given to the test run',
].map((t) => `fixture extension in a real VS Code ${t}`);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Processes still carrying `entry` in their environment, after giving exits a moment. */
async function leftovers(entry: string): Promise<number[]> {
  for (let i = 0; i < 50; i++) {
    const pids = processesWithEnv(entry);
    if (pids.length === 0) return pids;
    await sleep(100);
  }
  return processesWithEnv(entry);
}

function makeWorkspace(scratch: string): string {
  const ws = join(scratch, 'workspace');
  mkdirSync(ws);
  writeFileSync(join(ws, 'a.csv'), 'region,amount\nnorth,10\nsouth,20\n');
  writeFileSync(join(ws, 'b.CSV'), 'x\n1\n');
  writeFileSync(join(ws, 'notes.txt'), 'not data\n');
  return ws;
}

describe('VS Code harness: arguments and URLs', () => {
  it('parses the command line runTests gives a VS Code executable', () => {
    const args = parseExtensionTestArgs(
      ['/ws', '--extensions-dir=/p/ext', '--user-data-dir=/p/ud', '--no-sandbox', '--disable-updates',
        '--extensionTestsPath=/e/test/index.js', '--extensionDevelopmentPath=/e', '--extensionDevelopmentPath=/f'],
      '/cwd',
    );
    assert.deepEqual(args, {
      folder: '/ws', extensionsDir: '/p/ext', userDataDir: '/p/ud', extensionTestsPath: '/e/test/index.js',
      extensionDevelopmentPaths: ['/e', '/f'], ignored: ['--no-sandbox', '--disable-updates'],
    });
  });

  it('accepts "--flag value", resolves relative paths against cwd, rejects a missing value', () => {
    const args = parseExtensionTestArgs(['--user-data-dir', 'ud', 'ws', '--extensionTestsPath=t.js'], '/cwd');
    assert.equal(args.userDataDir, '/cwd/ud');
    assert.equal(args.folder, '/cwd/ws');
    assert.equal(args.extensionTestsPath, '/cwd/t.js');
    assert.throws(() => parseExtensionTestArgs(['--extensions-dir'], '/cwd'), /--extensions-dir needs a value/);
    assert.throws(() => parseExtensionTestArgs(['--extensionTestsPath='], '/cwd'), /needs a value/);
  });

  it('builds the workbench URL with vscode-remote URIs in the payload', () => {
    const url = new URL(workbenchUrl('http://127.0.0.1:4321', {
      folder: '/my ws', extensionDevelopmentPaths: ['/ext dir#1'], extensionTestsPath: '/ext dir#1/test/index.js',
    }));
    assert.equal(url.origin, 'http://127.0.0.1:4321');
    assert.equal(url.searchParams.get('folder'), '/my ws');
    assert.deepEqual(JSON.parse(url.searchParams.get('payload') ?? 'null'), [
      ['extensionDevelopmentPath', 'vscode-remote://127.0.0.1:4321/ext%20dir%231'],
      ['extensionTestsPath', 'vscode-remote://127.0.0.1:4321/ext%20dir%231/test/index.js'],
    ]);
    const empty = new URL(workbenchUrl('http://127.0.0.1:1', {}));
    assert.equal(empty.searchParams.get('ew'), 'true');
    assert.equal(empty.searchParams.get('payload'), null);
    assert.throws(() => workbenchUrl('http://127.0.0.1:1', { extensionTestsPath: 'rel/index.js' }), /absolute/);
  });

  it('chooses where tests run from TEAM_DATA_VSCODE', () => {
    assert.deepEqual(resolveVscodeTarget('code-server'), { kind: 'code-server', executable: CODE_SERVER_SHIM });
    assert.equal(resolveVscodeTarget('download').kind, 'download');
    assert.deepEqual(resolveVscodeTarget(process.execPath), { kind: 'executable', executable: process.execPath });
    assert.throws(() => resolveVscodeTarget('/no/such/code'), /TEAM_DATA_VSCODE/);
    assert.throws(() => resolveVscodeTarget('relative/code'), /TEAM_DATA_VSCODE/);
    assert.ok(statSync(CODE_SERVER_SHIM).mode & 0o100, 'the shim must be executable: runTests spawns it directly');
  });

  it('stops a whole process group, grandchildren included', async () => {
    const child = spawn('sh', ['-c', 'sleep 300 & sleep 300 & wait'], { detached: true, stdio: 'ignore' });
    const pgid = child.pid as number;
    for (let i = 0; i < 50 && groupMembers(pgid).length < 3; i++) await sleep(20);
    assert.equal(groupMembers(pgid).length, 3, 'sh and its two sleeps');
    await stopProcessGroup(pgid);
    assert.deepEqual(groupMembers(pgid), []);
  });
});

describe('VS Code harness: real VS Code (code-server + Chromium)', function () {
  this.timeout(240_000);
  const marker = `TEAM_DATA_HARNESS_RUN=${randomUUID()}`;
  const [markerKey, markerValue] = marker.split('=') as [string, string];
  let scratch = '';
  let workspace = '';

  before(function () {
    try {
      findCodeServer();
      findChromium();
    } catch (err) {
      // A missing prerequisite must fail loudly, never skip.
      if (err instanceof HarnessSetupError) throw new Error(`VS Code harness prerequisites missing: ${err.message}`);
      throw err;
    }
    // Every process started from here inherits the marker, so leaks can be found precisely.
    process.env[markerKey] = markerValue;
    scratch = mkdtempSync(join(tmpdir(), 'tdharness-'));
    workspace = makeWorkspace(scratch);
  });

  after(() => {
    delete process.env[markerKey];
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  describe('extension tests through @vscode/test-electron runTests', () => {
    async function runFixture(extraEnv: Record<string, string>) {
      const resultFile = join(scratch, `result-${randomUUID()}.json`);
      const logFile = join(scratch, `log-${randomUUID()}.txt`);
      const code = await runExtensionTests({
        extensionDevelopmentPath: FIXTURE,
        extensionTestsPath: FIXTURE_TESTS,
        workspace,
        env: {
          FIXTURE_RESULT_FILE: resultFile,
          FIXTURE_EXPECTED_WORKSPACE: workspace,
          FIXTURE_MARKER: 'from-runTests-extensionTestsEnv',
          ...extraEnv,
        },
        logFile,
        timeoutMs: 180_000,
      });
      assert.ok(existsSync(resultFile), `the suite never ran in the extension host (exit ${code})`);
      const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { passed: string[]; failed: { title: string; error: string }[] };
      return { code, result, log: readFileSync(logFile, 'utf8') };
    }

    it('runs the fixture suite inside the extension host; all pass, exit code 0', async () => {
      const { code, result, log } = await runFixture({});
      assert.deepEqual(result.failed, []);
      assert.deepEqual(result.passed, FIXTURE_TITLES);
      assert.equal(code, 0);
      // mocha's report reached us through codeAutomationLog, formatted.
      assert.match(log, /6 passing/);
      assert.match(log, /✔ Say Hello shows its message and opens the webview panel/);
    });

    it('turns a failing extension test into a non-zero exit code', async () => {
      const { code, result, log } = await runFixture({ FIXTURE_FORCE_FAILURE: '1' });
      assert.deepEqual(result.failed.map((f) => f.title), ['fixture extension in a real VS Code fails on purpose (FIXTURE_FORCE_FAILURE=1)']);
      assert.deepEqual(result.passed, FIXTURE_TITLES);
      assert.notEqual(code, 0);
      assert.match(log, /1 failing/);
    });
  });

  describe('time limit', () => {
    it('a run that exceeds its time limit exits with 124 (and is cleaned up, see the last test)', async () => {
      const resultFile = join(scratch, 'never.json');
      const code = await runExtensionTests({
        extensionDevelopmentPath: FIXTURE,
        extensionTestsPath: FIXTURE_TESTS,
        workspace,
        env: { FIXTURE_RESULT_FILE: resultFile },
        timeoutMs: 1000,
      });
      assert.equal(code, 124);
      assert.ok(!existsSync(resultFile), 'the suite should not have finished within 1 s');
    });
  });

  describe('UI: Playwright on the workbench', () => {
    let wb: Workbench | undefined;

    before(async () => {
      wb = await openWorkbench({ workspace, extensionDevelopmentPath: FIXTURE });
      console.log(`      (workbench ready in ${wb.readyMs} ms)`);
    });

    after(async () => {
      await wb?.close();
    });

    it('runs "Fixture: Say Hello" from the palette: notification and webview text', async () => {
      const page = (wb as Workbench).page;
      await runCommand(page, 'Fixture: Say Hello');
      const toast = await waitForNotification(page, 'Hello from the fixture extension');
      assert.equal(toast, 'Hello from the fixture extension');
      const greeting = activeWebviewFrame(page).locator('#greeting');
      await greeting.waitFor({ state: 'visible', timeout: 15_000 });
      assert.equal(await greeting.textContent(), 'Hello from the fixture webview');
      // The extension's own script ran under the webview's CSP.
      const status = activeWebviewFrame(page).locator('#status');
      await status.filter({ hasText: 'script ran' }).waitFor({ timeout: 15_000 });
      const shot = await saveScreenshot(page, 'harness-fixture-say-hello');
      assert.ok(statSync(shot).size > 10_000, `screenshot too small: ${shot}`);
    });

    it('right-clicks a CSV in the Explorer and runs the extension\'s context-menu item', async () => {
      const page = (wb as Workbench).page;
      await explorerContextMenu(page, 'a.csv', 'Describe File');
      assert.equal(await waitForNotification(page, 'Fixture saw'), 'Fixture saw a.csv');
      assert.ok((await readNotifications(page)).includes('Fixture saw a.csv'));
      await saveScreenshot(page, 'harness-fixture-explorer-menu');
    });

    it('does not offer the CSV-only item on other files', async () => {
      const page = (wb as Workbench).page;
      await assert.rejects(explorerContextMenu(page, 'notes.txt', 'Describe File', 1000), /not in the Explorer context menu/);
    });
  });

  describe('packaged extension', () => {
    it('installVsix installs a packed .vsix that code-server then lists; a corrupt one fails with the reason', async () => {
      const vsix = join(scratch, 'fixture.vsix');
      const extensionsDir = join(scratch, 'installed-extensions');
      packVsix(FIXTURE, vsix, (rel) => rel === 'test' || rel.startsWith('test/'));
      await installVsix(vsix, extensionsDir);
      assert.deepEqual(await listExtensions(extensionsDir), ['team-data-tests.fixture-extension@0.0.1']);
      const installed = join(extensionsDir, 'team-data-tests.fixture-extension-0.0.1');
      assert.ok(existsSync(join(installed, 'extension.js')));
      assert.ok(!existsSync(join(installed, 'test')), 'excluded files must not be packed');
      const corrupt = join(scratch, 'corrupt.vsix');
      writeFileSync(corrupt, 'not a zip');
      await assert.rejects(installVsix(corrupt, extensionsDir), /installing .*corrupt\.vsix failed[\s\S]*not a zip file/);
      await assert.rejects(installVsix('relative.vsix', extensionsDir), /no such \.vsix/);
    });
  });

  // Last: mocha runs a suite's own tests before its nested suites.
  describe('cleanup', () => {
    it('leaves no process behind (server, extension host, watchers, browser, crash handler)', async () => {
      assert.deepEqual(await leftovers(marker), []);
    });
  });
});
