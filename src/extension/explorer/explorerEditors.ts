/**
 * The Team Data Explorer's tabs (issue 27): a read-only custom editor for data files (Open With…,
 * the Explorer's "Open in Team Data Explorer"), and plain webview panels for what is not a file of
 * the workspace — a data source of the local service, an answer table. Each tab is an
 * {@link ExplorerSession}; the webview gets scripts, resources from `dist/` only, a fresh nonce and
 * the explorer's strict CSP, and is not kept alive while hidden (its state comes back in `init`).
 *
 * After a window reload VS Code restores the custom editor by its file's URI (resolveCustomEditor
 * again: the tab's query, pins and widths come back from the workspace state), and the panels
 * through the serializer registered here: each panel's webview keeps its origin (`panelState`,
 * checked with the protocol's guards when it comes back; an answer table only under the host's
 * answer-file cache). A table whose copy is gone, or a data source the service no longer has,
 * says so in the tab (explorerSession.ts).
 *
 * Answer tables: the host's cached copy of the CSV lives in the extension's answer-file cache,
 * which is not a workspace folder, and the service reads files in place only under the folders a
 * window's lease registered. The first "Explore" of an answer table adds that cache folder (the
 * host's own downloads, nothing else) to this window's read roots, remembered from then on; a
 * service that cannot read it yet restarts once no job runs (supervisor.ts), and the tab waits.
 */
import { isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import { within } from '../../api/toolRoots';
import { isExplorerPanelState } from '../../shared/explorerGuards';
import { escapeHtml } from '../../shared/html';
import { answerFilesRoot } from '../panel/fileCache';
import { bundleHtml } from '../ui/webviewHtml';
import { renderExplorerHtml } from '../../webview/explorer/explorerHtml';
import type { Services } from '../services';
import { ExplorerMemory } from './explorerMemory';
import { ExplorerSession } from './explorerSession';
import { originName, type ExplorerOrigin } from './explorerTypes';

export const EXPLORER_VIEW_TYPE = 'teamData.explorer';
/** The panels for data sources and answer tables (restored after a window reload by {@link ExplorerEditors.restorePanel}). */
export const EXPLORER_PANEL_TYPE = 'teamData.explorerPanel';
/** globalState: answer tables were explored, so the answer-file cache is one of the read roots. */
export const ANSWER_TABLES_READABLE = 'teamData.answerTablesReadable';

class ExplorerDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {
    // Nothing held: each tab's session closes its own view.
  }
}

export class ExplorerEditors implements vscode.CustomReadonlyEditorProvider<ExplorerDocument>, vscode.Disposable {
  private readonly open = new Set<ExplorerSession>();
  private readonly memory: ExplorerMemory;
  private readonly distUri: vscode.Uri;
  private readonly opened = new vscode.EventEmitter<ExplorerSession>();
  /** Fires when a tab's session is made (the tests wait on it). */
  readonly onDidOpen = this.opened.event;

