/**
 * `team-data mcp`: the analysis tools as an MCP server over stdio (the official TypeScript SDK),
 * so any MCP client (Claude Desktop, Cursor, VS Code) can analyze local files. Without a base URL
 * it runs on the embedded local service, offline: files never leave the machine. stdout carries
 * the protocol only; logs go to stderr. The analyze tool reads files only inside the client's roots
 * (or the server's folder, never / or home) and the folders named with --allow-dir (mcpRoots.ts).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AnalysisTools, ToolInputError, type ToolAnswer } from '../api/analysisTools';
import { isTeamDataError, TeamDataClient } from '../api/index';
import { answerText, datasetsText } from '../api/toolText';
import { LocalClients } from './localAttach';
import { UsageError, type McpArgs } from './args';
import { McpRoots } from './mcpRoots';
import { LineStdioTransport } from './mcpStdio';
import { toolRoots } from '../api/toolRoots';
import { defaultDataDir } from './dataDir';
import { localUserId } from './localUser';
import { describeFailure } from './failure';

declare const TEAM_DATA_VERSION: string | undefined;

export const TOOL_NAMES = { analyzeFiles: 'teamData_analyzeFiles', askDataset: 'teamData_askDataset', listDatasets: 'teamData_listDatasets' } as const;

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Runs a tool; mistakes and failures become tool errors the model can read and act on. `sameAs`:
 * how to reach this server's service from the command line (the session limit's way out).
 */
async function guarded(what: string, sameAs: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ToolInputError) return errorResult(`Could not ${what}: ${err.message}`);
    return errorResult(`Could not ${what}: ${describeFailure(err, sameAs)}`);
  }
}

async function answerResult(r: ToolAnswer, local: boolean, signal: AbortSignal): Promise<CallToolResult> {
  const hint = local ? 'The local service keeps it while this server runs.' : 'Open it in the Team Data Analysis panel of VS Code or the service\'s web app.';
  const { text, unanswered } = await answerText(r, { openHint: hint, signal });
  // An answer without a result is not a finding: say so as an error, with the service's reason.
  return unanswered ? { content: [{ type: 'text', text: `The question could not be answered from the data.\n\n${text}` }], isError: true } : { content: [{ type: 'text', text }] };
}

/** Where the tools' client comes from: one fixed client, or the shared service's current one. */
export interface McpClientSource {
  get(): Promise<TeamDataClient>;
  /** A call could not reach the service: the next `get` attaches again (see LocalClients). */
  markLost?(): void;
}

export interface McpServerOptions {
  /** On the embedded local service (nothing leaves the machine). */
  local: boolean;
  /** The folder read when the client declares no roots; default the working folder. */
  root?: string;
  /** Folders readable whatever the client's roots (`--allow-dir`). */
  allowDirs?: readonly string[];
  /** Lines for stderr. */
  note?: (line: string) => void;
  /** The user's home folder (default os.homedir()): never read as the folder started in. */
  home?: string;
}

