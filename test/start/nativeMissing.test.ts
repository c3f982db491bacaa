/**
 * The packaged extension on a platform whose DuckDB binding is missing (the installed .vsix with
 * its binding folder removed), in a real VS Code (code-server + Chromium): the Datasets view says
 * plainly that the local service cannot run on this platform (no crash, the editor keeps
 * working), and once the user points it at a hosted service, everything works against that
 * service. The "hosted" service is the real local service started by the test, with the
 * repository's binding, reached over HTTP with a key from TEAM_DATA_API_KEY.
 */
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installVsix } from '../../scripts/vscode/codeServer';
import { currentTarget, platformSuffix } from '../../scripts/packaging/targets';
import { TeamDataClient } from '../../src/api/index';
import { startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';
import { openWorkbench, saveScreenshot, type Workbench } from '../ui/harness/workbench';
import { packagedVsix, REPO } from './packagedVsix';

describe('packaged extension without its native binding (code-server)', function () {
  this.timeout(8 * 60_000);
  let scratch: string;
  let hosted: Harness | undefined;
  let wb: Workbench | undefined;

  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'td-native-'));
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) await saveScreenshot(wb.page, 'native-missing-failure').catch(() => undefined);
  });

  after(async () => {
    await wb?.close();
    await hosted?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('says the local service cannot run on this platform, and a hosted service still works', async () => {
    const { vsix } = await packagedVsix();
    const extensionsDir = join(scratch, 'extensions');
    await installVsix(vsix, extensionsDir);
    const installed = readdirSync(extensionsDir).find((d) => d.startsWith('team-data.team-data-analysis-'));
    assert.ok(installed, 'the .vsix installed');
    const extension = join(scratch, 'team-data-analysis');
    cpSync(join(extensionsDir, installed), extension, { recursive: true });
    rmSync(join(extension, 'node_modules', `@duckdb/node-bindings-${platformSuffix(currentTarget())}`), { recursive: true, force: true });

    hosted = await startHarness();
    const client = new TeamDataClient({ baseUrl: hosted.baseUrl, apiKey: TEST_KEY, userId: USER });
    await client.datasets.create({ name: 'Hosted quarterly sales', description: 'made by the test' });

    const workspace = join(scratch, 'samples');
    mkdirSync(workspace);
    for (const f of readdirSync(join(REPO, 'samples'))) cpSync(join(REPO, 'samples', f), join(workspace, f));
    wb = await openWorkbench({ workspace, extensionDevelopmentPath: extension, env: { TEAM_DATA_API_KEY: TEST_KEY } });
    const { page, server } = wb;

    // Local mode (no base URL): the Datasets view explains, and the editor keeps working.
    await page.locator('.activitybar .action-item a[aria-label^="Team Data"]').first().click();
    const sidebar = page.locator('.part.sidebar');
    const problem = sidebar.locator('.monaco-list-row').filter({ hasText: /cannot run on this platform/ }).first();
    await problem.waitFor({ state: 'visible', timeout: 90_000 });
    assert.match((await problem.textContent()) ?? '', /DuckDB native part failed to load/);
    await page.locator('.statusbar-item').filter({ hasText: 'Team Data: Local' }).locator('.codicon-error').first().waitFor({ state: 'visible', timeout: 30_000 });
    await saveScreenshot(page, 'native-missing-local');

    // Point it at the hosted service, as a user would in the settings; the key comes from the
    // environment (TEAM_DATA_API_KEY), so no sign-in dialog is needed. Both settings are
    // machine-overridable, so in a remote window (code-server is one) they live in the remote
    // machine's settings, which VS Code watches on disk.
    const machineDir = join(server.userDataDir, 'Machine');
    mkdirSync(machineDir, { recursive: true });
    writeFileSync(join(machineDir, 'settings.json'), JSON.stringify({ 'teamData.baseUrl': hosted.baseUrl, 'teamData.userId': USER }, null, 2));
    const host = new URL(hosted.baseUrl).host;
    await page.locator('.statusbar-item').filter({ hasText: `Team Data: ${host}` }).first().waitFor({ state: 'visible', timeout: 60_000 });
    await sidebar.locator('.monaco-list-row').filter({ hasText: 'Hosted quarterly sales' }).first().waitFor({ state: 'visible', timeout: 60_000 });
    // Both views refresh on the settings change, each on its own turn: wait for the last one to
    // drop the local-service problem (it must go, so a row that stays still fails the test).
    await sidebar.locator('.monaco-list-row').filter({ hasText: /cannot run on this platform/ }).first().waitFor({ state: 'detached', timeout: 30_000 });
    await saveScreenshot(page, 'native-missing-hosted');
  });
});
