/**
 * Offers `team-data mcp` to VS Code's own MCP support, where this VS Code has it (the API arrived
 * after the oldest version the extension supports, so it is looked up at run time and nothing
 * depends on it; its contribution point is declared under both the preview's name,
 * `modelContextServerCollections`, and the released one, `mcpServerDefinitionProviders`). The server runs the bundled CLI with the editor's own Node, on the embedded
 * local service in the extension's storage, so it works offline like the rest of the extension.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../services';

export const MCP_PROVIDER_ID = 'teamData.mcp';

type StdioDefinition = new (label: string, command: string, args: string[], env?: Record<string, string | number | null>, version?: string) => unknown;

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: { provideMcpServerDefinitions(): unknown[] }): vscode.Disposable;
}

/** True when registered (the VS Code version has the API). */
export function registerMcpProvider(s: Services): boolean {
  const lm = vscode.lm as unknown as Partial<McpApi> | undefined;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinition }).McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function') return false;
  const cli = join(s.context.extensionPath, 'dist', 'cli.js');
  // The windows' own data folder: the agent sees the datasets the panel made, through one service.
  const dataDir = (): string => s.supervisor.dataDir;
  const version = String(s.context.extension.packageJSON?.version ?? '0.0.0');
  try {
    s.context.subscriptions.push(
      lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
        provideMcpServerDefinitions: () => [new Definition('Team Data Analysis (local files, offline)', process.execPath, [cli, 'mcp', '--data-dir', dataDir()], { ELECTRON_RUN_AS_NODE: 1 }, version)],
      }),
    );
    return true;
  } catch (err) {
    // Versions between the API's preview and its release spell the contribution differently;
    // the offer is optional, so say why in the log and go on.
    s.log.info(`The MCP server is not offered to this VS Code: ${err instanceof Error ? err.message : String(err)}`);
    return false;
  }
}