/** The MCP server over a client; the caller connects a transport. */
export function createMcpServer(client: TeamDataClient | McpClientSource, opts: McpServerOptions): McpServer {
  const source: McpClientSource = client instanceof TeamDataClient ? { get: async () => client } : client;
  let current: { client: TeamDataClient; tools: AnalysisTools } | undefined;
  const server = new McpServer({ name: 'team-data', version: typeof TEAM_DATA_VERSION === 'string' ? TEAM_DATA_VERSION : 'dev' });
  // The client's roots come through the SDK's server; every path the tools read is checked there.
  const roots = new McpRoots(server.server, { fallback: opts.root ?? process.cwd(), allowDirs: opts.allowDirs ?? [], ...(opts.note ? { note: opts.note } : {}), ...(opts.home ? { home: opts.home } : {}) });
  /** Runs `fn` with the tools of the live service; once more on its successor if it went away. */
  const withTools = async <T>(fn: (t: AnalysisTools) => Promise<T>): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const c = await source.get();
      if (current?.client !== c) current = { client: c, tools: new AnalysisTools(c, opts.root, !opts.local, roots.resolve) };
      try {
        return await fn(current.tools);
      } catch (e) {
        if (attempt > 0 || !source.markLost || !isTeamDataError(e) || e.code !== 'NETWORK') throw e;
        source.markLost();
      }
    }
  };
  // A tool opens one session per dataset and server run (for follow-ups); at the session limit the
  // model needs to tell its user how to make room on this very service.
  const sameAs = `the same ${opts.local ? '--data-dir' : '--base-url, --api-key and --user-id'} as this MCP server ("team-data mcp")`;
  const where = opts.local ? 'on this machine (nothing is uploaded anywhere)' : 'by the configured Team Data Analysis service (the files are uploaded to it)';
  server.registerTool(
    TOOL_NAMES.analyzeFiles,
    {
      title: 'Analyze data files',
      description: `Answers a question about local data files (CSV, TSV, Excel, JSON, text, PDF, Word, PowerPoint), analyzed ${where}. Returns how the question was read, the finding, the first rows of the result table and the SQL. Follow-up questions about the same files keep the context.`,
      inputSchema: {
        paths: z.array(z.string().min(1)).min(1).describe('Paths of the files, inside the client\'s roots (without roots: the server\'s folder, unless that is / or the home folder) or a folder the server was started with --allow-dir; absolute, or relative to the first root'),
        question: z.string().min(1).describe('The question, as a person would ask it, e.g. "total revenue by region"'),
      },
      annotations: { readOnlyHint: false, openWorldHint: !opts.local },
    },
    ({ paths, question }, extra) => guarded('analyze the files', sameAs, async () => answerResult(await withTools((t) => t.analyzeFiles(paths, question, { signal: extra.signal })), opts.local, extra.signal)),
  );
  server.registerTool(
    TOOL_NAMES.askDataset,
    {
      title: 'Ask about a dataset',
      description: `Answers a question about a dataset already on the service (by name or id; list them with ${TOOL_NAMES.listDatasets}), using its ready files.`,
      inputSchema: {
        dataset: z.string().min(1).describe('The dataset\'s name or id'),
        question: z.string().min(1).describe('The question'),
      },
      annotations: { readOnlyHint: true, openWorldHint: !opts.local },
    },
    ({ dataset, question }, extra) => guarded('answer the question', sameAs, async () => answerResult(await withTools((t) => t.askDataset(dataset, question, { signal: extra.signal })), opts.local, extra.signal)),
  );
  server.registerTool(
    TOOL_NAMES.listDatasets,
    {
      title: 'List datasets',
      description: 'Lists the datasets on the service with their files and whether each is ready.',
      annotations: { readOnlyHint: true, openWorldHint: !opts.local },
    },
    (extra) => guarded('list the datasets', sameAs, async () => ({ content: [{ type: 'text', text: datasetsText(await withTools((t) => t.listDatasets({ signal: extra.signal }))) }] })),
  );
  return server;
}

/** `team-data mcp`: serves until the client closes stdin. */
export async function mcp(args: McpArgs, env: NodeJS.ProcessEnv): Promise<number> {
  for (const dir of args.allowDirs) {
    if ((await toolRoots([dir])).real.length === 0) throw new UsageError(`--allow-dir ${dir}: no such folder`);
  }
  let service: LocalClients | undefined;
  let source: TeamDataClient | LocalClients;
  if (args.baseUrl !== undefined) {
    source = new TeamDataClient({ baseUrl: args.baseUrl, apiKey: args.apiKey ?? '', apiVersion: args.apiVersion, ...(args.userId ? { userId: args.userId } : {}) });
  } else {
    // The data folder's shared service, as the same user as the CLI and VS Code: the agent sees
    // their datasets and sessions, and they see its. Attached now, so a failure shows at start;
    // after a restart of the service the next tool call attaches to its successor.
    service = new LocalClients({
      dataDir: args.dataDir ?? defaultDataDir(env), env, apiVersion: args.apiVersion, userId: args.userId ?? localUserId(env),
      note: (line) => process.stderr.write(`${line}\n`),
    });
    await service.get();
    source = service;
  }
  const note = (line: string): void => void process.stderr.write(`${line}\n`);
  const server = createMcpServer(source, { local: service !== undefined, root: process.cwd(), allowDirs: args.allowDirs, note });
  // Not the SDK's StdioServerTransport: it closes on a message over 10 MB (see mcpStdio.ts).
  const transport = new LineStdioTransport(process.stdin, process.stdout, { note });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  try {
    await server.connect(transport);
    process.stderr.write(`team-data mcp: serving ${Object.values(TOOL_NAMES).join(', ')} over stdio${service ? ' on the embedded local service' : ` on ${args.baseUrl}`}\n`);
    await closed;
  } finally {
    await server.close().catch(() => undefined);
    await service?.close();
  }
  return 0;
}
