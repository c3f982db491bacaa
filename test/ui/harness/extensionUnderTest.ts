/**
 * Which build of the extension the code-server UI suites load, and getting it ready.
 *
 * By default the packaged one: `npm run package` (once per test process, see
 * test/start/packagedVsix.ts) installed with code-server's --install-extension, as users get it.
 * TEAM_DATA_UI_EXTENSION=dev loads the development folder instead (dist/ built by esbuild.mjs;
 * TEAM_DATA_SKIP_BUILD=1 uses dist/ as it is, for iterating on the tests themselves).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { installVsix } from '../../../scripts/vscode/codeServer';
import type { Page } from 'playwright-core';
import { packagedVsix } from '../../start/packagedVsix';
import { escapeRegExp, explorerContextMenu, openWorkbench, saveScreenshot, waitForQuickInput, type OpenWorkbenchOptions, type Workbench } from './workbench';

export const repo = resolve(__dirname, '../../..');

/** Builds the development folder or installs the packaged .vsix under `scratch`; returns how to open the workbench with it. */
export async function prepareExtension(scratch: string): Promise<Pick<OpenWorkbenchOptions, 'extensionDevelopmentPath' | 'extensionsDir'>> {
  if (process.env['TEAM_DATA_UI_EXTENSION'] === 'dev') {
    if (process.env['TEAM_DATA_SKIP_BUILD'] !== '1') execFileSync(process.execPath, [join(repo, 'esbuild.mjs')], { cwd: repo, stdio: 'pipe' });
    for (const f of ['extension.js', 'cli.js']) assert.ok(existsSync(join(repo, 'dist', f)), `dist/${f} was not built`);
    return { extensionDevelopmentPath: repo };
  }
  const { vsix } = await packagedVsix();
  const extensionsDir = join(scratch, 'extensions');
  await installVsix(vsix, extensionsDir);
  assert.ok(readdirSync(extensionsDir).some((d) => d.startsWith('team-data.team-data-analysis-')), `the .vsix did not install: ${readdirSync(extensionsDir).join(', ')}`);
  return { extensionsDir };
}

/** A UI suite's workbench: `open` starts code-server on a fresh workspace with the extension under test. */
export interface ExtensionWorkbench {
  /** Creates `<scratch>/<folder>`, lets `fill` put files in it, and opens the workbench on it. */
  open(folder: string, fill: (workspace: string) => void, settings?: Record<string, unknown>): Promise<Workbench>;
}

/**
 * Hooks for a suite that drives the extension in code-server: the extension is prepared once
 * before the suite, a failed test leaves a screenshot named `<name>-failure` (what the window
 * showed says more than the locator in the error), and everything is stopped and removed after.
 */
export function useExtensionWorkbench(name: string): ExtensionWorkbench {
  let scratch = '';
  let extension: Awaited<ReturnType<typeof prepareExtension>> = {};
  let wb: Workbench | undefined;
  before(async () => {
    scratch = mkdtempSync(join(tmpdir(), `td-ui-${name}-`));
    extension = await prepareExtension(scratch);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) await saveScreenshot(wb.page, `${name}-failure`).catch(() => undefined);
  });
  after(async () => {
    await wb?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });
  return {
    async open(folder, fill, settings = { 'workbench.colorTheme': 'Default Dark Modern' }) {
      const workspace = join(scratch, folder);
      mkdirSync(workspace);
      fill(workspace);
      wb = await openWorkbench({ workspace, ...extension, settings });
      return wb;
    },
  };
}

/**
 * Right-click `file` in the Explorer -> Analyze This File, up to the dataset pick: checks that its
 * default (first) row offers a new dataset named after the workspace `folder`. Enter accepts it.
 */
export async function analyzeFromExplorer(page: Page, file: string, folder: string): Promise<void> {
  await explorerContextMenu(page, file, 'Analyze This File');
  await waitForQuickInput(page, new RegExp(`Add ${escapeRegExp(file)} to which dataset`));
  const first = page.locator('.quick-input-widget .monaco-list-row').first();
  await first.waitFor({ state: 'visible' });
  assert.match((await first.textContent()) ?? '', new RegExp(`New dataset “${escapeRegExp(folder)}”`));
}
