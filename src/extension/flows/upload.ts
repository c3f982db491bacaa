/**
 * Adds files to a dataset: reuse of unchanged files, streamed upload from disk (never through
 * `openTextDocument`, so a 2 GB CSV works), data source creation and waiting until processed,
 * all under one cancellable progress notification.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { isTeamDataError, type TeamDataClient, type WaitOptions } from '../../api/index';
import { formatBytes } from '../../shared/byteSize';
import { ErrorCode } from '../../shared/errorCodes';
import { SUPPORTED_EXTENSIONS, type DataSource, type Dataset } from '../../shared/domain';
import { fileExtension } from '../../shared/fileNames';
import { readFraction, readingText } from '../../shared/sourceActivity';
import { LOCAL_POLL } from '../../shared/analyzeDefaults';
import type { Services } from '../services';
import { convertForUpload, needsConversion, type ConvertedFile } from './csvConversion';
import { fingerprint } from './fileReuse';
import { createInPlace, existingInPlace, inPlacePath } from './inPlace';
import { createSourceUndoable } from './sourceCreation';

export interface FileOutcome {
  file: vscode.Uri;
  dataSource?: DataSource;
  /** True when an earlier upload of the unchanged file was reused. */
  reused?: boolean;
  error?: unknown;
}

/** File URIs the service accepts, from an Explorer/editor command's `(uri, uris)` arguments. */
export function supportedFiles(uris: readonly vscode.Uri[]): { files: vscode.Uri[]; skipped: vscode.Uri[] } {
  const files: vscode.Uri[] = [];
  const skipped: vscode.Uri[] = [];
  const seen = new Set<string>();
  for (const u of uris) {
    if (seen.has(u.toString())) continue;
    seen.add(u.toString());
    const ok = u.scheme === 'file' && (SUPPORTED_EXTENSIONS as readonly string[]).includes(fileExtension(u.fsPath));
    (ok ? files : skipped).push(u);
  }
  return { files, skipped };
}

export const SUPPORTED_FILTER: Record<string, string[]> = {
  'Data files': SUPPORTED_EXTENSIONS.map((e) => e.slice(1)),
};

/** A remembered data source that still exists and is not failed, waited for if still processing. */
async function reusable(s: Services, client: TeamDataClient, dataset: Dataset, file: vscode.Uri, signal: AbortSignal): Promise<DataSource | undefined> {
  const scope = s.connection.identity();
  const id = await s.reuse.lookup(scope, dataset.id, file.fsPath, signal).catch(() => undefined);
  if (!id) return undefined;
  try {
    const ds = await client.dataSources.get(dataset.id, id, { signal });
    if (ds.status === 'synched') return ds;
    if (ds.status === 'synching' || (ds.status === 'invalid' && !ds.error)) return ds;
  } catch (err) {
    if (!isTeamDataError(err) || err.code !== ErrorCode.NOT_FOUND) throw err;
  }
  await s.reuse.forget(scope, dataset.id, file.fsPath);
  return undefined;
}

/**
 * Uploads `files` into `dataset` and waits until each is processed. Failures of single files are
 * collected, not thrown, so one bad file does not lose the others; cancelling stops everything.
 */
