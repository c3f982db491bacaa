/**
 * The extension's services, built once in `activate` and handed to every command. Each service
 * is a disposable pushed to `context.subscriptions` when created, so deactivation releases
 * everything even if activation failed half-way.
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import { watchInPlaceFiles, workspaceReadRoots } from './flows/inPlace';
import { TeamDataClient } from '../api/index';
import { KeyStore } from './connection/keyStore';
import { ConnectionManager } from './connection/connection';
import { readSettings } from './config';
import { FileReuseCache } from './flows/fileReuse';
import { RunningJobs } from './jobs/runningJobs';
import { LocalServiceSupervisor } from './localService/supervisor';
import { LocalModelManager } from './model/localModel';
import { adoptOldFolder, chosenDataFolder } from './localService/dataFolder';
import { ANSWER_TABLES_READABLE, ExplorerEditors } from './explorer/explorerEditors';
import { Log } from './log';
import { answerFilesRoot } from './panel/fileCache';
import { PanelManager } from './panel/panelManager';
import { DATASETS_VIEW, DatasetsTreeProvider } from './trees/datasetsTree';
import { announcingFirstAnswer } from './trees/firstAnswer';
import type { DatasetsTreeNode, SessionsTreeNode } from './trees/nodes';
import { SESSIONS_VIEW, SessionsTreeProvider } from './trees/sessionsTree';
import { Notifier } from './ui/notifier';
import { PromptsHolder, VsCodePrompts } from './ui/prompts';
import { StatusBar } from './ui/statusBar';

export interface Services {
  context: vscode.ExtensionContext;
  log: Log;
  prompts: PromptsHolder;
  notifier: Notifier;
  keys: KeyStore;
  supervisor: LocalServiceSupervisor;
  connection: ConnectionManager;
  jobs: RunningJobs;
  datasets: DatasetsTreeProvider;
  sessions: SessionsTreeProvider;
  datasetsView: vscode.TreeView<DatasetsTreeNode>;
  sessionsView: vscode.TreeView<SessionsTreeNode>;
  panels: PanelManager;
  reuse: FileReuseCache;
  status: StatusBar;
  /** The language model lent to the local service (teamData.localModel.*), and its status item. */
  model: LocalModelManager;
  /** The Team Data Explorer's tabs (issue 27). */
  explorers: ExplorerEditors;
}

function own<T extends vscode.Disposable>(context: vscode.ExtensionContext, d: T): T {
  context.subscriptions.push(d);
  return d;
}

