/** Data sources: create (in a dataset or the default one), list with status filter, get, delete, presign. */
import type { DataSource } from '../../shared/domain';
import { ErrorCode } from '../../shared/errorCodes';
import { ApiError, badRequest, notFound } from '../http/envelope';
import { readJsonBody } from '../http/requestBody';
import { patternOf, type RequestContext, type Router } from '../http/router';
import { newId } from '../ids';
import type { ServiceDeps } from '../serviceDeps';
import { toDataSource, type DatasetRecord, type SourceRecord } from '../state/records';
import { datasetOf } from './datasetRoutes';
import { decode, decodeBody, deleteCaller, idParam, leaseOf, newestFirst, paginate, type Spelling } from './routeKit';
import { createSource, removeSource } from './sourceLifecycle';

/** Presigned links last 600 s by default in the real service. */
const PRESIGN_TTL_MS = 600_000;

function sourceOf(deps: ServiceDeps, ctx: RequestContext): SourceRecord {
  const d = datasetOf(deps, ctx);
  const s = deps.meta.sources.get(idParam(ctx, 'datasourceId'));
  if (!s || s.datasetId !== d.id) throw notFound('data source');
  return s;
}

function defaultDataset(deps: ServiceDeps): DatasetRecord {
  for (const d of deps.meta.datasets.values()) if (d.isDefault) return d;
  const rec: DatasetRecord = {
    id: newId(), name: 'Default dataset', description: 'Created for data sources added without a dataset', createdAt: Date.now(), isDefault: true,
  };
  deps.meta.datasets.set(rec.id, rec);
  return rec;
}

export function registerDataSourceRoutes(router: Router, deps: ServiceDeps, spelling: Spelling): void {
  const { meta } = deps;
  const { wire, req } = spelling;
  const P = wire.paths;

  router.add('POST', patternOf(P.datasources(':datasetId')), async (ctx) => {
    const d = datasetOf(deps, ctx);
    const queryUser = decode(() => req.userId(ctx.query));
    const raw = await readJsonBody(ctx.req);
    const body = decode(() => req.decodeDataSourceBody(raw));
    const userId = queryUser ?? body.userId;
    if (userId === undefined) throw badRequest(`${wire.userIdParam}: required`);
    return { data: wire.encodeDataSource(await createSource(deps, d.id, body, userId, leaseOf(ctx))) };
  });

  router.add('POST', P.datasourcesWithoutDataset, async (ctx) => {
    const queryUser = decode(() => req.userId(ctx.query));
    const raw = await readJsonBody(ctx.req);
    const body = decode(() => req.decodeDataSourceBody(raw));
    const d = defaultDataset(deps);
    return { data: wire.encodeDataSource(await createSource(deps, d.id, body, queryUser ?? body.userId, leaseOf(ctx))) };
  });

  router.add('GET', patternOf(P.datasources(':datasetId')), async (ctx) => {
    const d = datasetOf(deps, ctx);
    const q = decode(() => req.decodeListQuery('datasources', ctx.query));
    let items = newestFirst(meta.sourcesOf(d.id));
    const wanted = q.statuses;
    if (wanted !== undefined) items = items.filter((s) => wanted.includes(s.status));
    return { data: wire.encodePage(paginate(items.map((r) => liveSource(deps, r)), q), wire.encodeDataSource) };
  });

  router.add('GET', patternOf(P.datasource(':datasetId', ':datasourceId')), async (ctx) => {
    return { data: wire.encodeDataSource(liveSource(deps, sourceOf(deps, ctx))) };
  });

  router.add('DELETE', patternOf(P.datasource(':datasetId', ':datasourceId')), async (ctx) => {
    const s = sourceOf(deps, ctx);
    await deleteCaller(ctx, spelling);
    await removeSource(deps, s);
    await meta.save();
    return { data: null };
  });

  router.add('POST', patternOf(P.presign(':datasetId', ':datasourceId')), async (ctx) => {
    const s = sourceOf(deps, ctx);
    if (s.file === undefined) {
      throw new ApiError(ErrorCode.PRESIGN_ERROR, 'could not create a download link: the file has not been downloaded yet');
    }
    const asked = req.presignHasBody ? (await decodeBody(ctx, (raw) => req.decodePresignBody(raw))).expiresInSec : undefined;
    const ttl = asked !== undefined ? asked * 1000 : PRESIGN_TTL_MS;
    const ref = deps.vault.link('s', s.id, s.fileName, Math.min(ttl, deps.vault.ttlMs));
    return { data: req.encodePresign({ url: ref.url, expiredAt: ref.expiredAt ?? '' }) };
  });
}

/** A source as callers see it, with how far a running read has got. */
function liveSource(deps: ServiceDeps, r: SourceRecord): DataSource {
  return toDataSource(r, deps.ingest.progressOf(r.id));
}
