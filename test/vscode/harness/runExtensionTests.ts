/**
 * Runs an extension's test suite (an `extensionTestsPath` module exporting `run()`) inside a
 * real VS Code through `@vscode/test-electron`'s runTests.
 *
 * Which VS Code (env `TEAM_DATA_VSCODE`):
 * - unset: a desktop VS Code found as `code` on PATH, else code-server (this machine);
 * - `code-server`: code-server + Chromium through the `vscodeExecutablePath` shim;
 * - `download`: let runTests download VS Code (`TEAM_DATA_VSCODE_VERSION`, default stable);
 * - an absolute path: that VS Code executable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { runTests, TestRunFailedError } from '@vscode/test-electron';
import { findChromium, findCodeServer, installVsix } from '../../../scripts/vscode/codeServer';
import { packVsix } from './vsix';

/** The `vscodeExecutablePath` shim that runs tests in code-server. */
export const CODE_SERVER_SHIM = resolve(__dirname, '../../../scripts/vscode/codeServerExecutable.mjs');

/** Where the tests will run. */
export type VscodeTarget =
  | { kind: 'code-server'; executable: string }
  | { kind: 'download'; version: string }
  | { kind: 'executable'; executable: string };

/** Options of {@link runExtensionTests}. */
export interface RunExtensionTestsOptions {
  /**
   * Folder holding the extension's package.json. Several: the first is the extension under
   * test; in code-server the others are installed into the run's extensions folder instead (its
   * web workbench keeps only the last `extensionDevelopmentPath` of the URL payload, which it
   * reads into a Map), elsewhere they are development extensions too.
   */
  extensionDevelopmentPath: string | string[];
  /** Module (or folder with index.js) exporting `run(): Promise<void>`. */
  extensionTestsPath: string;
  /** Folder to open; default: none (empty window). */
  workspace?: string;
  /** Environment of the extension host (and so of the tests). */
  env?: Record<string, string | undefined>;
  /** code-server only: also append the tests' output (mocha's report) to this file. */
  logFile?: string;
  /** code-server only: overall time limit for the run; default 10 min. */
  timeoutMs?: number;
  /**
   * Extension ids allowed to use proposed API (`--enable-proposed-api`). A desktop stable VS Code
   * needs it; code-server allows proposed API to every extension anyway.
   */
  enableProposedApi?: string[];
}

/** Electron binary of a desktop VS Code whose CLI is `code` on PATH, if any. */
function desktopVscodeOnPath(): string | undefined {
  let cli: string;
  try {
    cli = realpathSync(execFileSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
  // Linux packages put the CLI script in <install>/bin/code and Electron in <install>/code; a
  // remote-server or code-server CLI has no resources/app beside it and is not a desktop build.
  const install = dirname(dirname(cli));
  const electron = join(install, 'code');
  return existsSync(join(install, 'resources', 'app', 'product.json')) && existsSync(electron) ? electron : undefined;
}

/** Decides where tests run, from `TEAM_DATA_VSCODE` and what is installed. */
export function resolveVscodeTarget(setting = process.env.TEAM_DATA_VSCODE): VscodeTarget {
  if (setting === 'download') return { kind: 'download', version: process.env.TEAM_DATA_VSCODE_VERSION || 'stable' };
  if (setting && setting !== 'code-server') {
    if (!isAbsolute(setting) || !existsSync(setting)) {
      throw new Error(`TEAM_DATA_VSCODE must be "code-server", "download" or an existing absolute path; got ${setting}`);
    }
    return { kind: 'executable', executable: setting };
  }
  if (!setting) {
    const desktop = desktopVscodeOnPath();
    if (desktop) return { kind: 'executable', executable: desktop };
  }
  return { kind: 'code-server', executable: CODE_SERVER_SHIM };
}

/**
 * Runs the tests and resolves with the exit code (0 = all passed).
 * @throws HarnessSetupError (from codeServer.ts) when code-server or chromium is missing, with
 * the command that fixes it; other errors when VS Code cannot be downloaded or started.
 */
export async function runExtensionTests(options: RunExtensionTestsOptions): Promise<number> {
  const target = resolveVscodeTarget();
  if (target.kind === 'code-server') {
    findCodeServer();
    findChromium();
  }
  // Profile dirs outside the repo (runTests' default is ./.vscode-test), fresh for every run.
  const scratch = mkdtempSync(join(tmpdir(), 'tdrun-'));
  const env: Record<string, string | undefined> = { ...options.env };
  if (target.kind === 'code-server') {
    if (options.logFile) env.TEAM_DATA_VSCODE_LOG = options.logFile;
    if (options.timeoutMs) env.TEAM_DATA_VSCODE_TIMEOUT_MS = String(options.timeoutMs);
  }
  const paths = (Array.isArray(options.extensionDevelopmentPath) ? options.extensionDevelopmentPath : [options.extensionDevelopmentPath]).map((p) => resolve(p));
  if (paths.length === 0) throw new Error('extensionDevelopmentPath is empty');
  try {
    if (target.kind === 'code-server') {
      for (const [i, extra] of paths.slice(1).entries()) {
        const vsix = join(scratch, `extra-${i}.vsix`);
        packVsix(extra, vsix);
        await installVsix(vsix, join(scratch, 'extensions'));
      }
    }
    return await runTests({
      ...(target.kind === 'download' ? { version: target.version } : { vscodeExecutablePath: target.executable }),
      extensionDevelopmentPath: target.kind === 'code-server' ? paths[0] as string : paths,
      extensionTestsPath: resolve(options.extensionTestsPath),
      extensionTestsEnv: env,
      launchArgs: [
        ...(options.workspace ? [resolve(options.workspace)] : []),
        `--extensions-dir=${join(scratch, 'extensions')}`,
        `--user-data-dir=${join(scratch, 'user-data')}`,
        ...(options.enableProposedApi ?? []).map((id) => `--enable-proposed-api=${id}`),
      ],
    });
  } catch (err) {
    if (err instanceof TestRunFailedError) return err.code ?? 1;
    throw err;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
