/**
 * Files a crash can leave behind: partial uploads and downloads, and published answer files whose
 * metadata write never happened. Nothing can reach them, so removing them at start is safe and
 * keeps the data dir from growing with debris.
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
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
  // Published answer files: the content is written before its `.json` meta, so a crash in
  // between leaves content no link can reach (and a meta without content is as useless).
  const files = new Set(await names(paths.filesDir));
  for (const n of files) {
    const orphan = n.endsWith('.json') ? !files.has(n.slice(0, -'.json'.length)) : !files.has(`${n}.json`);
    if (orphan) await unlink(join(paths.filesDir, n)).catch(() => undefined);
  }
}
