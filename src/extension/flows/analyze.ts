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
import { MAX_QUESTION_LENGTH, SUPPORTED_EXTENSIONS } from '../../shared/domain';
import type { Services } from '../services';
import { pickDataset, rememberChoice, resolveDataset } from './pickers';
import { createSession } from './sessionHelpers';
import { offerConversion } from './csvConversion';
import { addFilesToDataset, reportOutcomes, supportedFiles, SUPPORTED_FILTER } from './upload';
import { DEFAULT_QUESTION, isShippedSample, SAMPLE_DATASET } from '../../shared/analyzeDefaults';
import { putRecent } from '../recentState';

export { DEFAULT_QUESTION };

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
    s.notifier.warn(`Skipped ${names}${skipped.length > 3 ? ' and more' : ''}: only files on disk of these types can be analyzed: ${SUPPORTED_EXTENSIONS.map((e) => e.slice(1)).join(', ')}.`);
  }
  return files.length > 0 ? files : undefined;
}

/**
 * The dataset name offered by default: the workspace folder holding the first file; for the
 * sample that ships with the extension, a name that says so.
 */
export function defaultDatasetName(file: vscode.Uri, extensionUri?: vscode.Uri): { name: string; reason: string } {
  if (extensionUri && file.scheme === 'file' && isShippedSample(file.fsPath, extensionUri.fsPath)) return { ...SAMPLE_DATASET };
  const folder = vscode.workspace.getWorkspaceFolder(file);
  if (folder) return { name: folder.name, reason: 'named after the workspace folder' };
  // A file outside the workspace (the sample data shipped with the extension, a file opened alone).
  const dir = basename(dirname(file.fsPath));
  return dir ? { name: dir, reason: `named after the file’s folder, ${dir}` } : { name: 'My data', reason: 'a new dataset' };
}

/** Pick/create the dataset and add the files; undefined when cancelled or nothing worked. */
export async function addFilesFlow(s: Services, client: TeamDataClient, picked: vscode.Uri[], preset?: Dataset): Promise<{ dataset: Dataset; ids: string[]; files: vscode.Uri[] } | undefined> {
  const files = await offerConversion(s, picked);
  if (files.length === 0) return undefined;
  let dataset = preset;
  if (!dataset) {
    const first = files[0] as vscode.Uri;
    const named = defaultDatasetName(first, s.context.extensionUri);
    const choice = await pickDataset(s, client, { title: files.length === 1 ? `Add ${basename(first.fsPath)} to which dataset?` : `Add ${files.length} files to which dataset?`, defaultName: named.name, defaultReason: named.reason });
    if (!choice || choice.kind === 'none') return undefined;
    dataset = await resolveDataset(s, client, choice, `Files from ${named.name}`);
  }
  const outcomes = await addFilesToDataset(s, client, dataset, files);
  const ok = reportOutcomes(s, outcomes);
  if (ok.length === 0) return undefined;
  const reused = outcomes.filter((o) => o.reused).length;
  s.log.info(`${ok.length} file(s) ready in "${dataset.name}"${reused ? ` (${reused} unchanged, reused)` : ''}`);
  return { dataset, ids: ok.map((d) => d.id), files };
}

const SESSION_FOR_FILES = 'teamData.sessionForFiles';

function filesKey(s: Services, datasetId: string, ids: readonly string[]): string {
  return `${s.connection.identity()}|${datasetId}|${[...ids].sort().join(',')}`;
}

async function rememberSessionFor(s: Services, key: string, sessionId: string): Promise<void> {
  const state = s.context.workspaceState;
  await putRecent(state, SESSION_FOR_FILES, state.get<Record<string, string>>(SESSION_FOR_FILES) ?? {}, key, sessionId, 300);
}

/** The title a session analyzing these files gets: what is in it, cut at a word. */
export function analyzeTitle(names: readonly string[]): string {
  return cutAtWord(`Analyze ${names.join(', ')}`, 60);
}

/** A title we generated ("Analyze …"), which may grow with the files; a user's own title stays. */
function isAnalyzeTitle(title: string): boolean {
  return /^Analyze \S/.test(title);
}

export interface SessionTarget {
  sessionId: string;
  /** The files the session's questions now use (more than the analyzed ones after "add"). */
  dataSourceIds: string[];
}