export async function addFilesToDataset(s: Services, client: TeamDataClient, dataset: Dataset, files: readonly vscode.Uri[]): Promise<FileOutcome[]> {
  const scope = s.connection.identity();
  const title = files.length === 1 ? `Adding ${basename(files[0]?.fsPath ?? '')} to “${dataset.name}”` : `Adding ${files.length} files to “${dataset.name}”`;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (progress, token) => {
    const ac = new AbortController();
    const sub = token.onCancellationRequested(() => ac.abort());
    const outcomes: FileOutcome[] = [];
    // Progress is shared across files by bytes, so one big file dominates as it should.
    const sizes = await Promise.all(files.map((f) => vscode.workspace.fs.stat(f).then((st) => st.size, () => 0)));
    const totalBytes = Math.max(1, sizes.reduce((a, b) => a + b, 0));
    let reported = 0;
    const advanceTo = (fraction: number, message: string): void => {
      const target = Math.min(100, Math.max(reported, fraction * 100));
      progress.report({ increment: target - reported, message });
      reported = target;
    };
    let doneBytes = 0;
    try {
      for (const [i, file] of files.entries()) {
        const name = basename(file.fsPath);
        const size = sizes[i] ?? 0;
        if (ac.signal.aborted) break;
        try {
          advanceTo(doneBytes / totalBytes, `${name}: checking…`);
          let ds = await reusable(s, client, dataset, file, ac.signal);
          const reused = ds !== undefined;
          const placed = ds === undefined ? inPlacePath(s, file) : undefined;
          const local = s.connection.info.mode === 'local';
          const waitStatus = {
            intervalMs: local ? LOCAL_POLL.intervalMs : 500,
            maxIntervalMs: local ? LOCAL_POLL.maxIntervalMs : 1000,
            // A file read in place sends no bytes: its share of the bar moves with the service's read.
            onStatus: (x: DataSource) => advanceTo((doneBytes + size * (placed !== undefined ? readFraction(x) ?? 0 : 1)) / totalBytes, `${name}: ${readingText(x) ?? (x.status === 'synching' ? 'processing…' : 'waiting to be processed…')}`),
          };
          const forgetIfInvalid = async (err: unknown): Promise<never> => {
            if (isTeamDataError(err) && err.code === 'DATASOURCE_INVALID') await s.reuse.forget(scope, dataset.id, file.fsPath);
            throw err;
          };
          if (placed !== undefined) ds = await existingInPlace(client, dataset.id, placed, ac.signal);
          if (placed !== undefined && ds !== undefined) {
            s.log.info(`Reusing data source ${ds.id}, which reads ${name} in place`);
            if (ds.status !== 'synched') ds = await client.dataSources.waitUntilSynched(dataset.id, ds.id, { signal: ac.signal, ...waitStatus });
          } else if (placed !== undefined) {
            // Read where it is: nothing to upload; the service re-reads it whenever it changes.
            // Not fingerprinted for reuse (a hash would read a large file once more): the source is
            // found again by its path (existingInPlace).
            advanceTo(doneBytes / totalBytes, `${name}: reading in place…`);
            const created = await createInPlace(client, dataset.id, name, placed);
            if (created !== undefined) {
              s.log.info(`Added ${name} to dataset ${dataset.id} in place (no upload) as data source ${created.id}`);
              void s.datasets.refreshDataset(dataset.id);
              ds = created.status === 'synched' ? created : await waitOrRemove(client, dataset.id, created, ac.signal, waitStatus).catch(forgetIfInvalid);
            } else {
              s.log.info(`The local service does not read ${name} in place (outside its folders); uploading it`);
            }
          }
          if (!ds) {
            const fp = await fingerprint(file.fsPath, ac.signal);
            // A hosted service refuses Parquet, JSON Lines and gzip: the user agreed to send a CSV (csvConversion.ts).
            let converted: ConvertedFile | undefined;
            if (needsConversion(s, file)) {
              advanceTo(doneBytes / totalBytes, `${name}: checking before converting to CSV…`);
              converted = await convertForUpload(s, file, ac.signal, (f) => {
                if (f !== undefined) advanceTo(doneBytes / totalBytes, `${name}: converting to CSV ${Math.floor(f * 100)}%`);
              });
            }
            const sentName = converted?.name ?? name;
            let fileKey: string;
            try {
              ({ fileKey } = await client.files.upload(converted?.path ?? file.fsPath, {
                signal: ac.signal,
                fileName: sentName,
                onProgress: (sent, total) => {
                  const pct = total > 0 ? Math.floor((sent / total) * 100) : 100;
                  // A converted CSV's size is not the file's: progress stays within this file's share.
                  advanceTo((doneBytes + (size * sent) / Math.max(1, total)) / totalBytes, `${sentName}: uploading ${pct}% (${formatBytes(sent)} of ${formatBytes(total)})`);
                },
              }));
            } finally {
              await converted?.dispose();
            }
            advanceTo((doneBytes + size) / totalBytes, `${sentName}: processing…`);
            // A cancel from here on removes the new data source again (sourceCreation.ts).
            ds = await createSourceUndoable(client, dataset.id, { name: sentName, fileName: sentName, fileKey }, {
              signal: ac.signal,
              wait: waitStatus,
              onCreated: async (created) => {
                s.log.info(`Uploaded ${name} to dataset ${dataset.id} as data source ${created.id}`);
                await s.reuse.remember(scope, dataset.id, file.fsPath, fp, created.id);
                void s.datasets.refreshDataset(dataset.id);
              },
              onRemoved: async (created) => {
                s.log.info(`Cancelled: removed data source ${created.id} (${name}) again`);
                await s.reuse.forget(scope, dataset.id, file.fsPath);
              },
            }).catch(forgetIfInvalid);
          } else {
            s.log.info(`Reusing data source ${ds.id} for unchanged ${name}`);
            void s.datasets.refreshDataset(dataset.id);
            if (ds.status !== 'synched') {
              advanceTo((doneBytes + size) / totalBytes, `${name}: processing…`);
              ds = await client.dataSources.waitUntilSynched(dataset.id, ds.id, { signal: ac.signal, ...waitStatus }).catch(forgetIfInvalid);
            }
          }
          outcomes.push({ file, dataSource: ds, reused });
        } catch (err) {
          outcomes.push({ file, error: err });
          if (ac.signal.aborted) break;
        }
        doneBytes += size;
        advanceTo(doneBytes / totalBytes, `${name}: ready`);
      }
    } finally {
      sub.dispose();
      void s.datasets.refreshDataset(dataset.id);
    }
    return outcomes;
  });
}

/** Waits for an in-place source; a cancel removes it again (as for uploads, see sourceCreation.ts). */
async function waitOrRemove(client: TeamDataClient, datasetId: string, created: DataSource, signal: AbortSignal, wait: Omit<WaitOptions, 'signal'>): Promise<DataSource> {
  try {
    return await client.dataSources.waitUntilSynched(datasetId, created.id, { ...wait, signal });
  } catch (err) {
    if (signal.aborted) await client.dataSources.delete(datasetId, created.id).catch(() => undefined);
    throw err;
  }
}

/** Reports the files that failed (one notification for all), returns the ones that worked. */
export function reportOutcomes(s: Services, outcomes: readonly FileOutcome[]): DataSource[] {
  const ok: DataSource[] = [];
  for (const o of outcomes) {
    if (o.dataSource) ok.push(o.dataSource);
    else if (o.error !== undefined) s.notifier.failure(`add ${basename(o.file.fsPath)}`, o.error);
  }
  return ok;
}
