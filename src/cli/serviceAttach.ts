/**
 * Attach to the data folder's one local service, starting it when there is none. Used by every
 * client: VS Code windows (through the supervisor), `team-data ask` and `team-data mcp`.
 *
 * - A live service is found through its discovery file and attached to with a lease.
 * - Otherwise the start lock decides who starts it (exactly one of any number of racing clients);
 *   the others wait for the discovery file the new service writes.
 * - A service that is gone leaves a stale file: it is removed. One that hangs (no answer within
 *   the probe's deadline, twice) is killed, after checking the process really is our service.
 * - A start that fails reports the cause the service printed (daemon/startFailure.ts) at once.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { open, readFile, rename, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DATA_FORMAT, processAlive, readDiscovery, removeDiscovery, serviceLogFile, tryStartLock, ensureServiceDir, type Discovery } from '../server/daemon/discovery';
import { causeInLog } from '../server/daemon/startFailure';
import { isOurService, LocalCallError, probe } from './serviceProbe';
import { ServiceLease, type LeaseOptions } from './serviceLease';

export class ServiceStartError extends Error {
  constructor(readonly kind: 'missing' | 'start' | 'incompatible', message: string, readonly logTail = '') {
    super(message);
    this.name = 'ServiceStartError';
  }
}

export interface AttachOptions extends Omit<LeaseOptions, 'discovery'> {
  dataDir: string;
  /** The built CLI (`dist/cli.js`) that runs `serve --shared`. */
  cliPath: string;
  /** The Node to run it with (default this process's). */
  nodePath?: string;
  /** Environment of a service this client starts (default this process's, without keys). */
  env?: NodeJS.ProcessEnv;
  /** This client's build version; a service of another version is used, with a note (`onNote`). */
  version: string;
  /** How long a start may take (default 60 s: DuckDB's first open of a big database). */
  startTimeoutMs?: number;
  /**
   * A service this client starts reads in place files with other hard links too
   * (`--read-hard-links`). One already running keeps what it was started with.
   */
  readHardLinks?: boolean;
  onNote?(message: string): void;
}

export interface Attached {
  discovery: Discovery;
  lease: ServiceLease;
  /** Whether this client started the service. */
  started: boolean;
  ms: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const LOG_ROTATE_BYTES = 4 * 1024 * 1024;
const RESTART_WAIT_MS = 15 * 60_000;

/** The service's pid, once it has gone, after up to `ms`. */
async function gone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (processAlive(pid)) {
    if (Date.now() > until) return false;
    await sleep(50);
  }
  return true;
}

/** Inspects the discovery file: a usable service, or nothing (after clearing what is stale). */
async function existing(o: AttachOptions): Promise<Discovery | undefined> {
  const read = await readDiscovery(o.dataDir);
  if (read === undefined) return undefined;
  if (!read.ok) {
    o.log?.('warn', read.why);
    return undefined;
  }
  const d = read.discovery;
  if (d.dataFormat !== DATA_FORMAT) {
    throw new ServiceStartError('incompatible', `the local service running on ${o.dataDir} (pid ${d.pid}, version ${d.version}) keeps its data in another format than this client (version ${o.version}). Close the clients of the other version (VS Code windows, team-data mcp) so it stops, then try again; or choose another data folder.`);
  }
  let p = await probe(d);
  if (p.kind === 'hung') p = await probe(d, 5000);
  if (p.kind === 'ok') {
    if (d.version !== o.version) o.onNote?.(`The local service already running on ${o.dataDir} is version ${d.version}; this client is version ${o.version}. It is used as it is until it restarts, which it does by itself a few minutes after its last client closes.`);
    return d;
  }
  if (p.kind === 'refused' && processAlive(d.pid)) {
    // Stopping (it removes the file once DuckDB let go) or still starting: give it a moment.
    if (!(await gone(d.pid, 10_000)) && (await probe(d)).kind === 'ok') return d;
  }
  if (processAlive(d.pid)) {
    if (await isOurService(d.pid, o.dataDir)) {
      o.log?.('warn', `the local service (pid ${d.pid}) does not answer; stopping it to start a new one`);
      try {
        process.kill(d.pid, 'SIGKILL');
      } catch {
        // Gone meanwhile, or not ours to kill after all (EPERM): start anew either way.
      }
      await gone(d.pid, 5000);
    } else {
      o.log?.('warn', `the discovery file names pid ${d.pid}, which is not a Team Data service; ignoring it`);
    }
  }
  await removeDiscovery(o.dataDir, d.pid);
  return undefined;
}

async function openLog(dataDir: string): Promise<{ fd: number; close(): Promise<void>; from: number }> {
  await ensureServiceDir(dataDir);
  const file = serviceLogFile(dataDir);
  const size = await stat(file).then((s) => s.size, () => 0);
  if (size > LOG_ROTATE_BYTES) await rename(file, `${file}.1`).catch(() => undefined);
  const h = await open(file, 'a', 0o600);
  const from = (await h.stat()).size;
  return { fd: h.fd, close: () => h.close(), from };
}

/** The command line of `serve --shared` for these options (after the Node binary). */
export function serveArgs(o: Pick<AttachOptions, 'cliPath' | 'dataDir' | 'readHardLinks'>, roots: readonly string[]): string[] {
  return [o.cliPath, 'serve', '--shared', '--data-dir', o.dataDir, ...roots.flatMap((r) => ['--read-root', r]), ...(o.readHardLinks === true ? ['--read-hard-links'] : [])];
}

