/**
 * How the clients of one data folder find its one local service: the service writes
 * `<data folder>/service/service.json` (address, key, version, pid) once it answers, and removes it
 * when it stops. The key makes the file a secret: it is written owner-only, and a reader trusts it
 * only when it belongs to the reader's own user and nobody else may read or change it, so another
 * account cannot point our clients at a service of its own.
 */
import { constants } from 'node:fs';
import { lstat, open, readFile, stat, unlink } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../state/atomicFile';

/** The format of the data folder this build reads and writes (state, history, database layout). */
export const DATA_FORMAT = 1;

export interface Discovery {
  pid: number;
  baseUrl: string;
  apiKey: string;
  /** The service's build version (`team-data --version`). */
  version: string;
  dataFormat: number;
  startedAt: number;
}

export function serviceDir(dataDir: string): string {
  return join(dataDir, 'service');
}

export function discoveryFile(dataDir: string): string {
  return join(serviceDir(dataDir), 'service.json');
}

/** The service's own log, appended by every start, read by a client whose start failed. */
export function serviceLogFile(dataDir: string): string {
  return join(serviceDir(dataDir), 'service.log');
}

export async function ensureServiceDir(dataDir: string): Promise<void> {
  await mkdir(serviceDir(dataDir), { recursive: true, mode: 0o700 });
}

export async function writeDiscovery(dataDir: string, d: Discovery): Promise<void> {
  await ensureServiceDir(dataDir);
  await writeFileAtomic(discoveryFile(dataDir), JSON.stringify(d));
}

/** Why a discovery file was not trusted, for the log; undefined when it is absent. */
export type DiscoveryRead = { ok: true; discovery: Discovery } | { ok: false; why: string } | undefined;

const ownUid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

export async function readDiscovery(dataDir: string): Promise<DiscoveryRead> {
  const file = discoveryFile(dataDir);
  const uid = ownUid();
  // The folder must be ours and closed to others too: whoever may write in it may swap the file.
  const dir = await lstat(serviceDir(dataDir)).catch(() => undefined);
  if (dir === undefined) return undefined;
  if (uid !== undefined && (!dir.isDirectory() || dir.uid !== uid || (dir.mode & 0o022) !== 0)) {
    return { ok: false, why: `${serviceDir(dataDir)} belongs to another user or others may write in it; its service file is ignored` };
  }
  let text: string;
  try {
    // No symlink followed, and the checks made on the very file read (no swap between them).
    const h = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const st = await h.stat();
      if (uid !== undefined && (!st.isFile() || st.uid !== uid || (st.mode & 0o077) !== 0)) {
        return { ok: false, why: `${file} belongs to another user or can be read by others; it is ignored` };
      }
      text = await h.readFile('utf8');
    } finally {
      await h.close();
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { ok: false, why: `${file} is unreadable (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, why: `${file} is unreadable` };
  }
  const d = raw as Partial<Discovery> | null;
  if (d === null || typeof d !== 'object' || typeof d.pid !== 'number' || typeof d.baseUrl !== 'string' || typeof d.apiKey !== 'string'
    || typeof d.version !== 'string' || typeof d.dataFormat !== 'number' || typeof d.startedAt !== 'number') {
    return { ok: false, why: `${file} is not a service description` };
  }
  // Only loopback: the file must never send a client's data anywhere else.
  if (!/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/.test(d.baseUrl)) return { ok: false, why: `${file} names a non-local address` };
  return { ok: true, discovery: d as Discovery };
}

/** Removes the discovery file when it still describes the service `pid` (a successor's stays). */
export async function removeDiscovery(dataDir: string, pid: number): Promise<void> {
  const read = await readDiscovery(dataDir).catch(() => undefined);
  if (read !== undefined && (!read.ok || read.discovery.pid === pid)) await unlink(discoveryFile(dataDir)).catch(() => undefined);
}

export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, but another user's process.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The lock that settles concurrent starts: whoever creates `start.lock` first starts the service;
 * the others wait for its discovery file. A lock whose holder died (or that is older than
 * `staleMs`, a holder that hangs) is taken over.
 */
export async function tryStartLock(dataDir: string, staleMs: number): Promise<(() => Promise<void>) | undefined> {
  await ensureServiceDir(dataDir);
  const file = join(serviceDir(dataDir), 'start.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const h = await open(file, 'wx', 0o600);
      const token = `${process.pid}:${Date.now()}:${Math.random()}`;
      await h.writeFile(token);
      await h.close();
      return async () => {
        // Only our own lock: after a takeover the file may be someone else's.
        if ((await readFile(file, 'utf8').catch(() => '')) === token) await unlink(file).catch(() => undefined);
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const held = await readFile(file, 'utf8').catch(() => undefined);
    const since = await stat(file).then((st) => Date.now() - st.mtimeMs, () => Infinity);
    const holder = Number((held ?? '').split(':')[0]);
    // An empty file is a lock being written this instant: its holder is alive.
    const holderAlive = held === '' || processAlive(holder);
    if (held !== undefined && holderAlive && since < staleMs) return undefined;
    // The holder is gone or stuck: take the lock over, unless it changed hands meanwhile.
    if ((await readFile(file, 'utf8').catch(() => undefined)) === held) await unlink(file).catch(() => undefined);
  }
  return undefined;
}
