/**
 * Files a crash can leave behind: partial uploads and downloads, temp files of atomic writes, and
 * stored files whose metadata write never happened. None of them is referenced by the metadata,
 * so removing them at start is safe and keeps the data dir from growing with debris.
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { removeStaleTempFiles } from './atomicFile';
import type { DataPaths } from './dataPaths';
import type { MetaStore } from './metaStore';

async function names(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}

export async function removeLeftovers(paths: DataPaths, meta: MetaStore): Promise<void> {
  const keepUploads = new Set([...meta.uploads.values()].map((u) => u.storedName));
  for (const n of await names(paths.uploadsDir)) {
    if (!keepUploads.has(n)) await unlink(join(paths.uploadsDir, n)).catch(() => undefined);
  }
  for (const n of await names(paths.sourcesDir)) {
    const id = n.split('.')[0] ?? '';
    if (n.endsWith('.part') || !meta.sources.has(id)) await unlink(join(paths.sourcesDir, n)).catch(() => undefined);
  }
  await removeStaleTempFiles(paths.filesDir);
}
