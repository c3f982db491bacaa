/**
 * code-server (real VS Code 1.100.3 from npm) and Debian's Chromium, started hermetically for
 * tests on this machine, where VS Code itself cannot be downloaded. See
 * ../../../shared/vscode-testing.md for the measured facts behind every choice here.
 *
 * Every process we start gets a scratch HOME, XDG_* dirs and TMPDIR (otherwise chromium and the server
 * write into the real home and leave sockets in /tmp) and runs in its own process group that
 * `stop()` removes completely.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { killProcessGroupNow, stopProcessesWithEnv, stopProcessGroup } from './processGroup';

/** The newest code-server that runs on Node 20. */
export const CODE_SERVER_VERSION = '4.100.3';
/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM_PATH = process.env.TEAM_DATA_CHROMIUM ?? '/usr/bin/chromium';
/** Relative to the repository root. */
export const ENSURE_SCRIPT = 'scripts/vscode/ensureCodeServer.sh';

/** A missing prerequisite; the message says how to fix it. */
export class HarnessSetupError extends Error {
  override readonly name = 'HarnessSetupError';
}

/** Folder the ensure script installs into (outside the repo, keyed by version). */
export function codeServerInstallDir(): string {
  const root = process.env.TEAM_DATA_CACHE || join(homedir(), '.cache', 'team-data');
  return join(root, `code-server-${CODE_SERVER_VERSION}`);
}

/**
 * Path of the code-server binary: `$CODE_SERVER_BIN` if set, else the ensure script's install.
 * @throws HarnessSetupError when it is not installed.
 */
export function findCodeServer(): string {
  const fromEnv = process.env.CODE_SERVER_BIN;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new HarnessSetupError(`CODE_SERVER_BIN=${fromEnv} does not exist`);
    return fromEnv;
  }
  const dir = codeServerInstallDir();
  const bin = join(dir, 'node_modules', '.bin', 'code-server');
  if (!existsSync(join(dir, '.team-data-complete')) || !existsSync(bin)) {
    throw new HarnessSetupError(
      `code-server ${CODE_SERVER_VERSION} is not installed (looked in ${dir}). Run ${ENSURE_SCRIPT} once ` +
        '(installs chromium, libkrb5-dev, ripgrep with apt and code-server with npm; about 2 minutes).',
    );
  }
  return bin;
}

/** @throws HarnessSetupError when Debian's chromium is missing. */
export function findChromium(): string {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new HarnessSetupError(`Chromium not found at ${CHROMIUM_PATH}. Run ${ENSURE_SCRIPT} (installs the Debian package chromium).`);
  }
  return CHROMIUM_PATH;
}

/** Environment that keeps a child's HOME, caches, runtime sockets and temp files inside `dir`. */
export function scratchEnv(dir: string): Record<string, string> {
  const env = {
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'home', '.config'),
    XDG_DATA_HOME: join(dir, 'home', '.local', 'share'),
    XDG_CACHE_HOME: join(dir, 'home', '.cache'),
    XDG_STATE_HOME: join(dir, 'home', '.local', 'state'),
    XDG_RUNTIME_DIR: join(dir, 'run'),
    TMPDIR: join(dir, 'tmp'),
  };
  for (const d of Object.values(env)) mkdirSync(d, { recursive: true, mode: 0o700 });
  return env;
}

/** Parent environment minus what would make the child talk to another VS Code instance. */
function inheritedEnv(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE' || key === 'PORT') delete env[key];
  }
  return env;
}

/** Options of {@link startCodeServer}. */
export interface StartCodeServerOptions {
  /** Folder opened by default (absolute). */
  workspace: string;
  /** Must exist for anything to load; created. Default: inside the scratch dir. */
  extensionsDir?: string;
  /** Default: inside the scratch dir. */
  userDataDir?: string;
  /** Extra environment for the server; the extension host inherits it. */
  env?: Record<string, string | undefined>;
  /** Default 0: the server picks a free port and we read it from its log. */
  port?: number;
  /** User settings written to `<userDataDir>/User/settings.json` (merged over quiet defaults). */
  settings?: Record<string, unknown>;
  /** Default 60 s. */
  readyTimeoutMs?: number;
  /** Keep the scratch dir after stop() (for debugging). */
  keepScratch?: boolean;
}

