/**
 * Remembers which data source an uploaded file became, so analyzing an unchanged file again reuses
 * it instead of uploading again. A file counts as unchanged when its size and content hash match;
 * size + mtime decide quickly, the hash settles it when the mtime moved (a touch, a checkout).
 * Before reuse the data source is checked on the service: deleted or failed ones are forgotten.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type * as vscode from 'vscode';
import { putRecent } from '../recentState';

export interface FileFingerprint {
  size: number;
  mtimeMs: number;
  sha256: string;
}

interface Entry extends FileFingerprint {
  dataSourceId: string;
}

const STATE_KEY = 'teamData.uploadedFiles';
/** Bounded so the memento never grows without limit; the oldest entries go first. */
const MAX_ENTRIES = 500;

/** Streams the file through SHA-256 (constant memory, any size); abortable. */
export async function hashFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  const stream = createReadStream(path, signal ? { signal } : {});
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function fingerprint(path: string, signal?: AbortSignal): Promise<FileFingerprint> {
  const info = await stat(path);
  return { size: info.size, mtimeMs: info.mtimeMs, sha256: await hashFile(path, signal) };
}

export class FileReuseCache {
  constructor(private readonly memento: vscode.Memento) {}

  private all(): Record<string, Entry> {
    const raw = this.memento.get<unknown>(STATE_KEY);
    return raw && typeof raw === 'object' ? (raw as Record<string, Entry>) : {};
  }

  private static key(scope: string, datasetId: string, path: string): string {
    return JSON.stringify([scope, datasetId, path]);
  }

  /**
   * The remembered data source id when the file at `path` is unchanged since it was uploaded to
   * `datasetId` under `scope` (the service identity), else undefined.
   */
  async lookup(scope: string, datasetId: string, path: string, signal?: AbortSignal): Promise<string | undefined> {
    const entry = this.all()[FileReuseCache.key(scope, datasetId, path)];
    if (!entry || typeof entry.dataSourceId !== 'string') return undefined;
    const info = await stat(path).catch(() => undefined);
    if (!info || info.size !== entry.size) return undefined;
    if (info.mtimeMs === entry.mtimeMs) return entry.dataSourceId;
    const sha = await hashFile(path, signal);
    if (sha !== entry.sha256) return undefined;
    // Same bytes, newer mtime: refresh the entry so the next lookup is quick again.
    await this.remember(scope, datasetId, path, { size: info.size, mtimeMs: info.mtimeMs, sha256: sha }, entry.dataSourceId);
    return entry.dataSourceId;
  }

  async remember(scope: string, datasetId: string, path: string, fp: FileFingerprint, dataSourceId: string): Promise<void> {
    await putRecent(this.memento, STATE_KEY, this.all(), FileReuseCache.key(scope, datasetId, path), { ...fp, dataSourceId }, MAX_ENTRIES);
  }

  async forget(scope: string, datasetId: string, path: string): Promise<void> {
    const all = this.all();
    delete all[FileReuseCache.key(scope, datasetId, path)];
    await this.memento.update(STATE_KEY, all);
  }

  /** Forgets every file that became `dataSourceId` (after the data source was deleted). */
  async forgetDataSource(dataSourceId: string): Promise<void> {
    const all = this.all();
    let changed = false;
    for (const [k, v] of Object.entries(all)) {
      if (v.dataSourceId === dataSourceId) {
        delete all[k];
        changed = true;
      }
    }
    if (changed) await this.memento.update(STATE_KEY, all);
  }
}
