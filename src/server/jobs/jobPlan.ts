/**
 * Turns a create-job request into a runnable plan, applying the contract's rules in the order a
 * caller can act on: session exists, question length, source count, dataset and sources exist,
 * sources synched. Every rejection is an ApiError with the real service's code.
 */
import type { DataSource, LanguageType } from '../../shared/domain';
import { MAX_DATASOURCES_PER_JOB, MAX_QUESTION_LENGTH } from '../../shared/domain';
import { ErrorCode } from '../../shared/errorCodes';
import type { DecodedJobBody } from '../../shared/requestCodecV1';
import type { IngestResult } from '../engine';
import type { ModelEndpoint } from '../../shared/localModel';
import { ApiError, notFound } from '../http/envelope';
import type { ServiceDeps } from '../serviceDeps';
import { recordCache, toDataSource, type SessionRecord, type SourceRecord } from '../state/records';

export interface JobPlan {
  session: SessionRecord;
  question: string;
  languageType: LanguageType;
  sources: Array<{ source: DataSource; ingest: IngestResult }>;
  /**
   * How a question that selected no data got its data: `session`, the sources this session's
   * last question about data used. Absent when the request selected them.
   */
  dataFrom?: 'session';
  /** Nothing selected and nothing in the session: the datasets there are, to name in the answer. */
  datasets?: Array<{ name: string; files: number }>;
  /** The language model the asking client chose (see shared/localModel.ts). */
  model?: ModelEndpoint;
}

function notSynched(names: string[]): ApiError {
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
  return new ApiError(ErrorCode.SOURCES_NOT_SYNCHED, `selected files are not synched yet (${shown}): wait until processing finishes`);
}

/** Sources that cannot be used, saying why when one failed (a deleted in-place file, a bad file). */
function unusable(recs: SourceRecord[]): ApiError {
  const failed = recs.find((s) => s.status === 'invalid' && s.error !== undefined);
  if (failed === undefined) return notSynched(recs.map((s) => s.name));
  return new ApiError(ErrorCode.SOURCES_NOT_SYNCHED, `selected files are not synched (${failed.name} cannot be used: ${failed.error ?? ''})`);
}

/**
 * The sources of the session's latest question that used data and are still ready (the SOURCES
 * block of its answer names them), for a question that selects none: "No dataset" on a local
 * service, whose engine answers only from data, then continues with the session's data.
 */
async function sessionSources(deps: Pick<ServiceDeps, 'meta' | 'history'>, sessionId: string): Promise<SourceRecord[]> {
  const records = await deps.history.list(sessionId);
  for (const r of [...records].reverse()) {
    const ids = r.blocks.flatMap((b) => (b.type === 'SOURCES' ? b.content.map((x) => x.datasourceId) : []));
    const ready = [...new Set(ids)].map((id) => deps.meta.sources.get(id)).filter((x): x is SourceRecord => x !== undefined && x.status === 'synched');
    if (ready.length > 0) return ready.slice(0, MAX_DATASOURCES_PER_JOB);
  }
  return [];
}

export async function planJob(deps: Pick<ServiceDeps, 'meta' | 'store' | 'ingest' | 'history'>, body: DecodedJobBody): Promise<JobPlan> {
  const { meta, store } = deps;
  const session = meta.sessions.get(body.sessionId);
  if (!session) throw notFound('sessionId: session');
  if (Array.from(body.question).length > MAX_QUESTION_LENGTH) {
    throw new ApiError(ErrorCode.QUESTION_TOO_LONG, `question: longer than ${MAX_QUESTION_LENGTH} characters`);
  }
  const ids = body.datasourceIdList ?? [];
  if (ids.length > MAX_DATASOURCES_PER_JOB) {
    throw new ApiError(ErrorCode.TOO_MANY_FILES, `datasourceIdList: at most ${MAX_DATASOURCES_PER_JOB} data sources per job`);
  }
  if (body.datasetId !== undefined && !meta.datasets.has(body.datasetId)) throw notFound('datasetId: dataset');

  let selected: SourceRecord[];
  if (ids.length > 0) {
    selected = [...new Set(ids)].map((id) => {
      const s = meta.sources.get(id);
      if (!s || (body.datasetId !== undefined && s.datasetId !== body.datasetId)) {
        throw notFound(`datasourceIdList: data source ${id.slice(0, 64)}`);
      }
      return s;
    });
    // Files read in place are checked for edits first; the job waits for a changed file's re-read.
    await deps.ingest.freshen(selected);
    const pending = selected.filter((s) => s.status !== 'synched');
    if (pending.length > 0) throw unusable(pending);
  } else if (body.datasetId !== undefined) {
    // A dataset without a list means "its data": every source that is ready.
    await deps.ingest.freshen(meta.sourcesOf(body.datasetId));
    const all = meta.sourcesOf(body.datasetId);
    selected = all.filter((s) => s.status === 'synched');
    if (all.length > 0 && selected.length === 0) throw unusable(all);
  } else {
    selected = await sessionSources(deps, session.id);
    if (selected.length > 0) await deps.ingest.freshen(selected);
    selected = selected.filter((x) => x.status === 'synched');
  }
  const fromSession = ids.length === 0 && body.datasetId === undefined && selected.length > 0;

  const sources: JobPlan['sources'] = [];
  for (const s of selected) {
    const ingest = await store.describe(s.id);
    // Synched in metadata but unknown to the store (its data was lost): not usable.
    if (ingest === undefined) throw notSynched([s.name]);
    // A copy the store dropped (its file changed or it is gone) no longer shows in the Datasets view.
    recordCache(s, ingest);
    sources.push({ source: toDataSource(s), ingest });
  }
  const plan: JobPlan = { session, question: body.question, languageType: body.languageType ?? session.languageType, sources };
  if (fromSession) plan.dataFrom = 'session';
  if (sources.length === 0) {
    plan.datasets = [...meta.datasets.values()]
      .map((d) => ({ name: d.name, files: meta.sourcesOf(d.id).filter((x) => x.status === 'synched').length }))
      .filter((d) => d.files > 0);
  }
  return plan;
}