/** A running code-server; `stop()` is idempotent. */
export interface CodeServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  url: string;
  port: number;
  pid: number;
  workspace: string;
  extensionsDir: string;
  userDataDir: string;
  scratchDir: string;
  /** Server stdout+stderr so far (capped), for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Settings that keep the workbench quiet and deterministic for tests. */
const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

const live = new Set<number>();
process.on('exit', () => {
  for (const pgid of live) killProcessGroupNow(pgid);
});

const OUTPUT_CAP = 256 * 1024;
const LISTENING = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/;

/**
 * Starts code-server on 127.0.0.1 in its own process group and waits until it answers.
 * @throws HarnessSetupError when code-server is not installed; Error with the server's log
 * when it does not come up.
 */
export async function startCodeServer(options: StartCodeServerOptions): Promise<CodeServer> {
  const bin = findCodeServer();
  const workspace = resolve(options.workspace);
  if (!existsSync(workspace)) throw new Error(`workspace does not exist: ${workspace}`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${port}`);
  // Short prefix: unix socket paths inside it must stay under 108 bytes.
  const scratchDir = await mkdtemp(join(tmpdir(), 'tdcs-'));
  const extensionsDir = resolve(options.extensionsDir ?? join(scratchDir, 'extensions'));
  const userDataDir = resolve(options.userDataDir ?? join(scratchDir, 'user-data'));
  mkdirSync(extensionsDir, { recursive: true });
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  if (options.settings || !existsSync(settingsFile)) {
    writeFileSync(settingsFile, JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }, null, 2));
  }
  const args = [
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    workspace,
  ];
  const scratchVars = scratchEnv(scratchDir);
  const env = { ...inheritedEnv(), ...scratchVars, ...options.env };
  const child = spawn(bin, args, { cwd: scratchDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  // Without a listener a failed spawn (EACCES...) would be an uncaught 'error' event.
  const spawnError = new Promise<Error>((r) => child.once('error', r));
  const pid = child.pid;
  if (pid === undefined) {
    const reason = await spawnError;
    await rm(scratchDir, { recursive: true, force: true });
    throw new Error(`could not start ${bin}: ${reason.message}`);
  }
  live.add(pid);

  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_CAP);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      await stopProcessGroup(pid);
      // Anything that left the group (setsid) still carries our scratch TMPDIR.
      await stopProcessesWithEnv(`TMPDIR=${scratchVars.TMPDIR}`);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
      live.delete(pid);
      if (!options.keepScratch) await rm(scratchDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  try {
    const actualPort = await waitListening(child, () => output, options.readyTimeoutMs ?? 60_000);
    const url = `http://127.0.0.1:${actualPort}`;
    await waitHealthy(url, child, options.readyTimeoutMs ?? 60_000);
    return {
      url, port: actualPort, pid, workspace, extensionsDir, userDataDir, scratchDir,
      output: () => output,
      stop,
    };
  } catch (err) {
    await stop();
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`code-server did not start: ${reason}\n--- code-server output ---\n${output.slice(-4000)}`);
  }
}

function waitListening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const timer = setTimeout(() => finish(new Error(`no "listening" line within ${timeoutMs} ms`)), timeoutMs);
    const onData = () => {
      const m = LISTENING.exec(output());
      if (m?.[1]) finish(undefined, Number(m[1]));
    };
    const onExit = (code: number | null, sig: string | null) => finish(new Error(`exited early (code ${code}, signal ${sig})`));
    function finish(err: Error | undefined, port?: number) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolvePort(port as number);
    }
    // Listen after `collect` (registered first) so output() already holds the chunk.
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    onData();
  });
}

async function waitHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('exited before answering');
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`/healthz did not answer within ${timeoutMs} ms (${last})`);
}

/**
 * Installs a packaged extension into `extensionsDir` with code-server's own CLI (~0.5 s).
 * @throws Error with the CLI output when installation fails.
 */
