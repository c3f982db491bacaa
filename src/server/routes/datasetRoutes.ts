/** Datasets (team-owned): create, list with a name keyword, modify, delete, status, overview. */
import type { DatasetStatus } from '../../shared/domain';
import { notFound } from '../http/envelope';
import { patternOf, type RequestContext, type Router } from '../http/router';
import type { Json } from '../../shared/json';
import { InvalidFieldError } from '../../shared/requestCodecV1';
import { MAX_GLOSSARY, readGlossary, type GlossaryEntry } from '../../shared/glossary';
import { newId } from '../ids';
import type { ServiceDeps } from '../serviceDeps';
import { toDataset, type DatasetRecord } from '../state/records';
import { datasetDigest } from './datasetDigest';
import { removeSource } from './sourceLifecycle';
import { contains, decode, decodeBody, deleteCaller, idParam, newestFirst, paginate, type Spelling } from './routeKit';

/** Glossary entries as JSON, only the fields they have. */
function glossaryJson(list: readonly GlossaryEntry[]): Json {
  return list.map((g) => ({ phrase: g.phrase, column: g.column, ...(g.table !== undefined ? { table: g.table } : {}), ...(g.value !== undefined ? { value: g.value } : {}) }));
}

export function datasetOf(deps: ServiceDeps, ctx: RequestContext): DatasetRecord {
  const d = deps.meta.datasets.get(idParam(ctx, 'datasetId'));
  if (!d) throw notFound('dataset');
  return d;
}

export function datasetStatus(deps: ServiceDeps, datasetId: string): DatasetStatus {
  const s: DatasetStatus = { datasetId, total: 0, synched: 0, synching: 0, invalid: 0 };
  for (const r of deps.meta.sourcesOf(datasetId)) {
    s.total++;
    s[r.status]++;
  }
  return s;
}

export function registerDatasetRoutes(router: Router, deps: ServiceDeps, { wire, req }: Spelling): void {
  const { meta } = deps;
  const P = wire.paths;

  router.add('POST', P.datasets, async (ctx) => {
    const body = await decodeBody(ctx, (raw) => req.decodeDatasetBody(raw));
    const rec: DatasetRecord = { id: newId(), name: body.name, description: body.description, createdAt: Date.now() };
    meta.datasets.set(rec.id, rec);
    await meta.save();
    return { data: req.encodeCreated(rec.id) };
  });

  router.add('GET', P.datasets, async (ctx) => {
    const q = decode(() => req.decodeListQuery('datasets', ctx.query));
    let items = newestFirst(meta.datasets.values());
    const k = q.keyword;
    if (k !== undefined) items = items.filter((d) => contains(d.name, k) || contains(d.description, k));
    const page = paginate(items.map(toDataset), q);
    return { data: wire.encodePage(page, wire.encodeDataset) };
  });

  router.add('POST', patternOf(P.dataset(':datasetId')), async (ctx) => {
    const d = datasetOf(deps, ctx);
    decode(() => req.userId(ctx.query));
    const patch = await decodeBody(ctx, (raw) => req.decodeDatasetPatch(raw));
    if (patch.name !== undefined) d.name = patch.name;
    if (patch.description !== undefined) d.description = patch.description;
    await meta.save();
    return { data: null };
  });

  router.add('DELETE', patternOf(P.dataset(':datasetId')), async (ctx) => {
    const d = datasetOf(deps, ctx);
    await deleteCaller(ctx, { wire, req });
    for (const s of meta.sourcesOf(d.id)) await removeSource(deps, s);
    meta.datasets.delete(d.id);
    await meta.save();
    return { data: null };
  });

  // The dataset's glossary (local only: the hosted service has none, and the v1/v2 wire is unchanged).
  router.add('GET', patternOf(`${P.dataset(':datasetId')}/glossary`), async (ctx) => {
    const d = datasetOf(deps, ctx);
    return { data: { entries: glossaryJson(d.glossary ?? []) } };
  });

  router.add('POST', patternOf(`${P.dataset(':datasetId')}/glossary`), async (ctx) => {
    const d = datasetOf(deps, ctx);
    const body = await decodeBody(ctx, (raw) => {
      const entries = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>)['entries'] : undefined;
      if (!Array.isArray(entries) || entries.length > MAX_GLOSSARY) throw new InvalidFieldError('entries', `a list of at most ${MAX_GLOSSARY} meanings`);
      return readGlossary(entries);
    });
    if (body.length > 0) d.glossary = body;
    else delete d.glossary;
    await meta.save();
    return { data: { entries: glossaryJson(d.glossary ?? []) } };
  });

  router.add('GET', patternOf(P.datasetStatus(':datasetId')), async (ctx) => {
    const d = datasetOf(deps, ctx);
    return { data: wire.encodeDatasetStatus(datasetStatus(deps, d.id)) };
  });

  router.add('GET', patternOf(P.datasetOverview(':datasetId')), async (ctx) => {
    const d = datasetOf(deps, ctx);
    const sources = meta.sourcesOf(d.id);
    return {
      data: wire.encodeDatasetOverview({
        dataset: toDataset(d),
        dataSourceCount: sources.length,
        totalBytes: sources.reduce((n, s) => n + (s.size ?? 0), 0),
        statuses: datasetStatus(deps, d.id),
        ...(await datasetDigest(deps, sources)),
      }),
    };
  });
}
