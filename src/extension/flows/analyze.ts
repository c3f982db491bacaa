/**
 * "Analyze This File": pick or create a dataset (default: one named after the workspace folder),
 * upload (or reuse) the files, create or reuse a session, ask (pre-filled "Give me an overview of
 * this data") and stream the answer into the panel. "Add to Dataset…" is the first half.
 */
import { cutAtWord } from '../../shared/titleText';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import type { TeamDataClient } from '../../api/index';
import type { Answer, Dataset } from '../../shared/domain';
import { MAX_QUESTION_LENGTH } from '../../shared/domain';
import type { Services } from '../services';
import { pickDataset, rememberChoice, resolveDataset } from './pickers';
import { createSession } from './sessionHelpers';
import { addFilesToDataset, reportOutcomes, supportedFiles, SUPPORTED_FILTER } from './upload';

export const DEFAULT_QUESTION = 'Give me an overview of this data';

export interface AnalyzeResult {
  datasetId: string;
  dataSourceIds: string[];
  sessionId?: string;
  answer?: Answer;
}

/** The files a command was invoked on: Explorer multi-select, one URI, the active editor, or a dialog. */
export async function commandFiles(s: Services, uri: unknown, uris: unknown, dialogTitle: string): Promise<vscode.Uri[] | undefined> {
  const list = Array.isArray(uris) && uris.every((u) => u instanceof vscode.Uri) && uris.length > 0 ? (uris as vscode.Uri[]) : uri instanceof vscode.Uri ? [uri] : [];
  if (list.length === 0) {
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active && supportedFiles([active]).files.length === 1) list.push(active);
  }
  if (list.length === 0) {
    const picked = await s.prompts.openFiles({ title: dialogTitle, filters: SUPPORTED_FILTER, canSelectMany: true });
    if (!picked || picked.length === 0) return undefined;
    list.push(...picked);
  }
  const { files, skipped } = supportedFiles(list);
  if (skipped.length > 0) {
    const names = skipped.slice(0, 3).map((u) => basename(u.fsPath) || u.toString()).join(', ');
    s.notifier.warn(`Skipped ${names}${skipped.length > 3 ? ' and more' : ''}: only files on disk of these types can be analyzed: csv, tsv, xls, xlsx, json, txt, md, mdx, pdf, doc, docx, ppt, pptx.`);
  }
  return files.length > 0 ? files : undefined;
}

/** The dataset name offered by default: the workspace folder holding the first file. */
export function defaultDatasetName(file: vscode.Uri): { name: string; reason: string } {
  const folder = vscode.workspace.getWorkspaceFolder(file);
  if (folder) return { name: folder.name, reason: 'named after the workspace folder' };
  // A file outside the workspace (the sample data shipped with the extension, a file opened alone).
  const dir = basename(dirname(file.fsPath));
  return dir ? { name: dir, reason: `named after the file’s folder, ${dir}` } : { name: 'My data', reason: 'a new dataset' };
}

/** Pick/create the dataset and add the files; undefined when cancelled or nothing worked. */
export async function addFilesFlow(s: Services, client: TeamDataClient, files: vscode.Uri[], preset?: Dataset): Promise<{ dataset: Dataset; ids: string[] } | undefined> {
  let dataset = preset;
  if (!dataset) {
    const first = files[0] as vscode.Uri;
    const named = defaultDatasetName(first);
    const choice = await pickDataset(s, client, { title: files.length === 1 ? `Add ${basename(first.fsPath)} to which dataset?` : `Add ${files.length} files to which dataset?`, defaultName: named.name, defaultReason: named.reason });
    if (!choice || choice.kind === 'none') return undefined;
    dataset = await resolveDataset(s, client, choice, `Files from ${named.name}`);
  }
  const outcomes = await addFilesToDataset(s, client, dataset, files);
  const ok = reportOutcomes(s, outcomes);
  if (ok.length === 0) return undefined;
  const reused = outcomes.filter((o) => o.reused).length;
  s.log.info(`${ok.length} file(s) ready in "${dataset.name}"${reused ? ` (${reused} unchanged, reused)` : ''}`);
  return { dataset, ids: ok.map((d) => d.id) };
}

const SESSION_FOR_DATASET = 'teamData.sessionForDataset';

/** The session analyze used last for this dataset, if it still exists; else a new one. */
async function sessionFor(s: Services, client: TeamDataClient, dataset: Dataset, files: vscode.Uri[]): Promise<string> {
  const key = `${s.connection.identity()}|${dataset.id}`;
  const map = s.context.workspaceState.get<Record<string, string>>(SESSION_FOR_DATASET) ?? {};
  const known = map[key];
  if (known) {
    try {
      await client.sessions.get(known);
      return known;
    } catch {
      // Deleted meanwhile: fall through to a new session.
    }
  }
  const title = cutAtWord(`Analyze ${files.map((f) => basename(f.fsPath)).join(', ')}`, 60);
  const id = await createSession(s, client, title);
  map[key] = id;
  await s.context.workspaceState.update(SESSION_FOR_DATASET, map);
  s.sessions.refresh();
  return id;
}

export function askQuestionInput(s: Services, value: string, title: string): Promise<string | undefined> {
  return s.prompts.input({
    title,
    prompt: 'Your question about the data',
    value,
    validate: (v) => (v.trim() === '' ? 'Enter a question' : v.length > MAX_QUESTION_LENGTH ? `At most ${MAX_QUESTION_LENGTH} characters` : undefined),
  });
}

export async function analyzeFiles(s: Services, uri: unknown, uris: unknown): Promise<AnalyzeResult | undefined> {
  const files = await commandFiles(s, uri, uris, 'Analyze which files?');
  if (!files) return undefined;
  const client = await s.connection.client();
  const added = await addFilesFlow(s, client, files);
  if (!added) return undefined;
  const result: AnalyzeResult = { datasetId: added.dataset.id, dataSourceIds: added.ids };
  const sessionId = await sessionFor(s, client, added.dataset, files);
  result.sessionId = sessionId;
  await rememberChoice(s, { sessionId, datasetId: added.dataset.id, dataSourceIds: added.ids });
  const question = await askQuestionInput(s, DEFAULT_QUESTION, `Ask about ${files.length === 1 ? basename(files[0]?.fsPath ?? '') : `${files.length} files`}`);
  if (question === undefined) return result;
  result.answer = await s.panels.ask(sessionId, question.trim(), { datasetId: added.dataset.id, datasourceIdList: added.ids });
  return result;
}

export async function addToDataset(s: Services, uri: unknown, uris: unknown, preset?: Dataset): Promise<AnalyzeResult | undefined> {
  const files = await commandFiles(s, uri, uris, 'Add which files?');
  if (!files) return undefined;
  const client = await s.connection.client();
  const added = await addFilesFlow(s, client, files, preset);
  if (!added) return undefined;
  const node = await s.datasets.findDataSource(added.dataset.id, added.ids[0] ?? '').catch(() => undefined);
  if (node) void s.datasetsView.reveal(node, { expand: true, select: true }).then(undefined, () => undefined);
  return { datasetId: added.dataset.id, dataSourceIds: added.ids };
}
