/**
 * Every command of the extension in one table. `activate` registers them in one loop; each
 * handler's failure is reported (what happened, what to do, details in the log) instead of
 * surfacing as VS Code's generic "command failed" with a stack trace. Handlers return their
 * result, so the extension-host tests can drive flows through `executeCommand`.
 */
import * as vscode from 'vscode';
import { SHOW_ANSWER_COMMAND } from '../chat/chatRender';
import { analyzeFiles, addToDataset } from '../flows/analyze';
import { askFlow } from '../flows/ask';
import { lastChoice, pickSession } from '../flows/pickers';
import { offerDeleteOldSessions } from '../flows/sessionHelpers';
import type { Services } from '../services';
import { signIn, signOut, useLocalService } from './authCommands';
import { showStatusMenu } from './statusMenu';
import * as tree from './treeCommands';
import * as glossary from './glossaryCommands';
import { exploreDataSource, openInExplorer } from '../explorer/explorerCommands';
import { chooseModel, clearModelEndpointKey, setModelEndpointKey } from './modelCommands';

export interface CommandEntry {
  id: string;
  /** Verb phrase for failure messages: "Could not <what>: …". */
  what: string;
  handler: (...args: unknown[]) => unknown;
}

async function openPanel(s: Services): Promise<unknown> {
  const active = s.panels.active;
  if (active) {
    active.reveal();
    return active.sessionId;
  }
  const client = await s.connection.client();
  const last = lastChoice(s);
  const choice = await pickSession(s, client, { title: 'Open the answer panel of which session?', ...(last.sessionId ? { preferredId: last.sessionId } : {}) });
  if (!choice) return undefined;
  if (choice.kind === 'new') return tree.newSession(s);
  await s.panels.open(choice.session.id);
  return choice.session.id;
}

async function analyzeSample(s: Services): Promise<unknown> {
  const sample = vscode.Uri.joinPath(s.context.extensionUri, 'samples', 'sales.csv');
  return analyzeFiles(s, sample, [sample]);
}

/** Chat buttons: the session's panel, scrolled to the job. */
async function showAnswer(s: Services, sessionId: unknown, jobId: unknown): Promise<void> {
  if (typeof sessionId !== 'string' || sessionId === '') return;
  await s.panels.open(sessionId, typeof jobId === 'string' && jobId !== '' ? { scrollToJobId: jobId } : {});
}

function refreshAll(s: Services): void {
  void s.connection.refresh();
  s.datasets.refresh();
  s.sessions.refresh();
}

