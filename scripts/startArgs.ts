/**
 * The command line of `npm start` (after `--`). Kept apart from the launcher so it can be tested
 * without starting anything.
 */

/** Which editor to open. */
export type StartEditor = 'auto' | 'code' | 'code-server';

export interface StartOptions {
  /** `auto`: a desktop VS Code when `code` is on PATH, else code-server. */
  editor: StartEditor;
  /** Folder for the sample workspace copy (kept); default a scratch folder. */
  workspace?: string;
  /** code-server's port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Install this .vsix instead of building and packaging one. */
  vsix?: string;
  help: boolean;
}

export const START_USAGE = `usage: npm start [-- [--editor auto|code|code-server] [--workspace DIR] [--port N] [--vsix FILE]]
  --editor     auto (default): desktop VS Code if "code" is on PATH, else code-server in a browser
  --workspace  copy the sample files into DIR (existing files are kept) and open it; default: a
               scratch folder that is removed when code-server stops
  --port       code-server's port on 127.0.0.1 (default: a free one)
  --vsix       install this .vsix instead of building and packaging (e.g. from npm run package)`;

/** Parses the arguments; returns a usage error text instead of throwing. */
export function parseStartArgs(argv: readonly string[]): StartOptions | string {
  const out: StartOptions = { editor: 'auto', port: 0, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (flag === '--help' || flag === '-h') {
      out.help = true;
      continue;
    }
    if (!['--editor', '--workspace', '--port', '--vsix'].includes(flag)) return `unknown argument "${arg}"`;
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') return `${flag} needs a value`;
    if (flag === '--editor') {
      if (value !== 'auto' && value !== 'code' && value !== 'code-server') return `--editor must be auto, code or code-server, not "${value}"`;
      out.editor = value;
    } else if (flag === '--port') {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) return `--port must be a port number (0-65535), not "${value}"`;
      out.port = port;
    } else if (flag === '--workspace') out.workspace = value;
    else out.vsix = value;
  }
  return out;
}
