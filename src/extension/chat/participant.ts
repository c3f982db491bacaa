/**
 * `@teamdata` in VS Code's Chat view: `/analyze` the active editor's file or `#file` references,
 * `/ask` about the current dataset, `/sessions` to list recent sessions. Answers stream in as they
 * arrive (chatRender.ts). One chat conversation keeps one service session (its id rides in the
 * result metadata, which VS Code hands back with the history), so follow-ups have context.
 * Cancelling in chat cancels the job.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { ToolInputError, type ToolTarget } from '../../api/analysisTools';
import { isTeamDataError } from '../../api/index';
import { SUPPORTED_EXTENSIONS } from '../../shared/domain';
import { fileExtension } from '../../shared/fileNames';
import { DEFAULT_QUESTION } from '../flows/analyze';
import { lastChoice, rememberChoice } from '../flows/pickers';
import type { Services } from '../services';
import { describeFailure } from '../ui/failures';
import { renderAnswer, SHOW_ANSWER_COMMAND } from './chatRender';
import type { ToolHost } from './lmTools';

export const PARTICIPANT_ID = 'teamData.participant';

/** What a response remembers for the rest of the conversation and for its follow-ups. */
export interface TurnMetadata {
  sessionId?: string;
  datasetId?: string;
  jobId?: string;
  questions?: string[];
}

function metadataOf(result: vscode.ChatResult | undefined): TurnMetadata {
  const m = result?.metadata;
  return typeof m === 'object' && m !== null ? (m as TurnMetadata) : {};
}

/** The conversation's service session and dataset: the latest response that had them. */
function conversationState(context: vscode.ChatContext): TurnMetadata {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (turn instanceof vscode.ChatResponseTurn) {
      const m = metadataOf(turn.result);
      if (m.sessionId) return m;
    }
  }
  return {};
}

function isDataFile(uri: vscode.Uri): boolean {
  return uri.scheme === 'file' && (SUPPORTED_EXTENSIONS as readonly string[]).includes(fileExtension(uri.fsPath));
}

/** `#file` references (files or locations in them), else the active editor's file. */
function filesOf(request: vscode.ChatRequest): vscode.Uri[] {
  const refs = request.references.flatMap((r) => (r.value instanceof vscode.Uri ? [r.value] : r.value instanceof vscode.Location ? [r.value.uri] : []));
  const data = refs.filter(isDataFile);
  if (data.length > 0) return data;
  const active = vscode.window.activeTextEditor?.document.uri;
  return active && isDataFile(active) ? [active] : [];
}

async function listSessions(s: Services, out: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  const client = await s.connection.client();
  const page = await client.sessions.list({ pageSize: 10 });
  if (page.records.length === 0) {
    out.markdown('No sessions yet. Ask `@teamdata /analyze` with a data file open to start one.');
    return {};
  }
  out.markdown(`The ${page.records.length === page.total ? '' : `${page.records.length} most recent of ${page.total} `}sessions:\n\n`);
  for (const x of page.records) out.markdown(`- ${(x.title.trim() || 'Untitled session').replace(/[[\]*_`\\]/g, '\\$&')}\n`);
  out.button({ command: 'workbench.view.extension.teamData', title: 'Open the Sessions View' });
  return {};
}

export function chatHandler(s: Services, host: ToolHost): vscode.ChatRequestHandler {
  return async (request, context, out, token) => {
    const ac = new AbortController();
    const sub = token.onCancellationRequested(() => ac.abort());
    try {
      if (request.command === 'sessions') return await listSessions(s, out);
      // The files come from the user's own references (or editor), not from a model: any folder.
      const tools = await host.get('user');
      const state = conversationState(context);
      const files = request.command === 'ask' ? [] : filesOf(request);
      let target: ToolTarget;
      if (files.length > 0) {
        out.progress(`Reading ${files.length === 1 ? basename(files[0]?.fsPath ?? '') : `${files.length} files`}…`);
        target = await tools.prepareFiles(files.map((f) => f.fsPath), { signal: ac.signal, progress: (m) => out.progress(m) });
      } else if (request.command === 'analyze') {
        out.markdown('Open a data file in the editor, or reference one with `#file`, then ask `@teamdata /analyze` again.');
        return {};
      } else {
        const datasetId = state.datasetId ?? lastChoice(s).datasetId;
        if (!datasetId) {
          out.markdown('There is no current dataset yet. Open a data file and ask `@teamdata /analyze`, or analyze one from the Explorer.');
          return {};
        }
        target = await tools.findDataset(datasetId, { signal: ac.signal });
      }
      const question = request.prompt.trim() || DEFAULT_QUESTION;
      const { sessionId, stream } = await tools.start(target, question, { signal: ac.signal }, state.sessionId);
      await rememberChoice(s, { sessionId, datasetId: target.dataset.id, dataSourceIds: target.ids });
      const byName = new Map(files.map((f) => [basename(f.fsPath), f] as const));
      const meta: TurnMetadata = { sessionId, datasetId: target.dataset.id };
      try {
        const rendered = await renderAnswer(stream, out, { sessionId, files: byName, signal: ac.signal });
        meta.jobId = rendered.answer.jobId;
        meta.questions = rendered.questions;
        out.button({ command: SHOW_ANSWER_COMMAND, title: 'Open in the Answer Panel', arguments: [sessionId, rendered.answer.jobId] });
      } catch (err) {
        if (token.isCancellationRequested || (isTeamDataError(err) && err.code === 'ABORTED')) {
          out.markdown('\n\n_Cancelled._');
          return { metadata: meta };
        }
        throw err;
      } finally {
        void s.sessions.refreshSession(sessionId);
      }
      return { metadata: meta };
    } catch (err) {
      if (token.isCancellationRequested) return {};
      const message = err instanceof ToolInputError ? err.message : describeFailure('answer the question', err).message;
      return { errorDetails: { message } };
    } finally {
      sub.dispose();
    }
  };
}

/** The service's suggested questions as chat follow-ups. */
export function chatFollowups(): vscode.ChatFollowupProvider {
  return {
    provideFollowups: (result) => (metadataOf(result).questions ?? []).slice(0, 3).map((prompt) => ({ prompt, label: prompt })),
  };
}

/** Registers `@teamdata` where this VS Code has the chat API; nothing else depends on it. */
export function registerParticipant(s: Services, host: ToolHost): vscode.ChatRequestHandler {
  const handler = chatHandler(s, host);
  if (typeof vscode.chat?.createChatParticipant !== 'function') return handler;
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, handler);
  participant.iconPath = vscode.Uri.joinPath(s.context.extensionUri, 'media', 'icons', 'icon.png');
  participant.followupProvider = chatFollowups();
  s.context.subscriptions.push(participant);
  return handler;
}