export function commandTable(s: Services): CommandEntry[] {
  return [
    { id: 'teamData.analyzeFile', what: 'analyze the file', handler: (uri, uris) => analyzeFiles(s, uri, uris) },
    { id: 'teamData.analyzeSample', what: 'analyze the sample data', handler: () => analyzeSample(s) },
    { id: 'teamData.addToDataset', what: 'add the files to a dataset', handler: (uri, uris) => addToDataset(s, uri, uris) },
    { id: 'teamData.ask', what: 'ask the question', handler: () => askFlow(s) },
    { id: 'teamData.newSession', what: 'create a session', handler: () => tree.newSession(s) },
    { id: 'teamData.openPanel', what: 'open the answer panel', handler: () => openPanel(s) },
    { id: 'teamData.signIn', what: 'sign in', handler: () => signIn(s) },
    { id: 'teamData.signOut', what: 'sign out', handler: () => signOut(s) },
    { id: 'teamData.useLocalService', what: 'switch to the local service', handler: () => useLocalService(s) },
    // Shared with other windows and the CLI: the service finishes their running jobs first.
    { id: 'teamData.restartLocalService', what: 'restart the local service', handler: async () => (await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Restarting the local service once its running jobs end…' },
      () => s.supervisor.restart(),
    )).baseUrl },
    { id: 'teamData.chooseModel', what: 'choose the language model', handler: () => chooseModel(s) },
    { id: 'teamData.setModelEndpointKey', what: 'set the model endpoint key', handler: () => setModelEndpointKey(s) },
    { id: 'teamData.clearModelEndpointKey', what: 'clear the model endpoint key', handler: () => clearModelEndpointKey(s) },
    { id: 'teamData.showLogs', what: 'show the logs', handler: () => s.log.show() },
    { id: 'teamData.refresh', what: 'refresh', handler: () => refreshAll(s) },
    { id: 'teamData.showStatusMenu', what: 'show the actions', handler: () => showStatusMenu(s) },
    { id: 'teamData.cancelJob', what: 'cancel the job', handler: () => s.jobs.cancelAll() },
    { id: 'teamData.deleteOldSessions', what: 'delete old sessions', handler: async () => offerDeleteOldSessions(s, await s.connection.client()) },
    { id: 'teamData.openSettings', what: 'open the settings', handler: () => vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${s.context.extension.id}`) },
    { id: 'teamData.datasets.create', what: 'create the dataset', handler: () => tree.newDataset(s) },
    { id: 'teamData.datasets.edit', what: 'edit the dataset', handler: (node) => tree.editDataset(s, node) },
    { id: 'teamData.datasets.delete', what: 'delete the dataset', handler: (node) => tree.deleteDataset(s, node) },
    { id: 'teamData.datasets.addFiles', what: 'add files', handler: (node) => tree.addFilesToNode(s, node) },
    { id: 'teamData.datasets.ask', what: 'ask about the dataset', handler: (node) => tree.askAboutDataset(s, node) },
    { id: 'teamData.datasets.filter', what: 'filter the datasets', handler: () => tree.filterView(s, 'datasets') },
    { id: 'teamData.datasets.clearFilter', what: 'clear the filter', handler: () => s.datasets.setKeyword('') },
    { id: 'teamData.datasets.refresh', what: 'refresh the datasets', handler: () => s.datasets.refresh() },
    { id: 'teamData.dataSources.delete', what: 'delete the data source', handler: (node) => tree.deleteDataSource(s, node) },
    { id: 'teamData.glossary.edit', what: 'change the meaning', handler: (node) => glossary.editGlossaryEntry(s, node) },
    { id: 'teamData.glossary.remove', what: 'forget the meaning', handler: (node) => glossary.removeGlossaryEntry(s, node) },
    { id: 'teamData.dataSources.ask', what: 'ask about the data source', handler: (node) => tree.askAboutDataSource(s, node) },
    { id: 'teamData.sessions.rename', what: 'rename the session', handler: (node) => tree.renameSession(s, node) },
    { id: 'teamData.sessions.delete', what: 'delete the session', handler: (node) => tree.deleteSession(s, node) },
    { id: 'teamData.sessions.ask', what: 'ask in the session', handler: (node) => tree.askInSession(s, node) },
    { id: 'teamData.sessions.filter', what: 'filter the sessions', handler: () => tree.filterView(s, 'sessions') },
    { id: 'teamData.sessions.clearFilter', what: 'clear the filter', handler: () => s.sessions.setKeyword('') },
    { id: 'teamData.sessions.refresh', what: 'refresh the sessions', handler: () => s.sessions.refresh() },
    { id: 'teamData.openJob', what: 'open the answer', handler: (node) => tree.openJob(s, node) },
    { id: 'teamData.retryJob', what: 'retry the question', handler: (node) => tree.retryJob(s, node) },
    { id: SHOW_ANSWER_COMMAND, what: 'show the answer', handler: (sessionId, jobId) => showAnswer(s, sessionId, jobId) },
    { id: 'teamData.openInExplorer', what: 'open the file in the Team Data Explorer', handler: (uri) => openInExplorer(s, uri) },
    { id: 'teamData.dataSources.explore', what: 'open the data source in the Team Data Explorer', handler: (node) => exploreDataSource(s, node) },
    { id: 'teamData.loadMore', what: 'load more', handler: (node) => tree.loadMore(s, node) },
  ];
}

/** Wraps a handler so failures are reported once, with a Retry that runs it again. */
export function guarded(s: Services, entry: CommandEntry): (...args: unknown[]) => Promise<unknown> {
  const run = async (...args: unknown[]): Promise<unknown> => {
    try {
      return await entry.handler(...args);
    } catch (err) {
      s.notifier.failure(entry.what, err, () => run(...args));
      return undefined;
    }
  };
  return run;
}
