/**
 * Language-model tools (agent mode and any chat participant): analyze workspace files, ask about
 * a dataset, list datasets. The work is the shared AnalysisTools over the connection's client;
 * this file adds what VS Code needs: the confirmation that says which files leave the machine
 * (none with the local service), progress text, cancellation and a concise text result.
 */
import * as vscode from 'vscode';
import { AnalysisTools, ToolInputError, type ToolAnswer } from '../../api/analysisTools';
import type { TeamDataClient } from '../../api/index';
import { answerText, datasetsText } from '../../api/toolText';
import { markdownCode, shownPath, workspaceAnalysisTools, type WorkspaceFolderPath } from '../../api/workspaceFiles';
import type { Services } from '../services';

export const LM_TOOLS = { analyzeFiles: 'teamData_analyzeFiles', askDataset: 'teamData_askDataset', listDatasets: 'teamData_listDatasets' } as const;

export interface AnalyzeFilesInput {
  paths: string[];
  question: string;
}

export interface AskDatasetInput {
  dataset: string;
  question: string;
}

/** The open workspace folders, as the tools' rules take them. */
function workspaceFolders(): WorkspaceFolderPath[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath }));
}

const OPEN_HINT = 'The user can open it in the Team Data Analysis answer panel (Sessions view).';

/**
 * One AnalysisTools per client: a new client (a restarted local service on a new port, a changed
 * API version or account) gets new tools, so sessions and reuse never point at a dead service.
 * The model's tools read only inside the open workspace folders (workspaceFiles.ts): a model names
 * their paths and may be steered by what it read. The chat participant's tools read the files the
 * user attached or opened, wherever they are: the user chose those.
 */
export class ToolHost {
  private tools: { client: TeamDataClient; model: AnalysisTools; user: AnalysisTools } | undefined;

  constructor(private readonly s: Services) {}

  /** `by`: who names the paths, the model (workspace folders only) or the user (any file). */
  async get(by: 'model' | 'user' = 'model'): Promise<AnalysisTools> {
    const client = await this.s.connection.client();
    if (this.tools?.client !== client) {
      const hosted = this.s.connection.info.mode === 'hosted';
      const root = workspaceFolders()[0]?.path ?? process.cwd();
      this.tools = { client, model: workspaceAnalysisTools(client, workspaceFolders, hosted), user: new AnalysisTools(client, root, hosted) };
    }
    return by === 'model' ? this.tools.model : this.tools.user;
  }

  /** Where the work happens, in the words a confirmation uses. */
  where(): { local: boolean; host: string } {
    const info = this.s.connection.info;
    return { local: info.mode === 'local', host: info.label };
  }
}

function signalOf(token: vscode.CancellationToken): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  if (token.isCancellationRequested) ac.abort();
  const sub = token.onCancellationRequested(() => ac.abort());
  return { signal: ac.signal, dispose: () => sub.dispose() };
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

async function answered(r: ToolAnswer, signal: AbortSignal): Promise<vscode.LanguageModelToolResult> {
  const { text, unanswered } = await answerText(r, { openHint: OPEN_HINT, signal });
  return textResult(unanswered ? `The question could not be answered from the data.\n\n${text}` : text);
}

/** Runs a tool body; cancellation and input mistakes become errors the model can read. */
async function run<T>(token: vscode.CancellationToken, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal, dispose } = signalOf(token);
  try {
    return await body(signal);
  } catch (err) {
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (err instanceof ToolInputError) throw new Error(err.message);
    throw err;
  } finally {
    dispose();
  }
}

export function analyzeFilesTool(host: ToolHost): vscode.LanguageModelTool<AnalyzeFilesInput> {
  return {
    prepareInvocation(options) {
      const { local, host: where } = host.where();
      const names = options.input.paths.map((p) => p.split(/[\\/]/).pop() ?? p);
      // The whole path, as the tool will read it: a bare name could be any folder's file.
      const folders = workspaceFolders();
      const shown = options.input.paths.map((p) => shownPath(p, folders));
      const files = shown.map((f) => (f.inside ? markdownCode(f.shown) : `${markdownCode(f.shown)} (outside the workspace folders: it will be refused)`)).join(', ');
      const message = local
        ? new vscode.MarkdownString(`Analyze ${files} on this machine with the embedded local service. **No file leaves the machine.**`)
        : new vscode.MarkdownString(`Upload ${files} to **${where}** and analyze ${names.length === 1 ? 'it' : 'them'} there. **These files leave the machine.**`);
      return {
        invocationMessage: `Analyzing ${names.length === 1 ? names[0] : `${names.length} files`}…`,
        confirmationMessages: { title: local ? 'Analyze files locally?' : `Upload files to ${where}?`, message },
      };
    },
    invoke: async (options, token) => run(token, async (signal) => answered(await (await host.get()).analyzeFiles(options.input.paths, options.input.question, { signal }), signal)),
  };
}

export function askDatasetTool(host: ToolHost): vscode.LanguageModelTool<AskDatasetInput> {
  return {
    prepareInvocation(options) {
      const { local, host: where } = host.where();
      return {
        invocationMessage: `Asking “${options.input.dataset}”…`,
        confirmationMessages: {
          title: local ? 'Ask the local dataset?' : `Ask ${where}?`,
          message: new vscode.MarkdownString(local
            ? `Ask the dataset \`${options.input.dataset}\` on this machine. **No file leaves the machine.**`
            : `Send the question to **${where}**, which holds the dataset \`${options.input.dataset}\`. No file is uploaded.`),
        },
      };
    },
    invoke: async (options, token) => run(token, async (signal) => answered(await (await host.get()).askDataset(options.input.dataset, options.input.question, { signal }), signal)),
  };
}

export function listDatasetsTool(host: ToolHost): vscode.LanguageModelTool<Record<string, never>> {
  return {
    // Read-only: no confirmation.
    prepareInvocation: () => ({ invocationMessage: 'Listing datasets…' }),
    invoke: async (_options, token) => run(token, async (signal) => textResult(datasetsText(await (await host.get()).listDatasets({ signal })))),
  };
}

export interface RegisteredTools {
  analyzeFiles: vscode.LanguageModelTool<AnalyzeFilesInput>;
  askDataset: vscode.LanguageModelTool<AskDatasetInput>;
  listDatasets: vscode.LanguageModelTool<Record<string, never>>;
}

/** Registers the tools when this VS Code has the language-model API; nothing else depends on it. */
export function registerLmTools(s: Services, host: ToolHost): RegisteredTools {
  const tools: RegisteredTools = { analyzeFiles: analyzeFilesTool(host), askDataset: askDatasetTool(host), listDatasets: listDatasetsTool(host) };
  if (typeof vscode.lm?.registerTool !== 'function') return tools;
  s.context.subscriptions.push(
    vscode.lm.registerTool(LM_TOOLS.analyzeFiles, tools.analyzeFiles),
    vscode.lm.registerTool(LM_TOOLS.askDataset, tools.askDataset),
    vscode.lm.registerTool(LM_TOOLS.listDatasets, tools.listDatasets),
  );
  return tools;
}
