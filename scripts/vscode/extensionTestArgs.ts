/**
 * The command line `@vscode/test-electron`'s runTests gives a VS Code executable, and the
 * workbench URL that makes code-server's web workbench run the same extension tests.
 *
 * code-server's CLI rejects --extensionDevelopmentPath/--extensionTestsPath; the web workbench
 * takes them from the URL `payload` instead (the way @vscode/test-web does it).
 */
import { isAbsolute, resolve } from 'node:path';

/** What the shim needs from the VS Code command line. */
export interface ExtensionTestArgs {
  extensionTestsPath: string | undefined;
  extensionDevelopmentPaths: string[];
  extensionsDir: string | undefined;
  userDataDir: string | undefined;
  /** The folder to open (first positional argument), if any. */
  folder: string | undefined;
  /** Flags we accept and ignore because they mean nothing to a browser workbench. */
  ignored: string[];
}

/** Flags taking a value; both `--flag=value` and `--flag value` forms are accepted. */
const VALUE_FLAGS = new Set(['extensionTestsPath', 'extensionDevelopmentPath', 'extensions-dir', 'user-data-dir']);

/**
 * Parses VS Code's CLI as runTests calls it. Paths are resolved against `cwd`.
 * @throws Error on a value flag without a value.
 */
export function parseExtensionTestArgs(argv: readonly string[], cwd: string): ExtensionTestArgs {
  const out: ExtensionTestArgs = {
    extensionTestsPath: undefined,
    extensionDevelopmentPaths: [],
    extensionsDir: undefined,
    userDataDir: undefined,
    folder: undefined,
    ignored: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      if (out.folder === undefined) out.folder = resolve(cwd, arg);
      else out.ignored.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (!VALUE_FLAGS.has(name)) {
      out.ignored.push(arg);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === '') throw new Error(`--${name} needs a value`);
    const abs = resolve(cwd, value);
    if (name === 'extensionTestsPath') out.extensionTestsPath = abs;
    else if (name === 'extensionDevelopmentPath') out.extensionDevelopmentPaths.push(abs);
    else if (name === 'extensions-dir') out.extensionsDir = abs;
    else out.userDataDir = abs;
  }
  return out;
}

/** Options of {@link workbenchUrl}. */
export interface WorkbenchUrlOptions {
  /** Folder to open; without one the workbench opens an empty window. */
  folder?: string;
  extensionDevelopmentPaths?: string[];
  extensionTestsPath?: string;
}

/**
 * URL of code-server's workbench at `serverUrl` (`http://127.0.0.1:PORT`) opening `folder`,
 * with extension development/test paths as `vscode-remote://` URIs in the `payload`.
 * @throws Error on relative paths (they would be resolved by the server, not by us).
 */
export function workbenchUrl(serverUrl: string, options: WorkbenchUrlOptions): string {
  const base = new URL(serverUrl);
  const remote = (p: string): string => {
    if (!isAbsolute(p)) throw new Error(`path must be absolute: ${p}`);
    // encodeURI keeps '/' but escapes spaces, '#', '?'... that would break the URI.
    return `vscode-remote://${base.host}${encodeURI(p).replace(/[?#]/g, encodeURIComponent)}`;
  };
  const payload: [string, string][] = [];
  for (const p of options.extensionDevelopmentPaths ?? []) payload.push(['extensionDevelopmentPath', remote(p)]);
  if (options.extensionTestsPath) payload.push(['extensionTestsPath', remote(options.extensionTestsPath)]);
  const url = new URL('/', base);
  if (options.folder) {
    if (!isAbsolute(options.folder)) throw new Error(`path must be absolute: ${options.folder}`);
    url.searchParams.set('folder', options.folder);
  } else {
    url.searchParams.set('ew', 'true');
  }
  if (payload.length > 0) url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}
