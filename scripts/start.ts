/**
 * `npm start`, second half (scripts/start.mjs installs the dependencies first): builds and
 * packages the extension for this machine, copies the sample workspace out of the repository, and
 * opens a real VS Code with the packaged extension installed, running on the embedded local
 * service (the default when no hosted service is configured).
 *
 * - A desktop VS Code (`code` on PATH): `code --install-extension <vsix>` then `code <folder>`;
 *   the window is the user's, so the launcher is done once it opens.
 * - Otherwise code-server (scripts/vscode/ensureCodeServer.sh installs it once, outside the repo)
 *   on 127.0.0.1, in its own process group, with the URL printed; Ctrl+C stops the whole group
 *   (the workbench server, extension hosts, the local service) and checks that nothing is left.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { packageExtension } from './package';
import { formatBytes } from '../src/shared/byteSize';
import { parseStartArgs, START_USAGE, type StartOptions } from './startArgs';
import { CODE_SERVER_VERSION, ENSURE_SCRIPT, installVsix, listExtensions, startCodeServer, type CodeServer } from './vscode/codeServer';
import { workbenchUrl } from './vscode/extensionTestArgs';
import { groupMembers, killProcessGroupNow, processesWithEnv } from './vscode/processGroup';

const REPO = resolve(__dirname, '..');
const say = (line: string): void => void process.stdout.write(`[start] ${line}\n`);

/** Copies samples/ into `dir`; files the user already has there are kept as they are. */
export function copySamples(dir: string): { copied: string[]; kept: string[] } {
  mkdirSync(dir, { recursive: true });
  const copied: string[] = [];
  const kept: string[] = [];
  const from = join(REPO, 'samples');
  for (const name of readdirSync(from).sort()) {
    if (!statSync(join(from, name)).isFile()) continue;
    const to = join(dir, name);
    if (existsSync(to)) kept.push(name);
    else {
      copyFileSync(join(from, name), to);
      copied.push(name);
    }
  }
  return { copied, kept };
}

/** The desktop VS Code CLI on PATH, if any (code-server's CLI prints a different version line). */
export function desktopCode(): { command: string; version: string } | undefined {
  const command = process.platform === 'win32' ? 'code.cmd' : 'code';
  try {
    const out = execFileSync(command, ['--version'], { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'ignore'], shell: process.platform === 'win32' });
    const version = out.split(/\r?\n/)[0]?.trim() ?? '';
    return /^\d+\.\d+\.\d+$/.test(version) ? { command, version } : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `bash ensureCodeServer.sh`, showing its progress, and returns the code-server binary. */
function ensureCodeServer(signal: AbortSignal): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('bash', [join(REPO, ENSURE_SCRIPT)], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => {
      for (const line of c.toString('utf8').split('\n')) if (line.trim() !== '') say(`  ${line}`);
    });
    const onAbort = () => child.kill('SIGTERM');
    signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (e) => fail(new Error(`could not run ${ENSURE_SCRIPT}: ${e.message}`)));
    child.once('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      const bin = stdout.trim().split('\n').pop() ?? '';
      if (signal.aborted) fail(new Error('aborted'));
      else if (code !== 0 || !existsSync(bin)) fail(new Error(`${ENSURE_SCRIPT} failed (exit ${code}); see its messages above`));
      else done(bin);
    });
  });
}

/**
 * Processes of a stopped code-server that still run: its group, and anything that left the
 * group but carries its scratch TMPDIR (chromium-style setsid helpers).
 */