  constructor(private readonly s: Services) {
    this.memory = new ExplorerMemory(s.context.workspaceState);
    this.distUri = vscode.Uri.joinPath(s.context.extensionUri, 'dist');
  }

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.window.registerCustomEditorProvider(EXPLORER_VIEW_TYPE, this, {
        webviewOptions: { retainContextWhenHidden: false, enableFindWidget: false },
        supportsMultipleEditorsPerDocument: true,
      }),
      vscode.window.registerWebviewPanelSerializer(EXPLORER_PANEL_TYPE, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          await this.restorePanel(panel, state);
        },
      }),
    );
  }

  /**
   * Brings a panel tab back after a window reload from the state its webview kept. A state that
   * does not pass the guards (or names a table outside the answer-file cache) opens nothing: the
   * tab says it cannot be restored.
   */
  async restorePanel(panel: vscode.WebviewPanel, state: unknown): Promise<ExplorerSession | undefined> {
    const origin = isExplorerPanelState(state) ? state.origin : undefined;
    const cache = answerFilesRoot(this.s.context.globalStorageUri.fsPath);
    if (origin === undefined || (origin.kind === 'table' && !inside(cache, origin.path))) {
      this.s.log.warn('Team Data Explorer: a tab could not be restored after the window reload: what it showed was not saved with it, or not in a form this version reads');
      panel.webview.options = { enableScripts: false, localResourceRoots: [] };
      panel.webview.html = messageHtml('This Team Data Explorer tab could not be restored after the window reload: what it showed was not saved with it. Close it, and open the data source or the answer table again.');
      return undefined;
    }
    if (origin.kind === 'table') await this.tablesReadable(cache);
    return this.adopt(panel, origin);
  }

  /** The open tabs (for the tests and for closing them). */
  get sessions(): readonly ExplorerSession[] {
    return [...this.open];
  }

  openCustomDocument(uri: vscode.Uri): ExplorerDocument {
    return new ExplorerDocument(uri);
  }

  resolveCustomEditor(document: ExplorerDocument, panel: vscode.WebviewPanel): void {
    this.adopt(panel, { kind: 'file', uri: document.uri });
  }

  /** Opens `uri` in the explorer's custom editor; resolves with its tab's session. */
  async openFile(uri: vscode.Uri): Promise<ExplorerSession | undefined> {
    const match = (x: ExplorerSession): boolean => x.origin.kind === 'file' && x.origin.uri.toString() === uri.toString();
    // A tab already open on the file is revealed rather than made again: then nothing new fires.
    const made = this.next(match, [...this.open].some(match) ? 1500 : 10_000);
    await vscode.commands.executeCommand('vscode.openWith', uri, EXPLORER_VIEW_TYPE);
    return made;
  }

  /** Opens a data source of the local service in an explorer tab. */
  openSource(datasourceId: string, datasetId: string, name: string): ExplorerSession {
    return this.openPanel({ kind: 'source', datasourceId, datasetId, name });
  }

  /** Opens an answer table's cached CSV in an explorer tab, first making the cache readable to the service. */
  async openTable(path: string, name: string, cacheRoot: string): Promise<ExplorerSession> {
    await this.tablesReadable(cacheRoot);
    return this.openPanel({ kind: 'table', path, name });
  }

  /** Makes the answer-file cache one of the window's read roots (remembered from then on). */
  private async tablesReadable(cacheRoot: string): Promise<void> {
    if (this.s.context.globalState.get<boolean>(ANSWER_TABLES_READABLE) !== true || !this.s.supervisor.readRoots.includes(cacheRoot)) {
      await this.s.context.globalState.update(ANSWER_TABLES_READABLE, true);
      if (this.s.supervisor.endpoint !== undefined && this.s.supervisor.readRootsChanged()) {
        await this.s.supervisor.updateReadRoots().catch((err: unknown) => this.s.log.warn(`telling the local service about the answer-file folder failed: ${String(err)}`));
      }
    }
  }

  private openPanel(origin: ExplorerOrigin): ExplorerSession {
    const panel = vscode.window.createWebviewPanel(EXPLORER_PANEL_TYPE, originName(origin), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [this.distUri],
      retainContextWhenHidden: false,
    });
    return this.adopt(panel, origin);
  }

  private adopt(panel: vscode.WebviewPanel, origin: ExplorerOrigin): ExplorerSession {
    panel.webview.options = { enableScripts: true, localResourceRoots: [this.distUri] };
    const x = new ExplorerSession(panel, origin, this.s, this.memory);
    this.open.add(x);
    x.onDidClose(() => this.open.delete(x));
    panel.webview.html = this.html(panel.webview, originName(origin));
    this.opened.fire(x);
    return x;
  }

  private next(match: (x: ExplorerSession) => boolean, waitMs: number): Promise<ExplorerSession | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        sub.dispose();
        resolve([...this.open].reverse().find(match));
      }, waitMs);
      const sub = this.onDidOpen((x) => {
        if (!match(x)) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(x);
      });
    });
  }

  private html(webview: vscode.Webview, title: string): string {
    return bundleHtml(webview, this.distUri, 'explorer', 'Team Data Explorer', title, renderExplorerHtml, (m) => this.s.log.error(m));
  }

  dispose(): void {
    for (const x of [...this.open]) x.close();
    this.open.clear();
    this.opened.dispose();
  }
}

/** Whether `path` is an absolute path strictly inside `root`. */
function inside(root: string, path: string): boolean {
  if (!isAbsolute(path)) return false;
  const [r, p] = [resolve(root), resolve(path)];
  return p !== r && within(p, r);
}

/** A tab's plain message, without scripts or resources. */
function messageHtml(text: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none';">
<title>Team Data Explorer</title>
</head>
<body>
<p role="alert">${escapeHtml(text)}</p>
</body>
</html>`;
}
