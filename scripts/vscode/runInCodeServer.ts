/**
 * What the `vscodeExecutablePath` shim does: run extension tests inside code-server's real
 * extension host, with Chromium as the window, and report like a VS Code executable would
 * (mocha output on stdout, the tests' exit code).
 */
import { appendFileSync } from 'node:fs';
import { formatWithOptions } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium, startCodeServer, type CodeServer } from './codeServer';
import { parseExtensionTestArgs, workbenchUrl } from './extensionTestArgs';

/** Options of {@link runExtensionTestsInCodeServer}. */
export interface RunInCodeServerOptions {
  /** VS Code's command line as runTests builds it. */
  argv: readonly string[];
  cwd: string;
  /** Environment for the server, inherited by the extension host. */
  env: NodeJS.ProcessEnv;
  /** Overall limit; default 10 min. */
  timeoutMs?: number;
  /** Receives each line for stdout (mocha's output, our progress). */
  out: (line: string) => void;
  /** Receives diagnostics (server log tail on failure, page errors). */
  err: (line: string) => void;
  /** Aborting cleans up and resolves with exit code 130. */
  signal?: AbortSignal;
}

/** Exit code when the run hit its time limit (like `timeout(1)`). */
export const EXIT_TIMEOUT = 124;
/** Exit code for a run that could not start (setup problem, bad arguments). */
export const EXIT_SETUP = 2;

/** The workbench forwards console calls unformatted (mocha's reporter uses '%s' and '%d'). */
function format(args: unknown): string {
  const list: unknown[] = Array.isArray(args) ? args : [args];
  return formatWithOptions({ colors: false }, ...list);
}

/**
 * Starts code-server and Chromium, opens the workbench with the test payload, and resolves with
 * the exit code the extension host reports through `codeAutomationExit`. Never rejects: every
 * failure becomes a message on `err` and a non-zero code. Everything started is stopped.
 */
export async function runExtensionTestsInCodeServer(options: RunInCodeServerOptions): Promise<number> {
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  // Lets a caller that cannot read our stdout (runTests pipes it to its own) keep a copy.
  const teeFile = options.env.TEAM_DATA_VSCODE_LOG;
  const out = (line: string) => {
    options.out(line);
    if (teeFile) appendFileSync(teeFile, `${line}\n`);
  };
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const args = parseExtensionTestArgs(options.argv, options.cwd);
    if (!args.extensionTestsPath) throw new Error('--extensionTestsPath is required');
    const workspace = args.folder;
    server = await startCodeServer({
      // code-server always wants a folder argument; the URL decides what the window opens.
      workspace: workspace ?? options.cwd,
      extensionsDir: args.extensionsDir,
      userDataDir: args.userDataDir,
      env: options.env,
    });
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });

    let resolveExit: (code: number) => void = () => undefined;
    const exitCode = new Promise<number>((r) => (resolveExit = r));
    timer = setTimeout(() => {
      options.err(`extension tests did not finish within ${timeoutMs} ms`);
      resolveExit(EXIT_TIMEOUT);
    }, timeoutMs);
    if (options.signal?.aborted) resolveExit(130);
    options.signal?.addEventListener('abort', () => resolveExit(130), { once: true });
    // Both must exist before the workbench script looks for them on `window`.
    await page.exposeFunction('codeAutomationLog', (_type: unknown, logArgs: unknown) => out(format(logArgs)));
    await page.exposeFunction('codeAutomationExit', (code: unknown) => {
      resolveExit(typeof code === 'number' && Number.isInteger(code) ? code : 1);
    });
    page.on('pageerror', (e) => options.err(`[workbench page error] ${e.message}`));
    page.on('crash', () => {
      options.err('the workbench page crashed');
      resolveExit(1);
    });
    const url = workbenchUrl(server.url, {
      folder: workspace,
      extensionDevelopmentPaths: args.extensionDevelopmentPaths,
      extensionTestsPath: args.extensionTestsPath,
    });
    out(`[code-server] running ${args.extensionTestsPath} in VS Code at ${server.url}`);
    // Not awaited on its own: the load event can take seconds and must not outlast the limit.
    let settled = false;
    page.goto(url).catch((e: unknown) => {
      if (settled) return; // the page was closed because we are done
      options.err(`could not open the workbench: ${e instanceof Error ? e.message : String(e)}`);
      resolveExit(EXIT_SETUP);
    });
    const code = await exitCode;
    settled = true;
    if (code !== 0) options.err(`--- code-server output (tail) ---\n${server.output().slice(-3000)}`);
    return code;
  } catch (e) {
    options.err(`could not run the extension tests: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT_SETUP;
  } finally {
    if (timer) clearTimeout(timer);
    await browser?.close().catch(() => undefined);
    await server?.stop();
  }
}
