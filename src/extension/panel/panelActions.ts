/**
 * What the panel's buttons do on the host side: links (opened externally after a scheme check),
 * code (editor, cursor, clipboard), tables and images (from the local copy), sources (revealed in
 * the Datasets tree). Everything that reaches here passed the protocol's validators, but its
 * content is still the service's: untrusted.
 */
import { copyFile, readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { codeFileName, safeFileName } from '../../shared/fileNames';
import type { WebviewToHost } from '../../shared/protocol';
import type { Services } from '../services';
import type { AnswerPanel } from './answerPanel';
import { editorLanguage } from './editorLanguage';
import { NEEDS_LOCAL_SERVICE } from '../explorer/explorerTypes';

type ActionMessage = Exclude<WebviewToHost, { type: 'ready' | 'ask' | 'askFollowUp' | 'cancel' | 'retry' | 'uiState' | 'webviewError' }>;

/** Only web links leave the editor: `javascript:`, `file:`, `command:` and friends never open. */
export function isSafeExternalLink(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

async function saveCopy(s: Services, source: string, suggested: string, filters: Record<string, string[]>): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = safeFileName(suggested);
  const target = await vscode.window.showSaveDialog({ ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}), filters, saveLabel: 'Save' });
  if (!target) return;
  await copyFile(source, target.fsPath);
  s.log.info(`Saved ${name} to ${target.fsPath}`);
}

/** Opens `text` as an untitled document named `name` (another number when that name is taken). */
export async function openUntitled(name: string, text: string, language: string): Promise<vscode.TextEditor> {
  const base = name.replace(/[\\/]/g, '_') || 'untitled';
  const taken = (u: vscode.Uri): boolean => vscode.workspace.textDocuments.some((d) => d.uri.toString() === u.toString());
  let uri = vscode.Uri.from({ scheme: 'untitled', path: base });
  for (let n = 2; taken(uri); n++) uri = vscode.Uri.from({ scheme: 'untitled', path: base.replace(/(\.[^.]*)?$/, ` (${n})$1`) });
  let doc = await vscode.workspace.openTextDocument(uri);
  // "csv" is a language only when an extension contributes it; plain text otherwise.
  if ((await vscode.languages.getLanguages()).includes(language)) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, new vscode.Position(0, 0), text);
  await vscode.workspace.applyEdit(edit);
  return vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
}

export async function handleAction(s: Services, panel: AnswerPanel, m: ActionMessage): Promise<void> {
  switch (m.type) {
    case 'openLink':
      if (!isSafeExternalLink(m.url)) {
        s.notifier.warn('That link was not opened: only http and https links open from answers.');
        return;
      }
      await vscode.env.openExternal(vscode.Uri.parse(m.url, true));
      return;
    case 'openCode': {
      const language = editorLanguage(m.language, await vscode.languages.getLanguages());
      const question = panel.conversation.find((t) => t.id === m.turnId)?.question ?? '';
      await openUntitled(codeFileName(question, language), m.code, language);
      return;
    }
    case 'insertCode': {
      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme !== 'output') ?? vscode.window.activeTextEditor;
      if (!editor) {
        s.notifier.info('Open an editor first: the code is inserted at its cursor.');
        return;
      }
      await editor.edit((b) => {
        for (const sel of editor.selections) b.replace(sel, m.code);
      });
      return;
    }
    case 'copyText':
      await vscode.env.clipboard.writeText(m.text);
      return;
    case 'copyTable':
      await vscode.env.clipboard.writeText(m.tsv);
      return;
    case 'openTableAsCsv':
    case 'exploreTable':
    case 'saveTable':
    case 'saveImage': {
      const block = panel.fileBlock(m.turnId, m.fileKey);
      if (!block) return;
      const got = await panel.files.get(block);
      if (got.status !== 'ready') {
        s.notifier.warn(got.status === 'expired' ? 'The link of that file expired and no copy was kept.' : got.message);
        return;
      }
      if (m.type === 'exploreTable') {
        if (s.connection.info.mode !== 'local') {
          s.notifier.warn(NEEDS_LOCAL_SERVICE);
          return;
        }
        await s.explorers.openTable(got.file.path, block.content.name || 'table.csv', panel.files.root);
        return;
      }
      if (m.type === 'openTableAsCsv') {
        // Under the table's own name, as an untitled document: the cached copy's generated name
        // (…/answer-files/958c1ff1….csv) means nothing to the user, and edits must not touch the cache.
        const text = await readFile(got.file.path, 'utf8');
        await openUntitled(block.content.name || 'table.csv', text, 'csv');
        return;
      }
      const filters: Record<string, string[]> = block.type === 'TABLE' ? { CSV: ['csv'] } : { Images: ['png', 'jpg', 'jpeg', 'gif', 'svg', 'webp'] };
      await saveCopy(s, got.file.path, block.content.name || (block.type === 'TABLE' ? 'table.csv' : 'image.png'), filters);
      return;
    }
    case 'revealSource': {
      const node = await s.datasets.findDataSource(m.source.datasetId, m.source.datasourceId).catch(() => undefined);
      if (!node) {
        s.notifier.info(`The data source “${m.source.source}” is not in the Datasets view (it may have been deleted).`);
        return;
      }
      await vscode.commands.executeCommand('workbench.view.extension.teamData');
      await s.datasetsView.reveal(node, { select: true, focus: true, expand: true });
      return;
    }
  }
}
