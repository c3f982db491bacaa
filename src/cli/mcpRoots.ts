/**
 * The folders `team-data mcp` may read: the roots its client declares (MCP `roots/list`, asked
 * again after `notifications/roots/list_changed`), or, from a client without roots, the folder the
 * server was started in; plus every `--allow-dir` the user named. The SDK's own API does the
 * asking (Server.listRoots, its notification handler), and toolRoots.ts the checking.
 *
 * Desktop clients often start servers in `/` or the user's home folder, so the started-in folder is
 * never taken when it is either, or holds the home folder: that would make the whole disk (or every
 * private file of the user) readable by whatever steers the model. Then only `--allow-dir` counts,
 * and without it every path is refused with a message saying how to name a folder.
 */
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { OutsideRootsError, realPathInRoots, toolRoots, within, type ToolRoots } from '../api/toolRoots';

export interface McpRootsOptions {
  /** The folder used when the client declares no roots (the server's working folder). */
  fallback: string;
  /** Folders added whatever the client says (`--allow-dir`). */
  allowDirs?: readonly string[];
  /** Lines for stderr (the protocol owns stdout). */
  note?: (line: string) => void;
  /** The user's home folder (default os.homedir()); the fallback may be neither it nor above it. */
  home?: string;
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Why `dir` may not be read as the implicit root, in words for the user; undefined when it may.
 * Both are compared as real paths, so a link to `/` or to home is no way around the rule.
 */
export function tooBroadFallback(dir: string, home: string): string | undefined {
  const real = realOrSelf(dir);
  if (dirname(real) === real) return `${dir} is the top of the file system`;
  const realHome = realOrSelf(home);
  if (real === realHome) return `${dir} is your home folder`;
  if (within(realHome, real)) return `${dir} holds your home folder`;
  return undefined;
}

/** The local folder a root's URI names; undefined for anything but a `file:` URI. */
function folderOf(uri: string): string | undefined {
  try {
    return new URL(uri).protocol === 'file:' ? fileURLToPath(uri) : undefined;
  } catch {
    return undefined;
  }
}

export class McpRoots {
  /** The client's roots as last listed; dropped when it says they changed. */
  private listed: Promise<string[]> | undefined;
  /** Why the started-in folder is not read (undefined: it may be), and whether stderr was told. */
  private readonly refusedFallback: string | undefined;
  private toldRefusal = false;

  constructor(private readonly server: Server, private readonly o: McpRootsOptions) {
    this.refusedFallback = tooBroadFallback(o.fallback, o.home ?? homedir());
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      this.listed = undefined;
    });
  }

  /** The folders as the client gives them now (asked once, and again after each change). */
  private async clientFolders(): Promise<string[] | undefined> {
    const roots = this.server.getClientCapabilities()?.roots;
    if (roots === undefined) return undefined;
    // A client that never announces changes is asked every time: its roots may still change.
    const ask = (): Promise<string[]> => this.server.listRoots().then((r) => r.roots.flatMap((root) => folderOf(root.uri) ?? []));
    if (roots.listChanged !== true) return ask();
    this.listed ??= ask().catch((e: unknown) => {
      this.listed = undefined;
      throw e;
    });
    return this.listed;
  }

  /** The folders the tools may read now: the client's roots (or the fallback) and `--allow-dir`. */
  async current(): Promise<ToolRoots> {
    let listed: string[] | undefined;
    try {
      listed = await this.clientFolders();
    } catch (e) {
      // Reading with no known bounds is not an option: refuse until the client answers.
      this.o.note?.(`team-data mcp: the client did not list its roots: ${e instanceof Error ? e.message : String(e)}`);
      throw new OutsideRootsError(`the MCP client did not say which folders may be read (roots/list failed: ${e instanceof Error ? e.message : String(e)})`);
    }
    const allowDirs = this.o.allowDirs ?? [];
    if (listed !== undefined && listed.length > 0) return toolRoots([...listed, ...allowDirs]);
    if (this.refusedFallback === undefined) return toolRoots([this.o.fallback, ...allowDirs]);
    if (allowDirs.length > 0) return toolRoots(allowDirs);
    const why = `the MCP client sent no roots, and the folder this server was started in is not read: ${this.refusedFallback}`;
    if (!this.toldRefusal) {
      this.toldRefusal = true;
      this.o.note?.(`team-data mcp: ${why}; start it with --allow-dir DIR to name the folders it may read`);
    }
    throw new OutsideRootsError(`no folder may be read: ${why}. Start the server with --allow-dir DIR (in the client's "args") for each folder of data, or use a client that sends its workspace folders as roots`);
  }

  /** The resolver the analysis tools use (see AnalysisTools' `where`). */
  readonly resolve = async (path: string): Promise<string | undefined> => realPathInRoots(path, await this.current());
}
