/**
 * One packaged .vsix per test process: `npm run package` runs once (as a real process, the way
 * CI and users run it) and every suite that needs the installed extension reuses the result.
 * `TEAM_DATA_VSIX=/abs/file.vsix` skips packaging (e.g. a CI pre-step already made one).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { currentTarget, type PackageTarget } from '../../scripts/packaging/targets';

export const REPO = resolve(__dirname, '../..');

/** What `npm run package` printed and where the .vsix is. */
export interface PackagedVsix {
  vsix: string;
  /** stdout + stderr of the packaging run ('' when reused from TEAM_DATA_VSIX). */
  output: string;
}

let shared: Promise<PackagedVsix> | undefined;
const madeDirs: string[] = [];
process.once('exit', () => {
  for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
});

/**
 * Runs `npm run package -- [--target T] --out <temp>/team-data.vsix` and resolves with the file.
 * Each call packages again; use {@link packagedVsix} to share one.
 * @throws Error with the script's output when it fails.
 */
export function runPackageScript(target?: PackageTarget): Promise<PackagedVsix> {
  // A private output path: another test run in this checkout may be packaging at the same time.
  const dir = mkdtempSync(join(tmpdir(), 'td-vsix-'));
  madeDirs.push(dir);
  const out = join(dir, 'team-data.vsix');
  const args = ['run', 'package', '--', ...(target ? ['--target', target] : []), '--out', out];
  return new Promise((done, fail) => {
    const child = spawn('npm', args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('error', fail);
    child.once('close', (code) => {
      const reported = /^VSIX=(.+)$/m.exec(output)?.[1]?.trim();
      if (code !== 0 || reported !== out || !existsSync(out)) fail(new Error(`npm run package failed (exit ${code}):\n${output.slice(-4000)}`));
      else done({ vsix: out, output });
    });
  });
}

/** The .vsix for this machine (`--target` given explicitly), packaged at most once per test process. */
export function packagedVsix(): Promise<PackagedVsix> {
  const given = process.env['TEAM_DATA_VSIX'];
  if (given) {
    if (!isAbsolute(given) || !existsSync(given)) return Promise.reject(new Error(`TEAM_DATA_VSIX=${given} is not an existing absolute path`));
    return Promise.resolve({ vsix: given, output: '' });
  }
  shared ??= runPackageScript(currentTarget());
  // A failed run should not poison the suites that come later: they get their own attempt.
  shared.catch(() => (shared = undefined));
  return shared;
}
