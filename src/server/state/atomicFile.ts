/**
 * Crash-safe file writes. Metadata must stay readable after a `kill -9` at any instant, so a file
 * is never rewritten in place: the new content goes to a temp file in the same directory, is
 * fsynced, then renamed over the old one (rename is atomic within a filesystem), and the
 * directory is fsynced so the rename itself survives a power cut.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP_SUFFIX = '.tmp';

async function fsyncDir(dir: string): Promise<void> {
  // Directories cannot be opened for fsync on Windows; there the rename is as durable as it gets.
  if (process.platform === 'win32') return;
  const h = await open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Writes `data` to `path` atomically (temp file, fsync, rename, fsync directory). */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
  const h = await open(tmp, 'w', 0o600);
  try {
    await h.writeFile(data);
    await h.sync();
  } catch (e) {
    await h.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await h.close();
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
  await fsyncDir(dir);
}

/** Removes temp files a crash left behind in `dir` (they are never the live copy). */
export async function removeStaleTempFiles(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(
    names.filter((n) => n.startsWith('.') && n.endsWith(TEMP_SUFFIX)).map((n) => unlink(join(dir, n)).catch(() => undefined)),
  );
}
