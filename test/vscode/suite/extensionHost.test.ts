/**
 * Runs the extension-host suite (test/vscode/suite/host) inside a real VS Code through
 * `@vscode/test-electron`'s runTests: code-server + Chromium on this machine, a downloaded or
 * local VS Code elsewhere (see test/vscode/harness/runExtensionTests.ts). The workspace is a temp
 * folder holding a copy of samples/sales.csv; the extension runs against its embedded local
 * service, for real. Fails with the suite's own failures, never skips.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { runExtensionTests } from '../harness/runExtensionTests';
import { readDiscovery } from '../../../src/server/daemon/discovery';
import { attachOrStart } from '../../../src/cli/serviceAttach';
import { stopShared, waitGone } from '../../helpers/sharedCli';

const repo = resolve(__dirname, '../../..');
const suiteOut = join(repo, 'out', 'test', 'vscode-suite');
/** A second development extension: a language-model chat provider the suites script (issue 26). */
const SCRIPTED_MODEL = join(repo, 'test', 'fixtures', 'scriptedModel');
const SCRIPTED_MODEL_ID = 'team-data-tests.scripted-model';
/**
 * TEAM_DATA_SUITE_GREP=<text> runs only the host tests whose full title contains it (mocha grep
 * inside the host); the REQUIRED list is then not checked, but something must have passed.
 * Pair it with mocha's own --grep 'API v2' to start one window only.
 */
const SUITE_GREP = process.env['TEAM_DATA_SUITE_GREP'] || undefined;

/** Titles that must have passed: a suite that silently ran nothing must not look green. */
const REQUIRED = [
  'startup after startup the extension activates by itself and shows the status bar item, with no view open and no command run',
  'startup while the local service starts both trees say so, never empty; then they fill (prints the time)',
  'restart with existing state after a restart the trees say "Starting the local service…", then list the same data (prints the time)',
  'activation registers every command in package.json, and nothing that is not in it',
  'activation speaks the API version the workspace selects',
  'sidebar trees against the local service Datasets lists every dataset of the service, paged with "Load more…"',
  'Analyze This File uploads the CSV, waits until synched, opens a session and streams the answer into the panel',
  'Analyze This File reuses the data source of the unchanged file instead of uploading it again',
  'sign in and out stores a valid key in SecretStorage (not settings) and Sign Out clears it',
  'delete, rename and the session limit deletes a dataset only after confirmation',
  'delete, rename and the session limit at the session limit, offers to delete the oldest sessions and then creates the new one',
  'local model (scripted VS Code language model) vscode.lm.selectChatModels lists the scripted model by vendor, with its metadata, without Copilot',
  'local model (scripted VS Code language model) sendRequest streams the scripted reply, and the provider records the prompt and who asked',
  'the answer panel through the scripted language model choosing the scripted model asks consent once, and the status bar names it',
  'the answer panel through the scripted language model a question in the panel is answered through the model with the plan stated, and both readings agree',
  'the answer panel through the scripted language model the language-model tools and @teamdata answer through the same model, and say so',
  'the answer panel through the scripted language model a disagreement asks with both readings and no numbers; the model\'s reading, clicked, answers without a new model request',
  'the answer panel through the scripted language model a word only the model placed answers with its reading stated; its glossary chip teaches the dataset, and the engine alone then understands it',
  'the answer panel through the scripted language model a declined consent leaves the model off: the engine answers alone and the provider gets no request',
  'the answer panel through the scripted language model a model whose provider refuses the extension (its own consent not given) falls back, and the answer says why',
  'the answer panel through the scripted language model a model error, a refusal and a plan naming an unknown column fall back to the engine, and the answer says so',
  'the answer panel through the scripted language model a model that does not answer within teamData.localModelTimeoutSeconds falls back to the engine, and the answer says so',
  'the answer panel through the scripted language model a question cancelled while the model thinks ends cancelled at once, and the next question is answered',
  'the answer panel through an OpenAI-compatible endpoint is chosen with its URL and model after consent, its key kept in SecretStorage; a question reaches it with the key and is answered',
  'Team Data Explorer (issue 27) opens explore-orders.parquet in the custom editor: the webview gets init and its first page',
  'Team Data Explorer (issue 27) opens an .xlsx workbook and switches sheets',
  'Team Data Explorer (issue 27) opens explore-orders.parquet.gz in the custom editor: the webview gets init and its first page',
  'Team Data Explorer (issue 27) opens a gzip workbook (.xlsx.gz) and switches sheets',
  'Team Data Explorer (issue 27) Explore on an answer table opens the table\'s CSV in the explorer',
  'Team Data Explorer (issue 27) Ask about this view: the answer\'s reading line states the view\'s filter',
  'Team Data Explorer (issue 27) a deleted file gives a plain message in the editor',
  'Team Data Explorer (issue 27) opens a data source of the Datasets tree in the explorer',
  'Team Data Explorer (issue 27) Export CSV writes the filtered view where the save dialog says, and nothing else',
  'Team Data Explorer (issue 27) bad input gives a plain message while the service stays up a 500 MB file on a single line',
  'Team Data Explorer (issue 27) answers every page asked for while a large CSV is still read (a status poll no longer drops the reply in flight)',
  'Team Data Explorer: kept across closing and reloading (issue 27) pinned rows come back when the tab is reopened, fetched again by index under the saved query, with its sort, filters and pins',
  'Team Data Explorer: kept across closing and reloading (issue 27) an explorer panel comes back after a window reload: the serializer opens it again from the state its webview kept',
  'Team Data Explorer: kept across closing and reloading (issue 27) a restored panel whose table copy or data source is gone says so in the tab; a state that is not valid opens nothing',
  'Team Data Explorer: exports and the hosted service (issue 27) Export Parquet writes a valid Parquet file with the filtered view\'s rows, in the view\'s order',
  'Team Data Explorer: exports and the hosted service (issue 27) cancelling an export stops it and leaves no file, not even a partial one',
  'Team Data Explorer: exports and the hosted service (issue 27) connected to the hosted service says plainly that the explorer needs the local service, from the command and in an editor opened with Open With',
];