/**
 * The session for analyzing these files. The same files again: their session. Other files while
 * an answer panel is open: the user decides between a new session (the default) and adding them
 * to the open one. Undefined when the user cancelled.
 */
async function sessionFor(s: Services, client: TeamDataClient, dataset: Dataset, ids: string[], files: vscode.Uri[]): Promise<SessionTarget | undefined> {
  const key = filesKey(s, dataset.id, ids);
  const known = (s.context.workspaceState.get<Record<string, string>>(SESSION_FOR_FILES) ?? {})[key];
  if (known) {
    try {
      await client.sessions.get(known);
      return { sessionId: known, dataSourceIds: ids };
    } catch {
      // Deleted meanwhile: choose again.
    }
  }
  const names = files.map((f) => basename(f.fsPath));
  const title = analyzeTitle(names);
  const open = s.panels.active;
  const openScope = open?.dataScope;
  // Adding only makes sense within one dataset: a session asks about one dataset at a time.
  if (open && (openScope?.datasetId === undefined || openScope.datasetId === dataset.id)) {
    const choice = await s.prompts.pick<'new' | 'add'>(
      [
        { label: `$(add) New session “${title}”`, description: 'in its own panel', value: 'new' },
        { label: `$(comment-discussion) Add to “${open.currentTitle}”`, description: 'ask about these files in the open session too', value: 'add' },
      ],
      { title: `Analyze ${names.length === 1 ? names[0] : `${names.length} files`} in which session?`, placeHolder: 'A new session, or the open one' },
    );
    if (choice === undefined) return undefined;
    if (choice === 'add') {
      const union = [...new Set([...(openScope?.datasetId === dataset.id ? openScope.datasourceIdList ?? [] : []), ...ids])];
      await retitleWithFiles(s, client, open.sessionId, open.currentTitle, dataset.id, union);
      await rememberSessionFor(s, filesKey(s, dataset.id, union), open.sessionId);
      await rememberSessionFor(s, key, open.sessionId);
      return { sessionId: open.sessionId, dataSourceIds: union };
    }
  }
  const id = await createSession(s, client, title);
  await rememberSessionFor(s, key, id);
  s.sessions.refresh();
  return { sessionId: id, dataSourceIds: ids };
}

/** After files were added to a session we named "Analyze …", the title lists them all. */
async function retitleWithFiles(s: Services, client: TeamDataClient, sessionId: string, current: string, datasetId: string, ids: string[]): Promise<void> {
  if (!isAnalyzeTitle(current)) return;
  const byId = new Map<string, string>();
  for await (const d of client.dataSources.iterate(datasetId, { pageSize: 100 })) if (ids.includes(d.id)) byId.set(d.id, d.fileName || d.name);
  // In the order they joined the session.
  const title = analyzeTitle(ids.flatMap((id) => byId.get(id) ?? []));
  if (title === current) return;
  try {
    await client.sessions.modify(sessionId, { title });
    s.panels.get(sessionId)?.setTitle(title);
    await s.sessions.refreshSession(sessionId);
  } catch (err) {
    s.log.warn(`Could not rename the session to "${title}": ${err instanceof Error ? err.message : String(err)}`);
  }
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
  const target = await sessionFor(s, client, added.dataset, added.ids, added.files);
  if (!target) return result;
  const sessionId = target.sessionId;
  result.sessionId = sessionId;
  await rememberChoice(s, { sessionId, datasetId: added.dataset.id, dataSourceIds: target.dataSourceIds });
  const question = await askQuestionInput(s, DEFAULT_QUESTION, `Ask about ${added.files.length === 1 ? basename(added.files[0]?.fsPath ?? '') : `${added.files.length} files`}`);
  if (question === undefined) return result;
  // The session keeps all its files for follow-ups; this question is about the files just added.
  const justAdded = { datasetId: added.dataset.id, datasourceIdList: added.ids };
  const sessionScope = { datasetId: added.dataset.id, datasourceIdList: target.dataSourceIds };
  const more = target.dataSourceIds.some((id) => !added.ids.includes(id));
  result.answer = await s.panels.ask(sessionId, question.trim(), sessionScope, more ? justAdded : undefined);
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
