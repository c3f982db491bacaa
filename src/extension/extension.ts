/**
 * Entry point. Small on purpose: build the services, register the command table in one loop,
 * hook settings changes, and return the API the extension-host tests use. Every disposable is
 * owned by `context.subscriptions`.
 */
import * as vscode from 'vscode';
import { registerLmTools, ToolHost, type RegisteredTools } from './chat/lmTools';
import { registerMcpProvider } from './chat/mcpProvider';
import { chatFollowups, registerParticipant } from './chat/participant';
import { commandTable, guarded } from './commands/commandTable';
import { affectsConnection } from './config';
import { createServices, type Services } from './services';
import { describeFailure } from './ui/failures';
import type { UiPrompts } from './ui/prompts';

/** What `activate` returns: test hooks, not a public API for other extensions. */
export interface TeamDataExtensionApi {
  services: Services;
  /** The chat participant's handler and the language-model tools, as registered. */
  chat: { handler: vscode.ChatRequestHandler; tools: RegisteredTools; followups: vscode.ChatFollowupProvider; mcpProvider: boolean };
  /** Replaces the UI prompts (confirm dialogs, inputs, picks); undefined restores the real ones. */
  usePrompts(prompts: UiPrompts | undefined): void;
}

let active: Services | undefined;

export function activate(context: vscode.ExtensionContext): TeamDataExtensionApi {
  const entered = performance.now();
  let s: Services;
  try {
    s = createServices(context);
  } catch (err) {
    // Without services nothing works; say so plainly rather than leaving silent dead commands.
    void vscode.window.showErrorMessage(describeFailure('start Team Data Analysis', err).message);
    throw err;
  }
  active = s;
  for (const entry of commandTable(s)) context.subscriptions.push(vscode.commands.registerCommand(entry.id, guarded(s, entry)));
  // Chat, agent tools and MCP: used only where a language model is installed; nothing needs them.
  const host = new ToolHost(s);
  const chat = { handler: registerParticipant(s, host), tools: registerLmTools(s, host), followups: chatFollowups(), mcpProvider: registerMcpProvider(s) };
  s.notifier.bind({
    signIn: () => vscode.commands.executeCommand('teamData.signIn'),
    showLogs: () => s.log.show(),
    openSettings: () => vscode.commands.executeCommand('teamData.openSettings'),
    deleteOldSessions: () => vscode.commands.executeCommand('teamData.deleteOldSessions'),
  });
  context.subscriptions.push(
    s.panels.registerSerializer(),
    s.explorers.register(),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsConnection(e)) return;
      void s.connection.refresh();
      s.datasets.refresh();
      s.sessions.refresh();
    }),
    s.connection.onDidChange((info) => {
      void vscode.commands.executeCommand('setContext', 'teamData.mode', info.mode);
      void vscode.commands.executeCommand('setContext', 'teamData.signedIn', info.signedIn);
    }),
  );
  // The extension activates once startup has finished (onStartupFinished), so the status bar item
  // is there from a first open on, before any Team Data view is opened. That is no sign the user
  // needs the local service yet: it starts at its first use (an open view's tree, a command, a
  // question), or now when a Team Data view is already showing. A failure is shown where the
  // service is used (trees, status bar); nothing to report here.
  if (s.connection.info.mode === 'local' && (s.datasetsView.visible || s.sessionsView.visible)) s.supervisor.ensureStarted().catch(() => undefined);
  void vscode.commands.executeCommand('setContext', 'teamData.mode', s.connection.info.mode);
  void vscode.commands.executeCommand('setContext', 'teamData.signedIn', s.connection.info.signedIn);
  s.log.info(`Team Data Analysis ${String(context.extension.packageJSON?.version ?? '')} activated (${s.connection.info.mode} service)`);
  s.log.info(`startup: activate entered at +${Math.round(entered)} ms of the extension host, done ${Math.round(performance.now() - entered)} ms later`);
  return { services: s, chat, usePrompts: (p) => s.prompts.use(p) };
}

/** Stops the local service (VS Code waits for the returned promise, briefly). */
export async function deactivate(): Promise<void> {
  const s = active;
  active = undefined;
  s?.jobs.cancelAll();
  // The model bridge stops with the window (its token dies with it).
  s?.model.dispose();
  await s?.supervisor.stop();
}
