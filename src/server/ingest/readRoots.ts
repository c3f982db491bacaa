/**
 * Files read in place. The service reads a file where it is only when it lies under one of the
 * folders it was started with (the extension passes its workspace folders, see `team-data serve
 * --read-root`): the API key lets a caller ask for analyses, but naming a path must never let a
 * caller read anything else on the machine. Paths are compared after resolving symlinks, so a link
 * inside a workspace folder that points elsewhere is refused too.
 */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
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

/** How many symlinks {@link wouldBeReal} follows before it gives up (Linux's own limit is 40). */
const MAX_LINKS = 40;

/**
 * Where `path` would lead if it existed: the real path of its deepest existing ancestor with the
 * rest appended, following dangling links by hand. Only used to tell whether a path that cannot be
 * resolved lies inside the roots, so that "does not exist" is said of paths inside them only (said
 * of a path outside, it would tell a caller what exists there). Components are taken as written,
 * not normalized first: `root/link/../x` goes where the file system takes it, not to `root/x`.
 */
async function wouldBeReal(path: string, links = { left: MAX_LINKS }): Promise<string | undefined> {
  const real = await realpath(path).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = dirname(path);
  if (parent === path) return undefined;
  const name = basename(path);
  const realParent = await wouldBeReal(parent, links);
  if (realParent === undefined) return undefined;
  const here = join(realParent, name);
  const info = await lstat(here).catch(() => undefined);
  if (!info?.isSymbolicLink()) return here;
  if (--links.left < 0) return undefined;
  const target = await readlink(here).catch(() => undefined);
  if (target === undefined) return undefined;
  return wouldBeReal(isAbsolute(target) ? target : `${realParent}${sep}${target}`, links);
}

export interface InPlaceRules {
  /**
   * Read files that have other hard links too. Off by default: a hard link inside a root to a file
   * outside it looks like any other file there (it is the same inode), and no path check can tell.
   */
  hardLinks?: boolean;
}

/**
 * Resolves `path` and checks that it is a regular file under `roots`. A path outside the roots gets
 * one answer whatever is there (a file, nothing, a link and wherever it leads): the check must not
 * become a way to explore the rest of the machine.
 */
export async function checkInPlacePath(path: string, roots: readonly string[], rules: InPlaceRules = {}): Promise<PathCheck> {
  if (roots.length === 0) {
    return { ok: false, reason: 'this service reads no files in place (it was started without --read-root); upload the file instead' };
  }
  if (!isAbsolute(path)) return { ok: false, reason: 'must be an absolute path' };
  const outside: PathCheck = { ok: false, reason: `${path} is outside the folders this service may read; only files in the workspace folders can be read in place` };
  const missing: PathCheck = { ok: false, reason: `${path} does not exist (was it moved or deleted?)`, missing: true };
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) {
    const would = await wouldBeReal(path);
    return would !== undefined && underRoots(would, roots) ? missing : outside;
  }
  if (!underRoots(real, roots)) return outside;
  const st = await stat(real).catch(() => undefined);
  if (st === undefined) return missing;
  if (!st.isFile()) return { ok: false, reason: `${path} is not a file` };
  if (st.nlink > 1 && rules.hardLinks !== true) {
    return { ok: false, reason: `${path} has other hard links (${st.nlink - 1}), which may lie outside the workspace folders; copy the file, or upload it, or start the service with --read-hard-links (in VS Code: turn on the setting teamData.localService.readHardLinks, then restart the local service)` };
  }
  return { ok: true, real, stamp: { size: st.size, mtimeMs: st.mtimeMs } };
}

/** Whether the file changed since it was read (size or modification time differ). */
export function stampChanged(seen: FileStamp | undefined, now: FileStamp): boolean {
  return seen === undefined || seen.size !== now.size || seen.mtimeMs !== now.mtimeMs;
}
