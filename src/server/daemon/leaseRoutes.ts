/**
 * The shared service's own endpoints, beside the contract's API and behind the same key (only
 * clients that read the owner-only discovery file have it): status, leases with the folders each
 * client may read in place, and a restart when the running service cannot read a client's folder.
 * `/local/v1/...` is no path of the hosted service, so the wire of v1 and v2 stays as it is.
 */
import { isAbsolute } from 'node:path';
import { ErrorCode } from '../../shared/errorCodes';
import { ApiError, badRequest } from '../http/envelope';
import { readJsonBody } from '../http/requestBody';
import type { Router } from '../http/router';
import { atOrUnderRoots, resolveRoots } from '../ingest/readRoots';
import type { Leases } from './leases';
import { parseModelEndpoint, type ModelEndpoint } from '../../shared/localModel';
import { rememberRoots } from './sharedRoots';

export const LOCAL_PREFIX = '/local/v1';
const MAX_ROOTS = 64;
const MAX_ROOT_LENGTH = 4096;

export interface LeaseRouteDeps {
  leases: Leases;
  dataDir: string;
  /** The folders DuckDB may read (fixed for this process). */
  sandboxRoots: readonly string[];
  version: string;
  dataFormat: number;
  /** How long a lease lives without renewal (announced to clients). */
  ttlMs: number;
  busy(): { jobs: boolean; ingest: boolean };
}

async function rootsOf(raw: unknown): Promise<string[]> {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_ROOTS) throw badRequest(`roots: a list of at most ${MAX_ROOTS} absolute folder paths`);
  for (const r of raw) {
    if (typeof r !== 'string' || !isAbsolute(r) || r.length > MAX_ROOT_LENGTH || r.includes('\0')) throw badRequest('roots: each must be an absolute folder path');
  }
  return resolveRoots(raw as string[]);
}

async function bodyOf(req: Parameters<typeof readJsonBody>[0]): Promise<Record<string, unknown>> {
  const raw = await readJsonBody(req);
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('body: a JSON object');
  return raw as Record<string, unknown>;
}

function modelOf(raw: unknown): ModelEndpoint | null | undefined {
  try {
    return parseModelEndpoint(raw);
  } catch (e) {
    throw badRequest(e instanceof Error ? e.message : 'model');
  }
}

export function registerLeaseRoutes(router: Router, d: LeaseRouteDeps): void {
  /** The roots the sandbox lacks; remembered so that the next start has them. */
  const missing = async (roots: string[]): Promise<string[]> => {
    const out = roots.filter((r) => !atOrUnderRoots(r, d.sandboxRoots));
    await rememberRoots(d.dataDir, roots);
    return out;
  };

  router.add('GET', `${LOCAL_PREFIX}/status`, async () => {
    const busy = d.busy();
    return { data: {
      pid: process.pid, version: d.version, dataFormat: d.dataFormat, busy: busy.jobs || busy.ingest,
      leases: d.leases.list().map((l) => ({ client: l.client, since: l.since, roots: l.roots.length, ...(l.model ? { model: l.model.label } : {}) })),
    } };
  });

  router.add('POST', `${LOCAL_PREFIX}/leases`, async (ctx) => {
    const body = await bodyOf(ctx.req);
    const client = typeof body['client'] === 'string' ? body['client'].slice(0, 40).replace(/[^\w.-]/g, '_') : 'client';
    const roots = await rootsOf(body['roots']);
    const model = modelOf(body['model']);
    // About to stop for a restart: a new client must not start work here (HTTP 503); it waits for
    // this process to end and attaches to the successor.
    if (d.leases.restarting) throw new ApiError(ErrorCode.INTERNAL, 'the local service is restarting', 503);
    let lease;
    try {
      lease = d.leases.add(client, roots);
      if (model) d.leases.setModel(lease.id, model);
    } catch (e) {
      throw new ApiError(ErrorCode.INVALID_PARAMS, e instanceof Error ? e.message : String(e));
    }
    return { data: { id: lease.id, ttlMs: d.ttlMs, missingRoots: await missing(roots) } };
  });

  router.add('POST', `${LOCAL_PREFIX}/leases/:id`, async (ctx) => {
    const body = await bodyOf(ctx.req);
    const roots = body['roots'] === undefined ? undefined : await rootsOf(body['roots']);
    const model = modelOf(body['model']);
    const lease = d.leases.renew(ctx.params['id'] ?? '', roots);
    // 404: the lease expired (the client was silent too long); the client registers again.
    if (!lease) throw new ApiError(ErrorCode.NOT_FOUND, 'no such lease (it expired); register again', 404);
    if (model !== undefined) d.leases.setModel(lease.id, model);
    return { data: { id: lease.id, ttlMs: d.ttlMs, missingRoots: roots === undefined ? [] : await missing(roots) } };
  });

  router.add('DELETE', `${LOCAL_PREFIX}/leases/:id`, async (ctx) => {
    d.leases.drop(ctx.params['id'] ?? '');
    return { data: null };
  });

  router.add('POST', `${LOCAL_PREFIX}/restart`, async (ctx) => {
    const body = await bodyOf(ctx.req);
    const why = typeof body['reason'] === 'string' ? body['reason'].slice(0, 200) : 'a client asked for a restart';
    d.leases.restartWhenIdle(why);
    return { data: { willRestart: true } };
  });
}
