/**
 * The folders `team-data mcp` may read: the roots its client declares (MCP `roots/list`, asked
 * again after `notifications/roots/list_changed`), or, from a client without roots, the folder the
 * server was started in; plus every `--allow-dir` the user named. The SDK's own API does the
 * asking (Server.listRoots, its notification handler), and toolRoots.ts the checking.
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { OutsideRootsError, realPathInRoots, toolRoots, type ToolRoots } from '../api/toolRoots';

export interface McpRootsOptions {
  /** The folder used when the client declares no roots (the server's working folder). */
  fallback: string;
  /** Folders added whatever the client says (`--allow-dir`). */
  allowDirs?: readonly string[];
  /** Lines for stderr (the protocol owns stdout). */
  note?: (line: string) => void;
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

  constructor(private readonly server: Server, private readonly o: McpRootsOptions) {
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
    const base = listed !== undefined && listed.length > 0 ? listed : [this.o.fallback];
    return toolRoots([...base, ...(this.o.allowDirs ?? [])]);
  }

  /** The resolver the analysis tools use (see AnalysisTools' `where`). */
  readonly resolve = async (path: string): Promise<string | undefined> => realPathInRoots(path, await this.current());
}
