/**
 * The explorer toolbar's actions on the host (issue 27): Copy as SQL (the view's DuckDB SQL as an
 * untitled `sql` document), Export CSV / Parquet (a save dialog, then the service's export with
 * cancellable progress; the service writes a hidden temporary file and renames it only once
 * complete, so a cancelled or failed export leaves nothing), and Ask about this view (the question
 * goes to the answer panel with the view's filters appended in the engine's own words, so the
 * answer is about the rows the view shows and its reading line says which).
 */
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { ExploreCallError } from '../../api/exploreClient';
import type { Answer } from '../../shared/domain';
import type { ExploreQuery } from '../../shared/explore';
import type { ExplorerAction } from '../../shared/explorerProtocol';
import { filterWords, questionWithFilters } from '../../shared/exploreWords';
import { addFilesFlow, askQuestionInput } from '../flows/analyze';
import { createSession } from '../flows/sessionHelpers';
import { openUntitled } from '../panel/panelActions';
import type { Services } from '../services';
import type { ExplorerSession } from './explorerSession';
import { exploreClient, originKey } from './explorerTypes';
import { putRecent } from '../recentState';

export interface AskViewResult {
  sessionId: string;
  question: string;
  answer: Answer;
}

const SESSIONS_KEY = 'teamData.explorerSessions';
const PROGRESS_POLL_MS = 400;
/** How many times a cancel is asked for while the export has not reached the service yet (every PROGRESS_POLL_MS). */
const CANCEL_TRIES = 25;

export async function runExplorerAction(s: Services, x: ExplorerSession, action: ExplorerAction, query: ExploreQuery): Promise<unknown> {
  try {
    switch (action) {
      case 'copySql':
        return await copySql(s, x, query);
      case 'exportCsv':
        return await exportView(s, x, query, 'csv');
      case 'exportParquet':
        return await exportView(s, x, query, 'parquet');
      case 'ask':
        return await askAboutView(s, x, query);
    }
  } catch (err) {
    s.notifier.failure(action === 'ask' ? `ask about ${x.name}` : action === 'copySql' ? 'copy the view as SQL' : `export ${x.name}`, err);
    return undefined;
  }
}

function stem(name: string): string {
  return name.replace(/(\.(csv|tsv|parquet|jsonl|ndjson|xlsx|json))?(\.gz)?$/i, '') || 'view';
}

export async function copySql(s: Services, x: ExplorerSession, query: ExploreQuery): Promise<vscode.TextEditor | undefined> {
  const view = x.viewId;
  if (view === undefined) return undefined;
  const sql = await (await exploreClient(s)).sql(view, query);
  return openUntitled(`${stem(x.name)}.sql`, sql, 'sql');
}

/** Where the save dialog starts: beside the file, else in the first workspace folder. */
function defaultTarget(x: ExplorerSession, file: string): vscode.Uri | undefined {
  if (x.origin.kind === 'file' && x.origin.uri.scheme === 'file') return vscode.Uri.file(join(dirname(x.origin.uri.fsPath), file));
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder ? vscode.Uri.joinPath(folder, file) : undefined;
}

/**
 * Exports the view where the save dialog says, with progress; the progress's Cancel (or `cancel`,
 * another token that means the same, for callers without a notification to click) stops it.
 */