describe('extension in a real VS Code (extension-host suite)', function () {
  this.timeout(15 * 60_000);
  let scratch: string;

  before(async () => {
    // The extension runs from dist/ (extension, CLI for the local service, webview bundle).
    // TEAM_DATA_SKIP_BUILD=1 runs against dist/ as it is (for iterating on the tests themselves).
    if (process.env['TEAM_DATA_SKIP_BUILD'] !== '1') execFileSync(process.execPath, [join(repo, 'esbuild.mjs')], { cwd: repo, stdio: 'pipe' });
    for (const f of ['extension.js', 'cli.js']) assert.ok(existsSync(join(repo, 'dist', f)), `dist/${f} was not built`);
    await esbuild.build({
      entryPoints: { index: join(repo, 'test/vscode/suite/host/index.ts') },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outdir: suiteOut,
      external: ['vscode', 'mocha'],
      sourcemap: 'inline',
      logLevel: 'warning',
    });
    scratch = mkdtempSync(join(tmpdir(), 'td-ext-'));
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  // The main flows once per API version: the local service speaks both, and the extension must
  // work in either (v2 is the default; a workspace setting selects v1).
  for (const version of ['v2', 'v1'] as const) it(`passes the suite against the embedded local service (API ${version})`, async () => {
    const workspace = join(scratch, `sales-demo-${version}`);
    mkdirSync(join(workspace, '.vscode'), { recursive: true });
    copyFileSync(join(repo, 'samples', 'sales.csv'), join(workspace, 'sales.csv'));
    writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify({ 'teamData.apiVersion': version }, null, 2)}\n`);
    const resultFile = join(scratch, `result-${version}.json`);
    const logFile = join(scratch, `suite-${version}.log`);
    const code = await runExtensionTests({
      extensionDevelopmentPath: [repo, SCRIPTED_MODEL],
      enableProposedApi: [SCRIPTED_MODEL_ID],
      extensionTestsPath: join(suiteOut, 'index.js'),
      workspace,
      env: { TEAM_DATA_SUITE_RESULT: resultFile, TEAM_DATA_SUITE_API_VERSION: version, TEAM_DATA_SUITE_GREP: SUITE_GREP },
      logFile,
      timeoutMs: 12 * 60_000,
    });
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '(no log)';
    // The figures the suite printed (startup times), shown with this run's output.
    for (const line of log.split('\n').filter((l) => /^\s*(startup|local model): /.test(l))) console.log(`      ${line.trim()} [API ${version}]`);
    assert.ok(existsSync(resultFile), `the suite did not report (exit ${code}):\n${log.slice(-6000)}`);
    const result = JSON.parse(readFileSync(resultFile, 'utf8')) as { passed: string[]; failed: Array<{ title: string; error: string }> };
    assert.deepEqual(result.failed.map((f) => `${f.title}: ${f.error}`), [], log.slice(-6000));
    if (SUITE_GREP) assert.ok(result.passed.length > 0, `nothing matching "${SUITE_GREP}" passed:\n${log.slice(-6000)}`);
    else for (const t of REQUIRED) assert.ok(result.passed.includes(t), `did not pass: ${t}\npassed: ${result.passed.join('\n')}`);
    console.log(`      ${result.passed.length} host test(s) passed, ${result.failed.length} failed [API ${version}]`);
    assert.equal(code, 0, log.slice(-6000));
  });

  it('two windows and the CLI share one local service and its data; closing the window that started it leaves the other working', async () => {
    const data = join(scratch, 'shared-data');
    const sync = join(scratch, 'sync');
    const tmp = join(scratch, 'shared-tmp');
    const cliFolder = join(scratch, 'made by the CLI');
    for (const d of [sync, tmp, cliFolder]) mkdirSync(d, { recursive: true });
    copyFileSync(join(repo, 'samples', 'sales.csv'), join(cliFolder, 'sales.csv'));
    const cli = (args: string[], idleMs: string): string => execFileSync(process.execPath, [join(repo, 'dist', 'cli.js'), ...args, '--data-dir', data], {
      cwd: cliFolder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, TEAM_DATA_IDLE_MS: idleMs, TEAM_DATA_BASE_URL: '', TEAM_DATA_API_KEY: '' },
    });
    try {
      // The CLI first: its dataset must show in both windows. Its service is stopped, so window A starts the next one.
      assert.match(cli(['ask', 'sales.csv', '--question', 'total revenue by region'], '500'), /Europe/);
      await stopShared(data);
      // Both windows' folders were open before (a service remembers them), so the service window
      // A starts can read both and B attaches without a restart; the restart a new folder needs is
      // the supervisor test's (a second window with a folder the service cannot read yet).
      for (const w of ['A', 'B']) mkdirSync(join(scratch, `window-${w}`), { recursive: true });
      const earlier = await attachOrStart({
        dataDir: data, cliPath: join(repo, 'dist', 'cli.js'), version: 'earlier', client: 'vscode',
        roots: () => ['A', 'B'].map((w) => join(scratch, `window-${w}`)), env: { ...process.env, TEAM_DATA_IDLE_MS: '500' },
      });
      await earlier.lease.release();
      await stopShared(data);
      // A shared TMPDIR: closing a window's code-server must not take the service with it (a real window's close does not).
      const run = (w: 'A' | 'B'): Promise<{ code: number; result: { passed: string[]; failed: Array<{ title: string; error: string }> }; log: string }> => {
        const workspace = join(scratch, `window-${w}`);
        mkdirSync(workspace, { recursive: true });
        const resultFile = join(scratch, `result-window-${w}.json`);
        const logFile = join(scratch, `suite-window-${w}.log`);
        return runExtensionTests({
          extensionDevelopmentPath: repo, extensionTestsPath: join(suiteOut, 'index.js'), workspace, logFile, timeoutMs: 10 * 60_000,
          env: { TEAM_DATA_SUITE_RESULT: resultFile, TEAM_DATA_SUITE_WINDOW: w, TEAM_DATA_SUITE_SYNC: sync, TEAM_DATA_DATA_DIR: data, TMPDIR: tmp, TEAM_DATA_IDLE_MS: '4000' },
        }).then((code) => ({
          code,
          result: existsSync(resultFile) ? JSON.parse(readFileSync(resultFile, 'utf8')) as { passed: string[]; failed: Array<{ title: string; error: string }> } : { passed: [], failed: [{ title: 'no result', error: '' }] },
          log: existsSync(logFile) ? readFileSync(logFile, 'utf8') : '(no log)',
        }));
      };
      const a = run('A').then((r) => {
        writeFileSync(join(sync, 'A-closed'), '');
        return r;
      });
      const b = run('B');
      // The CLI asks while both windows hold the service (each saw everything): it attaches to the same one.
      const both = Date.now();
      while (!(existsSync(join(sync, 'A-saw-all')) && existsSync(join(sync, 'B-saw-all')))) {
        if (Date.now() - both > 8 * 60_000) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const servicePid = readFileSync(join(sync, 'A-attached'), 'utf8');
      assert.match(cli(['ask', 'sales.csv', '--question', 'total revenue by channel'], '4000'), /Online|Retail|Partner/i);
      const read = await readDiscovery(data);
      assert.ok(read?.ok && String(read.discovery.pid) === servicePid, 'the CLI used the windows\' service');
      // And the CLI sees what the windows made and asked.
      const datasets = cli(['datasets', 'list'], '4000');
      for (const w of ['A', 'B']) assert.match(datasets, new RegExp(`made in window ${w}`));
      const sessions = cli(['sessions', 'list'], '4000');
      for (const w of ['A', 'B']) assert.match(sessions, new RegExp(`asked in window ${w}\\s+1\\b`), sessions);
      for (const r of [await a, await b]) {
        assert.deepEqual(r.result.failed.map((f) => `${f.title}: ${f.error}`), [], r.log.slice(-6000));
        assert.equal(r.code, 0, r.log.slice(-6000));
      }
      assert.equal((await a).result.passed.length, 1);
      assert.equal((await b).result.passed.length, 2, (await b).log.slice(-3000));
      // B checked the service outlived A; once B closed too, it ends by itself (no orphan).
      assert.ok(await waitGone(Number(servicePid), 60_000), 'the service ended after its last window closed');
    } finally {
      await stopShared(data);
    }
  });
});
