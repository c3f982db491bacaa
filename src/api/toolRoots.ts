/**
 * The folders an agent's tool may read files from. An agent names paths on behalf of a model,
 * which may be steered by what it reads: a path, `../` or a symlink must never take a tool out of
 * the folders its user gave it. Paths are checked as the file system resolves them (realpath),
 * and a path outside gets one answer whatever is there, so the check tells nothing about the rest
 * of the machine either.
 */
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** A path the tool may not read, in words for the model (the caller wraps it in its own error). */
export class OutsideRootsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutsideRootsError';
  }
}

/** The folders as given and as real paths (those that exist and are folders). */
export interface ToolRoots {
  /** As given (made absolute): what a relative path is resolved against, and what the model is told. */
  given: string[];
  /** Their real paths: what a resolved path must lie in. */
  real: string[];
}

/** `dirs` as roots; a folder that does not exist (or is no folder) is left out. */
export async function toolRoots(dirs: readonly string[]): Promise<ToolRoots> {
  const out: ToolRoots = { given: [], real: [] };
  for (const d of dirs) {
    const abs = resolve(d);
    const real = await realpath(abs).catch(() => undefined);
    if (real === undefined || !(await stat(real).catch(() => undefined))?.isDirectory()) continue;
    if (out.real.includes(real)) continue;
    out.given.push(abs);
    out.real.push(real);
  }
  return out;
}

/** Whether `path` is `root` or lies inside it (both absolute and normalized). */
export function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Where `path` would lead if it existed: the real path of its deepest existing ancestor with the
 * rest appended, dangling links followed by hand (at most 40). Used only to tell whether a missing
 * path lies inside the roots, so that "no such file" is never said of a place outside them (a
 * link inside to a missing file outside would otherwise tell what is missing there). The local
 * service has the same rule for its read roots (server/ingest/readRoots.ts; the layers share no code).
 */
async function wouldBeReal(path: string, links = { left: 40 }): Promise<string | undefined> {
  const real = await realpath(path).catch(() => undefined);
  if (real !== undefined) return real;
  const parent = dirname(path);
  if (parent === path) return undefined;
  const realParent = await wouldBeReal(parent, links);
  if (realParent === undefined) return undefined;
  const here = join(realParent, basename(path));
  if (!(await lstat(here).catch(() => undefined))?.isSymbolicLink()) return here;
  const target = --links.left < 0 ? undefined : await readlink(here).catch(() => undefined);
  if (target === undefined) return undefined;
  return wouldBeReal(isAbsolute(target) ? target : `${realParent}${sep}${target}`, links);
}

/**
 * The real path of the file `path` names, when it lies in `roots`: relative paths are taken from
 * the first root. Throws OutsideRootsError for anything else, and for a path outside before the
 * file system is asked anything about it (so "no such file" is never said of one, nor of a link
 * to a missing file outside); undefined when the path is inside but names nothing.
 */
export async function realPathInRoots(path: string, roots: ToolRoots): Promise<string | undefined> {
  const first = roots.given[0];
  if (first === undefined) throw new OutsideRootsError('no folder may be read (none of the folders given exists)');
  const outside = new OutsideRootsError(`outside the folders this server may read (${roots.given.join(', ')})`);
  const abs = isAbsolute(path) ? resolve(path) : resolve(first, path);
  // As written first: inside a root either as given or as its real path (a root reached through a link).
  if (![...roots.given, ...roots.real].some((r) => within(abs, r))) throw outside;
  const real = await realpath(abs).catch(() => undefined);
  if (real === undefined) {
    const would = await wouldBeReal(abs);
    if (would === undefined || !roots.real.some((r) => within(would, r))) throw outside;
    return undefined;
  }
  // Then as resolved: a link inside a root may lead anywhere.
  if (!roots.real.some((r) => within(real, r))) throw outside;
  return real;
}