/** Starts `serve --shared` detached and waits for its discovery file; rejects with its own words. */
async function startService(o: AttachOptions): Promise<Discovery> {
  if (!existsSync(o.cliPath)) throw new ServiceStartError('missing', `the local service is not built (${o.cliPath} is missing); run "npm run build"`);
  const log = await openLog(o.dataDir);
  const env: NodeJS.ProcessEnv = { ...(o.env ?? process.env), ELECTRON_RUN_AS_NODE: '1' };
  // Keys of the hosted service or of an earlier local one have no business in the service.
  for (const k of ['TEAM_DATA_API_KEY', 'TEAM_DATA_LOCAL_API_KEY', 'TEAM_DATA_BASE_URL']) delete env[k];
  const roots = [...(o.roots?.() ?? [])];
  const child = spawn(o.nodePath ?? process.execPath, serveArgs(o, roots), {
    env, detached: true, stdio: ['ignore', 'ignore', log.fd], windowsHide: true,
  });
  await log.close();
  let exited = false;
  child.once('exit', () => { exited = true; });
  child.once('error', () => { exited = true; });
  child.unref();
  o.log?.('info', `Starting the local service (pid ${child.pid ?? '?'}, data in ${o.dataDir})`);
  const until = Date.now() + (o.startTimeoutMs ?? 60_000);
  for (;;) {
    const read = await readDiscovery(o.dataDir);
    if (read?.ok === true && read.discovery.pid === child.pid && (await probe(read.discovery)).kind === 'ok') return read.discovery;
    if (read?.ok === false) {
      // A folder whose permissions others could abuse (or a file system without them): no
      // client may trust the service file there, so say so instead of waiting in vain.
      child.kill('SIGTERM');
      throw new ServiceStartError('start', `${read.why}. Make the data folder private to you (chmod 700), or choose another data folder on a disk with Unix permissions`);
    }
    if (exited) {
      const text = await readFile(serviceLogFile(o.dataDir), 'utf8').then((t) => t.slice(log.from), () => '');
      throw new ServiceStartError('start', causeInLog(text) ?? `the local service exited while starting (see ${serviceLogFile(o.dataDir)})`, text.slice(-16_384));
    }
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new ServiceStartError('start', `the local service did not answer within ${Math.round((o.startTimeoutMs ?? 60_000) / 1000)} s (see ${serviceLogFile(o.dataDir)})`);
    }
    await sleep(25);
  }
}

/** The running service of the data folder, started if needed, with a lease held for this client. */
export async function attachOrStart(given: AttachOptions): Promise<Attached> {
  // One spelling of the folder for every client (the service's command line is compared with it).
  const o = { ...given, dataDir: resolve(given.dataDir) };
  const t0 = Date.now();
  const until = t0 + (o.startTimeoutMs ?? 60_000) + 15_000;
  // A service restarting finishes its jobs first: wait for that up to a bound, then say so.
  const restartUntil = t0 + RESTART_WAIT_MS;
  /** A lease on `d`, or undefined when it is restarting or went away meanwhile (look again then). */
  const leaseOn = (d: Discovery): Promise<ServiceLease | undefined> => ServiceLease.take({ ...o, discovery: d }).catch(async (e: unknown) => {
    if (e instanceof LocalCallError && e.status !== 503) throw e;
    if (e instanceof LocalCallError) {
      // Restarting (503): wait for it to end, then look again (a successor, or our own start).
      o.log?.('info', `The local service (pid ${d.pid}) is restarting once its running jobs end; waiting for it`);
      await gone(d.pid, Math.max(100, Math.min(60_000, restartUntil - Date.now())));
    } else {
      // Gone between the look and the lease (it stopped for idleness that very moment): look again.
      await gone(d.pid, 2000);
    }
    return undefined;
  });
  for (;;) {
    const found = await existing(o);
    if (found) {
      const lease = await leaseOn(found);
      if (lease) return { discovery: found, lease, started: false, ms: Date.now() - t0 };
      if (Date.now() > restartUntil) throw new ServiceStartError('start', `the local service on ${o.dataDir} is restarting but still finishing its jobs; try again when they are done`);
      continue;
    }
    const release = await tryStartLock(o.dataDir, (o.startTimeoutMs ?? 60_000) + 5000);
    if (release) {
      let found2: Discovery | undefined;
      let started: Discovery | undefined;
      try {
        // Someone may have finished a start between our look and the lock.
        found2 = await existing(o);
        if (!found2) started = await startService(o);
      } catch (err) {
        // Lost a race on DuckDB's lock to a service that is now answering: use that one.
        found2 = await existing(o).catch(() => undefined);
        if (!found2) throw err;
      } finally {
        await release();
      }
      const d = (started ?? found2) as Discovery;
      const lease = await leaseOn(d);
      if (lease) return { discovery: d, lease, started: started !== undefined, ms: Date.now() - t0 };
      continue;
    }
    if (Date.now() > until) throw new ServiceStartError('start', `another client has been starting the local service on ${o.dataDir} for too long; try again`);
    await sleep(40);
  }
}