export async function exportView(s: Services, x: ExplorerSession, query: ExploreQuery, format: 'csv' | 'parquet', cancel?: vscode.CancellationToken): Promise<{ rows: number; path: string } | undefined> {
  const view = x.viewId;
  if (view === undefined) return undefined;
  const suggested = `${stem(x.name)}${x.current?.sheet ? `-${x.current.sheet}` : ''}${query.filters.length > 0 ? '-filtered' : ''}.${format}`;
  const defaultUri = defaultTarget(x, suggested);
  const target = await s.prompts.saveFile({
    title: `Export the view of ${x.name} as ${format === 'csv' ? 'CSV' : 'Parquet'}`,
    ...(defaultUri ? { defaultUri } : {}),
    filters: format === 'csv' ? { CSV: ['csv'] } : { Parquet: ['parquet'] },
    saveLabel: 'Export',
  });
  if (!target) return undefined;
  if (target.scheme !== 'file') {
    s.notifier.warn('The view can be exported only to a file on this machine, in a workspace folder.');
    return undefined;
  }
  const c = await exploreClient(s);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Exporting ${x.name} to ${basename(target.fsPath)}`, cancellable: true },
    async (progress, token) => {
      let cancelled = false;
      let settled = false;
      const stop = (): void => {
        if (cancelled) return;
        cancelled = true;
        // A cancel that reaches the service before the export has started there finds nothing to
        // stop: ask again while the export is still on its way.
        void (async () => {
          for (let i = 0; i < CANCEL_TRIES && !settled; i++) {
            if (await c.cancelExport(view).catch(() => false)) return;
            await new Promise((r) => setTimeout(r, PROGRESS_POLL_MS));
          }
        })();
      };
      const tokens = [token, ...(cancel ? [cancel] : [])];
      const subs = tokens.map((t) => t.onCancellationRequested(stop));
      if (tokens.some((t) => t.isCancellationRequested)) stop();
      let shown = 0;
      const timer = setInterval(() => {
        void c.status(view).then((st) => {
          const f = st.export?.fraction;
          if (f === undefined || f * 100 <= shown) return;
          progress.report({ increment: f * 100 - shown, message: `${Math.round(f * 100)}%` });
          shown = f * 100;
        }, () => undefined);
      }, PROGRESS_POLL_MS);
      try {
        const done = await c.export(view, query, format, target.fsPath);
        s.notifier.info(`Exported ${done.rows.toLocaleString('en-US')} rows of ${x.name} to ${target.fsPath}.`);
        return done;
      } catch (err) {
        if (cancelled || (err instanceof ExploreCallError && err.status === 409 && /cancelled/.test(err.message))) {
          s.notifier.info(`The export of ${x.name} was cancelled; nothing was written.`);
          return undefined;
        }
        throw err;
      } finally {
        settled = true;
        clearInterval(timer);
        for (const d of subs) d.dispose();
      }
    },
  );
}

/**
 * Asks a question about the view: the filters the grammar can state go with it in its words; any
 * it cannot state are named first, and the question is asked without them only if the user says so.
 */
export async function askAboutView(s: Services, x: ExplorerSession, query: ExploreQuery): Promise<AskViewResult | undefined> {
  const opened = x.current;
  if (opened === undefined) return undefined;
  const { words, unstated } = filterWords(query.filters, opened.columns);
  if (unstated.length > 0) {
    const go = await s.prompts.choose(
      `A question cannot carry ${unstated.length === 1 ? 'this filter of the view' : 'these filters of the view'}: ${unstated.join('; ')}.`,
      ['Ask Without Them'] as const,
      { modal: true, detail: words === '' ? 'The answer would be about all rows of the file.' : `The answer would be about the rows ${words}, without ${unstated.length === 1 ? 'it' : 'them'}.` },
    );
    if (go !== 'Ask Without Them') return undefined;
  }
  const typed = await askQuestionInput(s, '', words === '' ? `Ask about ${x.name}` : `Ask about ${x.name}, ${words}`);
  if (typed === undefined || typed.trim() === '') return undefined;
  const question = questionWithFilters(typed, words);
  const client = await s.connection.client();
  let scope: { datasetId: string; datasourceIdList: string[] };
  if (x.origin.kind === 'source') scope = { datasetId: x.origin.datasetId, datasourceIdList: [x.origin.datasourceId] };
  else {
    const uri = x.origin.kind === 'file' ? x.origin.uri : vscode.Uri.file(x.origin.path);
    const added = await addFilesFlow(s, client, [uri]);
    if (!added) return undefined;
    scope = { datasetId: added.dataset.id, datasourceIdList: added.ids };
  }
  const sessionId = await sessionFor(s, x, scope);
  const answer = await s.panels.ask(sessionId, question, scope);
  return { sessionId, question, answer };
}

/** The session questions about this view go to: the one used before, while it exists. */
async function sessionFor(s: Services, x: ExplorerSession, scope: { datasetId: string; datasourceIdList: string[] }): Promise<string> {
  const client = await s.connection.client();
  const key = `${s.connection.identity()}|${originKey(x.origin)}|${scope.datasetId}|${scope.datasourceIdList.join(',')}`;
  const known = s.context.workspaceState.get<Record<string, string>>(SESSIONS_KEY)?.[key];
  if (known !== undefined) {
    const alive = await client.sessions.get(known).then(() => true, () => false);
    if (alive) return known;
  }
  const id = await createSession(s, client, `Explore ${x.name}`);
  s.sessions.refresh();
  const state = s.context.workspaceState;
  await putRecent(state, SESSIONS_KEY, state.get<Record<string, string>>(SESSIONS_KEY) ?? {}, key, id, 200);
  return id;
}
