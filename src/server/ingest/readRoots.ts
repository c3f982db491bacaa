/**
 * Files read in place. The service reads a file where it is only when it lies under one of the
 * folders it was started with (the extension passes its workspace folders, see `team-data serve
 * --read-root`): the API key lets a caller ask for analyses, but naming a path must never let a
 * caller read anything else on the machine. Paths are compared after resolving symlinks, so a link
 * inside a workspace folder that points elsewhere is refused too.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import type { FileStamp } from '../state/records';

/** The roots as real paths; folders that do not exist are left out (they cannot hold files). */
export async function resolveRoots(dirs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const d of dirs) {
    try {
      const real = await realpath(resolve(d));
      if ((await stat(real)).isDirectory() && !out.includes(real)) out.push(real);
    } catch {
      // A workspace folder that is gone: nothing under it can be read anyway.
    }
  }
  return out;
}

/** Whether `real` (already resolved) lies strictly inside one of `roots`. */
export function underRoots(real: string, roots: readonly string[]): boolean {
  return roots.some((r) => real.startsWith(r.endsWith(sep) ? r : r + sep));
}

/** Whether the folder `dir` is one of `roots` or lies inside one. */
export function atOrUnderRoots(dir: string, roots: readonly string[]): boolean {
  return roots.includes(dir) || underRoots(dir, roots);
}

/** Why a path cannot be read in place, in words for the caller; undefined when it can. */
export type PathCheck = { ok: true; real: string; stamp: FileStamp } | { ok: false; reason: string; missing?: boolean };

/** Resolves `path` and checks that it is a regular file under `roots`. */
export async function checkInPlacePath(path: string, roots: readonly string[]): Promise<PathCheck> {
  if (roots.length === 0) {
    return { ok: false, reason: 'this service reads no files in place (it was started without --read-root); upload the file instead' };
  }
  if (!isAbsolute(path)) return { ok: false, reason: 'must be an absolute path' };
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, reason: `${path} does not exist (was it moved or deleted?)`, missing: true };
  }
  if (!underRoots(real, roots)) {
    const via = real === resolve(path) ? '' : ` (it leads to ${real})`;
    return { ok: false, reason: `${path} is outside the folders this service may read${via}; only files in the workspace folders can be read in place` };
  }
  const st = await stat(real).catch(() => undefined);
  if (st === undefined) return { ok: false, reason: `${path} does not exist (was it moved or deleted?)`, missing: true };
  if (!st.isFile()) return { ok: false, reason: `${path} is not a file` };
  return { ok: true, real, stamp: { size: st.size, mtimeMs: st.mtimeMs } };
}

/** Whether the file changed since it was read (size or modification time differ). */
export function stampChanged(seen: FileStamp | undefined, now: FileStamp): boolean {
  return seen === undefined || seen.size !== now.size || seen.mtimeMs !== now.mtimeMs;
}
