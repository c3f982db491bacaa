/**
 * The folders a shared service may read in place. DuckDB's sandbox is fixed when the database
 * opens (`allowed_directories` cannot change once external access is off, see sandbox.ts), so a
 * client bringing a folder the running service cannot read asks for a restart, and the folder is
 * remembered here for the next start. The sandbox of a start is: the starter's folders, the
 * folders clients used recently, and every folder that holds a file read in place (those sources
 * stay readable for everyone who sees their dataset).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { underRoots } from '../ingest/readRoots';
import { writeFileAtomic } from '../state/atomicFile';
import { serviceDir } from './discovery';

/** A folder no client used for this long is dropped from the sandbox, unless a source lies in it. */
const FORGET_AFTER_MS = 30 * 24 * 3600 * 1000;
const MAX_REMEMBERED = 200;

interface Remembered {
  path: string;
  lastUsed: number;
}

const rootsFile = (dataDir: string): string => join(serviceDir(dataDir), 'roots.json');

async function load(dataDir: string): Promise<Remembered[]> {
  try {
    const raw = JSON.parse(await readFile(rootsFile(dataDir), 'utf8')) as unknown;
    if (!Array.isArray(raw)) return [];
    return raw.filter((r): r is Remembered => typeof r === 'object' && r !== null && typeof (r as Remembered).path === 'string'
      && typeof (r as Remembered).lastUsed === 'number');
  } catch {
    return [];
  }
}

/** Notes that clients use these folders now (resolved paths). */
export async function rememberRoots(dataDir: string, roots: readonly string[], now = Date.now()): Promise<void> {
  if (roots.length === 0) return;
  const all = await load(dataDir);
  for (const path of roots) {
    const hit = all.find((r) => r.path === path);
    if (hit) hit.lastUsed = now;
    else all.push({ path, lastUsed: now });
  }
  all.sort((a, b) => b.lastUsed - a.lastUsed);
  await writeFileAtomic(rootsFile(dataDir), JSON.stringify(all.slice(0, MAX_REMEMBERED)));
}

/**
 * The folders the sandbox of a new start holds besides the starter's: remembered ones still in
 * use, and any remembered folder that holds a file read in place.
 */
export async function rememberedRoots(dataDir: string, inPlacePaths: readonly string[], now = Date.now()): Promise<string[]> {
  const all = await load(dataDir);
  return all.filter((r) => now - r.lastUsed < FORGET_AFTER_MS || inPlacePaths.some((p) => underRoots(p, [r.path]))).map((r) => r.path);
}
