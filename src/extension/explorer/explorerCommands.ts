/**
 * The commands that open the Team Data Explorer (issue 27): on a file (the Explorer's context
 * menu, an editor's title, or the palette with the active file) and on a data source in the
 * Datasets tree. Answer tables open from the answer panel's table actions (panelActions.ts).
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { EXPLORE_FILE_PATTERN } from '../../shared/fileNames';
import type { Services } from '../services';
import type { DataSourceNode } from '../trees/nodes';
import type { ExplorerSession } from './explorerSession';
import { NEEDS_LOCAL_SERVICE } from './explorerTypes';

function explorable(uri: vscode.Uri): boolean {
  return EXPLORE_FILE_PATTERN.test(basename(uri.path));
}

export async function openInExplorer(s: Services, uri: unknown): Promise<ExplorerSession | undefined> {
  let file = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  if (file === undefined || !explorable(file)) {
    const picked = await s.prompts.openFiles({ title: 'Open which data file in the Team Data Explorer?', filters: { 'Data files': ['csv', 'tsv', 'parquet', 'jsonl', 'ndjson', 'xlsx', 'gz'] }, canSelectMany: false });
    file = picked?.[0];
    if (file === undefined) return undefined;
  }
  if (!explorable(file)) {
    s.notifier.warn(`${basename(file.path)} cannot be opened in the Team Data Explorer: it shows CSV, TSV, Parquet, JSON Lines and Excel files (and their .gz forms).`);
    return undefined;
  }
  if (s.connection.info.mode !== 'local') {
    s.notifier.warn(NEEDS_LOCAL_SERVICE);
    return undefined;
  }
  return s.explorers.openFile(file);
}

export function exploreDataSource(s: Services, node: unknown): ExplorerSession | undefined {
  if (typeof node !== 'object' || node === null || (node as { kind?: unknown }).kind !== 'dataSource') return undefined;
  const ds = (node as DataSourceNode).dataSource;
  if (s.connection.info.mode !== 'local') {
    s.notifier.warn(NEEDS_LOCAL_SERVICE);
    return undefined;
  }
  if (ds.status !== 'synched') {
    s.notifier.info(`“${ds.name || ds.fileName}” is not ready yet: open it once the Datasets view shows it ready.`);
    return undefined;
  }
  return s.explorers.openSource(ds.id, ds.datasetId, ds.fileName || ds.name);
}