function leftoverProcesses(server: CodeServer): number[] {
  const pids = new Set(groupMembers(server.pid).map((m) => m.pid));
  for (const pid of processesWithEnv(`TMPDIR=${join(server.scratchDir, 'tmp')}`)) pids.add(pid);
  return [...pids].sort((a, b) => a - b);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `npm start`; resolves with the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseStartArgs(argv);
  if (typeof parsed === 'string') {
    process.stderr.write(`[start] ${parsed}\n${START_USAGE}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(`${START_USAGE}\n`);
    return 0;
  }
  const ac = new AbortController();
  let server: CodeServer | undefined;
  let interrupts = 0;
  const onSignal = (sig: NodeJS.Signals): void => {
    interrupts++;
    if (interrupts === 1) {
      say(`${sig}: stopping everything npm start started…`);
      ac.abort();
      return;
    }
    // A second Ctrl+C while stopping: no more waiting for graceful exits.
    say('stopping now');
    if (server) killProcessGroupNow(server.pid);
    process.exit(130);
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, onSignal);
  let scratch: string | undefined;
  try {
    return await run(parsed, ac.signal, (s) => (server = s), (dir) => (scratch = dir));
  } catch (err) {
    if (ac.signal.aborted) return 0;
    process.stderr.write(`[start] failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    if (server) {
      await server.stop();
      const left = leftoverProcesses(server);
      if (left.length === 0) say('stopped; no process left running');
      else say(`WARNING: still running after stop: pid ${left.join(', ')}`);
    }
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    if (ac.signal.aborted && !server) say('stopped');
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(sig, onSignal);
  }
}

async function run(options: StartOptions, signal: AbortSignal, started: (s: CodeServer) => void, madeScratch: (dir: string) => void): Promise<number> {
  // npm runs scripts in the repository; paths on the command line are the user's, from INIT_CWD.
  const userCwd = process.env['INIT_CWD'] ?? process.cwd();
  options = { ...options, ...(options.workspace ? { workspace: resolve(userCwd, options.workspace) } : {}), ...(options.vsix ? { vsix: resolve(userCwd, options.vsix) } : {}) };
  if (options.workspace && !relative(REPO, options.workspace).startsWith('..') && !isAbsolute(relative(REPO, options.workspace))) {
    throw new Error(`--workspace ${options.workspace} is inside the repository; pick a folder outside it so the repository stays clean`);
  }
  const desktop = options.editor === 'code-server' ? undefined : desktopCode();
  if (options.editor === 'code' && !desktop) throw new Error('--editor code: no desktop VS Code CLI ("code") found on PATH');

  let vsix = options.vsix;
  if (vsix) {
    if (!existsSync(vsix)) throw new Error(`--vsix ${vsix}: no such file`);
    say(`using the packaged extension ${vsix}`);
  } else {
    say('building and packaging the extension for this machine (about 20 s)');
    const result = await packageExtension({ signal, log: (l) => say(`  ${l}`) });
    vsix = result.vsix;
    say(`packaged ${vsix} (${formatBytes(result.bytes)}; extension bundle ${formatBytes(result.bundles['extension.js'] ?? 0)})`);
  }

  if (desktop) {
    const workspace = options.workspace ?? join(tmpdir(), 'team-data-samples');
    const { copied, kept } = copySamples(workspace);
    say(`sample workspace ${workspace}: ${describeCopy(copied, kept)}`);
    say(`installing into VS Code ${desktop.version}: ${desktop.command} --install-extension`);
    execFileSync(desktop.command, ['--install-extension', vsix, '--force'], { stdio: 'inherit', shell: process.platform === 'win32' });
    execFileSync(desktop.command, [workspace], { stdio: 'inherit', shell: process.platform === 'win32' });
    say(`opened ${workspace} in VS Code. The extension runs on its embedded local service: right-click sales.csv → Analyze This File.`);
    say('VS Code keeps running on its own; close its window when you are done.');
    return 0;
  }

  // Everything code-server needs lives in one scratch folder, removed on exit.
  const scratch = mkdtempSync(join(tmpdir(), 'team-data-start-'));
  madeScratch(scratch);
  say(`scratch folder ${scratch}`);
  const workspace = options.workspace ?? join(scratch, 'team-data-samples');
  const { copied, kept } = copySamples(workspace);
  say(`sample workspace ${workspace}: ${describeCopy(copied, kept)}`);

  say(`no desktop VS Code ("code") on PATH: using code-server ${CODE_SERVER_VERSION} (installed once, outside the repository)`);
  await ensureCodeServer(signal);
  const extensionsDir = join(scratch, 'extensions');
  await installVsix(resolve(vsix), extensionsDir);
  const installed = (await listExtensions(extensionsDir)).join(', ');
  say(`installed ${installed || '(nothing?)'} from the .vsix`);
  if (signal.aborted) return 0;

  const server = await startCodeServer({ workspace, extensionsDir, userDataDir: join(scratch, 'user-data'), port: options.port });
  started(server);
  const url = workbenchUrl(server.url, { folder: resolve(workspace) });
  say('');
  say(`VS Code (code-server ${CODE_SERVER_VERSION}, pid ${server.pid}) is running on 127.0.0.1 with Team Data Analysis installed.`);
  say(`URL: ${url}`);
  say('Open that URL in a browser on this machine. Try: right-click sales.csv → Analyze This File');
  say('(no account or network needed: answers come from the embedded local service).');
  say('Press Ctrl+C to stop.');

  const crashed = await new Promise<boolean>((done) => {
    if (signal.aborted) return done(false);
    const timer = setInterval(() => {
      if (!isAlive(server.pid)) {
        clearInterval(timer);
        done(true);
      }
    }, 1000);
    signal.addEventListener('abort', () => {
      clearInterval(timer);
      done(false);
    }, { once: true });
  });
  if (crashed) {
    process.stderr.write(`[start] code-server exited unexpectedly:\n${server.output().slice(-3000)}\n`);
    return 1;
  }
  return 0;
}

function describeCopy(copied: string[], kept: string[]): string {
  const parts: string[] = [];
  if (copied.length > 0) parts.push(copied.join(', '));
  if (kept.length > 0) parts.push(`kept your ${kept.join(', ')}`);
  return parts.join('; ') || 'no sample files';
}
