/**
 * Which files the local service reads in place instead of receiving an upload: CSV, TSV (gzip too)
 * and Parquet files on the local disk, inside a workspace folder the running service was started
 * with (supervisor.ts passes the workspace folders as its read roots). Anything else (a hosted
 * service, a virtual or remote file system, a file outside the workspace) is uploaded as before.
 */
import { relative, isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import { isTeamDataError, type TeamDataClient } from '../../api/index';
import { IN_PLACE_EXTENSIONS, type DataSource } from '../../shared/domain';
import { ErrorCode } from '../../shared/errorCodes';
import { fileExtension } from '../../shared/fileNames';
import type { Services } from '../services';

/** The workspace folders, as paths, that the local service may read files in place from. */
export function workspaceReadRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** The path to hand the service for `file`, or undefined when the file must be uploaded. */
export function inPlacePath(s: Services, file: vscode.Uri): string | undefined {
  if (s.connection.info.mode !== 'local' || file.scheme !== 'file') return undefined;
  if (!(IN_PLACE_EXTENSIONS as readonly string[]).includes(fileExtension(file.fsPath))) return undefined;
  return s.supervisor.readRoots.some((r) => inside(file.fsPath, r)) ? file.fsPath : undefined;
}

/**
 * A source of the dataset that already reads `path` in place. It follows the file's edits itself,
 * so adding the same file again (edited or not) reuses it rather than adding a second one.
 */
export async function existingInPlace(client: TeamDataClient, datasetId: string, path: string, signal: AbortSignal): Promise<DataSource | undefined> {
  for await (const ds of client.dataSources.iterate(datasetId, {}, { signal })) {
    if (ds.path === path && !(ds.status === 'invalid' && ds.error !== undefined)) return ds;
  }
  return undefined;
}

/**
 * Creates the in-place source, or returns undefined when the service refuses the path (the roots
 * changed since it started, a symlink leads outside): the caller then uploads the file instead.
 */
export async function createInPlace(client: TeamDataClient, datasetId: string, name: string, path: string): Promise<DataSource | undefined> {
  try {
    return await client.dataSources.create(datasetId, { name, fileName: name, path });
  } catch (err) {
    if (isTeamDataError(err) && err.code === ErrorCode.INVALID_PARAMS) return undefined;
    throw err;
  }
}

/** Time for the service to notice an edit (it polls each file's stat every second) before the tree looks. */
const NOTICE_DELAY_MS = 1_500;

/**
 * Refreshes the tree's datasets whose in-place file was saved or deleted, so the source shows
 * "changed, re-reading…" (or the reason it failed) without the user pressing Refresh.
 */
export function watchInPlaceFiles(s: Services): vscode.Disposable {
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{csv,tsv,parquet,gz}');
  const timers = new Map<string, NodeJS.Timeout>();
  const changed = (uri: vscode.Uri): void => {
    if (s.connection.info.mode !== 'local' || uri.scheme !== 'file') return;
    const datasets = s.datasets.datasetsReading(uri.fsPath);
    if (datasets.length === 0) return;
    clearTimeout(timers.get(uri.fsPath));
    timers.set(uri.fsPath, setTimeout(() => {
      timers.delete(uri.fsPath);
      for (const id of datasets) void s.datasets.refreshDataset(id);
    }, NOTICE_DELAY_MS));
  };
  return vscode.Disposable.from(
    watcher,
    watcher.onDidChange(changed),
    watcher.onDidCreate(changed),
    watcher.onDidDelete(changed),
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
  );
}