export function createServices(context: vscode.ExtensionContext): Services {
  const log = own(context, new Log());
  const later = {} as { supervisor: LocalServiceSupervisor; connection: ConnectionManager; model?: LocalModelManager };
  // The views first (issue 24 point 13): until they have a data provider VS Code says "There is no
  // data provider registered". The providers reach the supervisor and connection made below only
  // when VS Code asks them for rows, after activate has returned. The roots wait for the local
  // service (see startGate.ts); a hosted service needs no start.
  const starter = { ready: () => readSettings().baseUrl !== '' || later.supervisor.endpoint !== undefined, start: () => later.supervisor.ensureStarted() };
  const treeDeps = { client: () => later.connection.client(), starter, log };
  const datasets = own(context, new DatasetsTreeProvider(treeDeps));
  const sessions = own(context, new SessionsTreeProvider(treeDeps));
  // How long after the extension host started each view was first asked for (the window's "no
  // data provider" span ends about then): a figure in the log, in ms of the host process.
  const firstRequest = (view: string) => () => log.info(`startup: first ${view} request at +${Math.round(performance.now())} ms of the extension host (${new Date().toISOString()})`);
  const datasetsView = own(context, vscode.window.createTreeView(DATASETS_VIEW, { treeDataProvider: announcingFirstAnswer(datasets, 'teamData.datasetsLoaded', firstRequest('Datasets')), showCollapseAll: true }));
  own(context, datasets.attach(datasetsView));
  const sessionsView = own(context, vscode.window.createTreeView(SESSIONS_VIEW, { treeDataProvider: announcingFirstAnswer(sessions, 'teamData.sessionsLoaded', firstRequest('Sessions')), showCollapseAll: true }));
  sessions.attach(sessionsView);
  const prompts = new PromptsHolder(new VsCodePrompts());
  const notifier = new Notifier(log, prompts);
  const keys = own(context, new KeyStore(context.secrets, process.env, (m) => notifier.warn(m)));
  const supervisor = new LocalServiceSupervisor({
    cliPath: join(context.extensionPath, 'dist', 'cli.js'),
    dataDir: () => chosenDataFolder(readSettings().localDataFolder),
    version: String((context.extension.packageJSON as { version?: unknown }).version ?? 'dev'),
    prepare: async () => {
      if (readSettings().localDataFolder !== '') return;
      const moved = await adoptOldFolder(join(context.globalStorageUri.fsPath, 'local-service'), chosenDataFolder(''));
      if (moved) log.write('info', moved);
    },
    // The answer-file cache too, once an answer table was explored (explorerEditors.ts): the host's own downloads.
    readRoots: () => [...workspaceReadRoots(), ...(context.globalState.get<boolean>(ANSWER_TABLES_READABLE) === true ? [answerFilesRoot(context.globalStorageUri.fsPath)] : [])],
    // Read at each lease taken: the model chosen at that moment (none until the settings are applied).
    model: () => later.model?.model,
    readHardLinks: () => readSettings().localServiceReadHardLinks,
    log: (level, message) => log.write(level, message),
    onNote: (message) => void prompts.choose(message, ['Restart Local Service'] as const, { level: 'info' }).then((choice) => {
      if (choice) void vscode.commands.executeCommand('teamData.restartLocalService');
    }, () => undefined),
    healthCheck: async (endpoint, signal) => {
      // A real request through the real client: proves the key, the codec and DuckDB-backed state.
      const probe = new TeamDataClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, userId: 'health-check', timeoutMs: 15_000, retry: { attempts: 1 } });
      await probe.datasets.list({ pageSize: 1 }, { signal });
    },
  });
  own(context, { dispose: () => void supervisor.stop() });
  const model = own(context, new LocalModelManager({
    globalState: context.globalState,
    secrets: context.secrets,
    prompts,
    log: (level, message) => log.write(level, message),
    push: () => supervisor.updateModel(),
  }));
  later.model = model;
  // At startup no consent modal: a model not yet allowed shows as off until the user chooses it.
  void model.apply({ mayAsk: false });
  // New workspace folders go to the service with this window's lease; a service that cannot read
  // them yet (its sandbox is fixed at start) restarts once no job runs.
  own(context, vscode.workspace.onDidChangeWorkspaceFolders(() => {
    if (supervisor.endpoint === undefined || !supervisor.readRootsChanged()) return;
    supervisor.updateReadRoots().catch((e: unknown) => log.write('warn', `telling the local service about the new folders failed: ${String(e)}`));
  }));
  own(context, vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('teamData.localDataFolder') || supervisor.endpoint === undefined) return;
    log.write('info', `The local data folder is now ${supervisor.dataDir}`);
    supervisor.reattach().catch((err: unknown) => log.write('warn', `using the new local data folder failed: ${String(err)}`));
  }));
  // A running service keeps the flags it started with (it may be shared with other clients), so
  // the setting takes effect at its next start: offer that start now.
  own(context, vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration('teamData.localService.readHardLinks') || supervisor.endpoint === undefined) return;
    void prompts.choose('The local service reads files with other hard links as teamData.localService.readHardLinks now says once it restarts.', ['Restart Local Service'] as const, { level: 'info' }).then((choice) => {
      if (choice) void vscode.commands.executeCommand('teamData.restartLocalService');
    }, () => undefined);
  }));
  const connection: ConnectionManager = own(context, new ConnectionManager(keys, supervisor, log));
  later.supervisor = supervisor;
  later.connection = connection;
  const jobs = own(context, new RunningJobs());
  own(context, supervisor.onDidChangeState((state) => {
    if (state !== 'running') return;
    datasets.gate.serviceStarted();
    sessions.gate.serviceStarted();
  }));
  const reuse = new FileReuseCache(context.globalState);
  const status = own(context, new StatusBar(connection, jobs));
  const services = { context, log, prompts, notifier, keys, supervisor, connection, jobs, datasets, sessions, datasetsView, sessionsView, reuse, status, model } as Omit<Services, 'panels' | 'explorers'> as Services;
  services.panels = own(context, new PanelManager(services));
  services.explorers = own(context, new ExplorerEditors(services));
  own(context, watchInPlaceFiles(services));
  return services;
}
