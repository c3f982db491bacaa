/**
 * Opens, finds and restores answer panels (one per session). The webview gets only what it
 * needs: scripts enabled, resources limited to the bundle and the answer-file cache, and HTML from
 * the webview package's own builder with a fresh nonce and a strict CSP.
 */
import * as vscode from 'vscode';
import { bundleHtml } from '../ui/webviewHtml';
import type { Answer } from '../../shared/domain';
import { isPersistedUiState } from '../../shared/protocolGuards';
import { renderPanelHtml } from '../../webview/panelHtml';
import type { Services } from '../services';
import { ANSWER_VIEW_TYPE, AnswerPanel, type JobScope } from './answerPanel';
import { AnswerFileCache, answerFilesRoot } from './fileCache';
import { FollowUpLinks } from './followUpLinks';
import { putRecent } from '../recentState';

const SCOPES_KEY = 'teamData.sessionScopes';
/** Bounded so the workspace state never grows without limit; the oldest entries go first. */
const MAX_SCOPES = 300;

export class PanelManager implements vscode.Disposable {
  private readonly panels = new Map<string, AnswerPanel>();
  private readonly cache: AnswerFileCache;
  private readonly distUri: vscode.Uri;
  private lastActive: string | undefined;
  private readonly followUps: FollowUpLinks;

  constructor(private readonly s: Services) {
    this.cache = new AnswerFileCache(answerFilesRoot(s.context.globalStorageUri.fsPath));
    this.followUps = new FollowUpLinks(s.context.workspaceState, () => s.connection.identity());
    this.distUri = vscode.Uri.joinPath(s.context.extensionUri, 'dist');
  }

  /** Registers the serializer that brings panels back after a window reload. */
  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(ANSWER_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        const sessionId = isPersistedUiState(state) ? state.sessionId : undefined;
        if (!sessionId || this.panels.has(sessionId)) {
          panel.dispose();
          return;
        }
        this.adopt(panel, sessionId, panel.title || 'Team Data');
      },
    });
  }

  get(sessionId: string): AnswerPanel | undefined {
    return this.panels.get(sessionId);
  }

  /** The panel the user looked at last, if still open. */
  get active(): AnswerPanel | undefined {
    return this.lastActive ? this.panels.get(this.lastActive) : undefined;
  }

  /** Opens (or reveals) the panel of a session; it loads the session's history. */
  async open(sessionId: string, opts: { scrollToJobId?: string; preserveFocus?: boolean } = {}): Promise<AnswerPanel> {
    const existing = this.panels.get(sessionId);
    if (existing) {
      existing.reveal(opts.scrollToJobId);
      return existing;
    }
    const title = await this.sessionTitle(sessionId);
    // Answer panels share one editor group beside the user's files: a new session's panel opens
    // where the others are, not in yet another group.
    const column = this.active?.panel.viewColumn ?? [...this.panels.values()].find((p) => p.panel.viewColumn !== undefined)?.panel.viewColumn;
    const panel = vscode.window.createWebviewPanel(ANSWER_VIEW_TYPE, title, { viewColumn: column ?? vscode.ViewColumn.Beside, preserveFocus: opts.preserveFocus ?? false }, {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [this.distUri, vscode.Uri.file(this.cache.root)],
    });
    const p = this.adopt(panel, sessionId, title);
    if (opts.scrollToJobId) p.reveal(opts.scrollToJobId);
    return p;
  }

  /** Opens the session's panel and asks there; resolves with the final answer. */
  /** `questionScope`: the data this one question asks about, when less than the session's `scope`. */
  async ask(sessionId: string, question: string, scope: JobScope, questionScope?: JobScope): Promise<Answer> {
    const p = await this.open(sessionId, { preserveFocus: false });
    return p.ask(question, scope, questionScope ? { questionScope } : {});
  }

  /** Closes the panel of a deleted session. */
  closeSession(sessionId: string): void {
    this.panels.get(sessionId)?.close();
  }

  private adopt(panel: vscode.WebviewPanel, sessionId: string, title: string): AnswerPanel {
    panel.webview.options = { enableScripts: true, localResourceRoots: [this.distUri, vscode.Uri.file(this.cache.root)] };
    const p = new AnswerPanel(panel, sessionId, this.s, this.cache, this.html(panel.webview, title), title, { get: (id) => this.scopeOf(id), set: (id, scope) => void this.rememberScope(id, scope) }, this.followUps);
    this.panels.set(sessionId, p);
    this.lastActive = sessionId;
    panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) this.lastActive = sessionId;
    });
    p.onDidDispose(() => {
      if (this.panels.get(sessionId) === p) this.panels.delete(sessionId);
    });
    return p;
  }

  private scopeKey(sessionId: string): string {
    return `${this.s.connection.identity()}|${sessionId}`;
  }

  /** The dataset and files the session's last question used (kept per workspace). */
  scopeOf(sessionId: string): JobScope | undefined {
    return this.s.context.workspaceState.get<Record<string, JobScope>>(SCOPES_KEY)?.[this.scopeKey(sessionId)];
  }

  private async rememberScope(sessionId: string, scope: JobScope): Promise<void> {
    const state = this.s.context.workspaceState;
    await putRecent(state, SCOPES_KEY, state.get<Record<string, JobScope>>(SCOPES_KEY) ?? {}, this.scopeKey(sessionId), scope, MAX_SCOPES);
  }

  private html(webview: vscode.Webview, title: string): string {
    return bundleHtml(webview, this.distUri, 'webview', 'answer panel', title, renderPanelHtml, (m) => this.s.log.error(m));
  }

  private async sessionTitle(sessionId: string): Promise<string> {
    try {
      const client = await this.s.connection.client();
      const session = await client.sessions.get(sessionId);
      return session.title.trim() || 'Untitled session';
    } catch {
      return 'Team Data';
    }
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.close();
    this.panels.clear();
  }
}
