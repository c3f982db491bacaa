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
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { installVsix } from '../../../scripts/vscode/codeServer';
import { packagedVsix } from '../../start/packagedVsix';
import type { OpenWorkbenchOptions } from './workbench';

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