export async function installVsix(vsixPath: string, extensionsDir: string): Promise<void> {
  const bin = findCodeServer();
  if (!isAbsolute(vsixPath) || !existsSync(vsixPath)) throw new Error(`no such .vsix: ${vsixPath}`);
  mkdirSync(extensionsDir, { recursive: true });
  const scratch = await mkdtemp(join(tmpdir(), 'tdvsix-'));
  try {
    const args = ['--extensions-dir', extensionsDir, '--user-data-dir', join(scratch, 'user-data'), '--force', '--install-extension', vsixPath];
    const { code, output } = await run(bin, args, { ...inheritedEnv(), ...scratchEnv(scratch) }, scratch);
    if (code !== 0) throw new Error(`installing ${vsixPath} failed (exit ${code}):\n${output}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Extensions installed in `extensionsDir`, as `publisher.name@version`, sorted. */
export async function listExtensions(extensionsDir: string): Promise<string[]> {
  const bin = findCodeServer();
  const scratch = await mkdtemp(join(tmpdir(), 'tdlist-'));
  try {
    const args = ['--extensions-dir', extensionsDir, '--user-data-dir', join(scratch, 'user-data'), '--list-extensions', '--show-versions'];
    const { code, output } = await run(bin, args, { ...inheritedEnv(), ...scratchEnv(scratch) }, scratch);
    if (code !== 0) throw new Error(`listing extensions in ${extensionsDir} failed (exit ${code}):\n${output}`);
    // Skip code-server's own log lines ("[date] info ...") mixed into stdout.
    return output.split('\n').map((l) => l.trim()).filter((l) => /^[\w-]+\.[\w-]+@\S+$/.test(l)).sort();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Runs scripts/vscode/ensureCodeServer.sh (idempotent; fast when done) and returns the binary.
 * @param repoRoot the repository root (the script's location is relative to it).
 */
export async function ensureCodeServer(repoRoot: string): Promise<string> {
  const script = join(repoRoot, ENSURE_SCRIPT);
  const { code, output } = await run('bash', [script], { ...process.env }, repoRoot);
  const last = output.trim().split('\n').pop() ?? '';
  if (code !== 0 || !existsSync(last)) throw new HarnessSetupError(`${ENSURE_SCRIPT} failed (exit ${code}):\n${output.slice(-4000)}`);
  return last;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('error', fail);
    child.once('close', (code) => done({ code: code ?? 1, output }));
  });
}

/** Options of {@link launchChromium}. */
export interface LaunchChromiumOptions {
  /** Default true; set TEAM_DATA_HEADED=1 to watch (needs a display). */
  headless?: boolean;
  /** Extra environment for the browser processes. */
  env?: Record<string, string | undefined>;
}

/**
 * Launches Debian's Chromium through playwright-core with the flags that work here. The browser
 * gets a scratch HOME (chromium writes ~/.pki and caches otherwise), removed when it closes.
 * @throws HarnessSetupError when chromium is missing.
 */
export async function launchChromium(options: LaunchChromiumOptions = {}): Promise<Browser> {
  const executablePath = findChromium();
  const scratch = await mkdtemp(join(tmpdir(), 'tdcr-'));
  const childEnv = { ...inheritedEnv(), ...options.env, ...scratchEnv(scratch) };
  try {
    const browser = await chromium.launch({
      executablePath,
      headless: options.headless ?? process.env.TEAM_DATA_HEADED !== '1',
      chromiumSandbox: false,
      // Playwright makes and removes the profile itself; it rejects --user-data-dir here.
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--disable-breakpad',
        '--disable-crash-reporter',
      ],
      env: childEnv,
    });
    // The crashpad handler Debian's chromium starts calls setsid, so Playwright's close() does
    // not own it; close() resolves only once it and the scratch dir are gone too.
    let cleaned: Promise<void> | undefined;
    const cleanup = () =>
      (cleaned ??= (async () => {
        await stopProcessesWithEnv(`TMPDIR=${childEnv.TMPDIR}`);
        await rm(scratch, { recursive: true, force: true });
      })());
    browser.once('disconnected', () => void cleanup());
    const close = browser.close.bind(browser);
    browser.close = async (opts) => {
      await close(opts);
      await cleanup();
    };
    return browser;
  } catch (err) {
    await rm(scratch, { recursive: true, force: true });
    throw err;
  }
}
