/**
 * Small HTTP calls of a client to the shared service's own endpoints (daemon/leaseRoutes.ts):
 * status, leases and restart. Plain fetch over loopback with a short deadline: these calls decide
 * whether a service is alive, so they must never wait long.
 */
import { readFile } from 'node:fs/promises';
import { LOCAL_PREFIX } from '../server/daemon/leaseRoutes';
import type { Discovery } from '../server/daemon/discovery';

export interface ServiceStatus {
  pid: number;
  version: string;
  dataFormat: number;
  busy: boolean;
  /** `model`: the label of the model a client registered (never its key). */
  leases: Array<{ client: string; since: number; roots: number; model?: string }>;
}

export type Probe = { kind: 'ok'; status: ServiceStatus } | { kind: 'refused' } | { kind: 'hung' } | { kind: 'foreign'; why: string };

export class LocalCallError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
    this.name = 'LocalCallError';
  }
}

/** One call; rejects with LocalCallError on an HTTP or envelope error, with AbortError on timeout. */
export async function localCall<T>(d: Pick<Discovery, 'baseUrl' | 'apiKey'>, method: string, path: string, body?: unknown, timeoutMs = 3000): Promise<T> {
  const res = await fetch(`${d.baseUrl}${LOCAL_PREFIX}${path}`, {
    method,
    headers: { 'x-pd-api-key': d.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let env: { code?: unknown; msg?: unknown; data?: unknown } = {};
  try {
    env = JSON.parse(text) as typeof env;
  } catch {
    throw new LocalCallError(`the service answered ${res.status} without JSON`, res.status);
  }
  if (!res.ok || env.code !== 0) throw new LocalCallError(typeof env.msg === 'string' ? env.msg : `HTTP ${res.status}`, res.status);
  return env.data as T;
}

/** Whether the service of a discovery file answers as ours, is gone, hangs, or is something else. */
export async function probe(d: Discovery, timeoutMs = 2000): Promise<Probe> {
  try {
    const status = await localCall<ServiceStatus>(d, 'GET', '/status', undefined, timeoutMs);
    if (status.pid !== d.pid) return { kind: 'foreign', why: `the address answers for pid ${status.pid}, not ${d.pid}` };
    return { kind: 'ok', status };
  } catch (e) {
    if (e instanceof LocalCallError) return { kind: 'foreign', why: e.message };
    const name = (e as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'hung' };
    return { kind: 'refused' };
  }
}

/**
 * Whether `pid` is the shared Team Data service of `dataDir` (so killing it is safe): on Linux its
 * command line says so (a reused pid is some other program, or the service of another folder);
 * elsewhere we cannot tell, and never kill.
 */
export async function isOurService(pid: number, dataDir: string): Promise<boolean> {
  const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  if (cmd === undefined) return false;
  const argv = cmd.split('\0');
  const at = argv.indexOf('--data-dir');
  return argv.includes('serve') && argv.includes('--shared') && at >= 0 && argv[at + 1] === dataDir;
}
