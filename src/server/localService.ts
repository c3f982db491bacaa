/**
 * The embedded local service: the contract's HTTP API over node:http, backed by a data directory
 * (metadata, files) and a {@link DataStore}/{@link AnalysisEngine} pair (DuckDB by default).
 * Listens on 127.0.0.1 and a random port unless told otherwise.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DuckDbStore, type StoreLimits } from './duckdb/duckDbStore';
import type { AnalysisEngine, DataStore, IngestResult } from './engine';
import type { DataSource } from '../shared/domain';
import { FileVault } from './files/fileVault';
import { answerClientError, createDispatcher } from './http/dispatcher';
import { keyDigest } from './http/guard';
import { Router } from './http/router';
import { IngestQueue } from './ingest/ingestQueue';
import { resolveRoots } from './ingest/readRoots';
import { JobRunner } from './jobs/jobRunner';
import { LocalAnalysisEngine } from './engine/localEngine';
import { DEFAULT_KEEP_ALIVE_MS } from './jobs/sseWriter';
import { registerDataSourceRoutes } from './routes/dataSourceRoutes';
import { registerDatasetRoutes } from './routes/datasetRoutes';
import { registerFileRoutes } from './routes/fileRoutes';
import { registerJobRoutes } from './routes/jobRoutes';
import { registerSessionRoutes } from './routes/sessionRoutes';
import { registerUploadRoutes } from './routes/uploadRoutes';
import { PART_CORS_HEADERS, registerMultipartRoutes, registerPartRoute } from './routes/multipartRoutes';
import type { Spelling } from './routes/routeKit';
import { MultipartUploads } from './files/multipartUploads';
import { v1Codec } from '../shared/codecV1';
import { v2Codec } from '../shared/codecV2';
import { v1RequestCodec } from '../shared/requestCodecV1';
import { v2RequestCodec } from '../shared/requestCodecV2';
import type { ServiceDeps } from './serviceDeps';
import { dataPaths, ensureDataDirs } from './state/dataPaths';
import { removeLeftovers } from './state/leftovers';
import { HistoryStore } from './state/historyStore';
import { MetaStore, type Logger } from './state/metaStore';
import { StartupPhases } from './startupPhases';
import { dirname, join } from 'node:path';
import { JobJournal } from './jobs/jobJournal';
import { DATA_FORMAT } from './daemon/discovery';
import { Leases } from './daemon/leases';
import { registerLeaseRoutes } from './daemon/leaseRoutes';
import { registerExploreRoutes } from './explore/exploreRoutes';
import { rememberedRoots } from './daemon/sharedRoots';
import { DEFAULT_MIN_BODY_RATE, type MinBodyRate } from './http/bodyRate';

export type { Logger };

export interface LocalServiceOptions {
  /** Directory holding everything the service keeps; created if missing. */
  dataDir: string;
  /** The key every API request must carry in `x-pd-api-key`. */
  apiKey: string;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Defaults to the DuckDB store over `dataDir`. */
  store?: DataStore;
  /** Defaults to the local analysis engine over the default store. */
  engine?: AnalysisEngine;
  logger?: Logger;
  /** Largest accepted upload or URL download; default 8 GiB. */
  maxUploadBytes?: number;
  /** Lifetime of links to answer files; default 1 h. */
  fileUrlTtlMs?: number;
  /** Interval of `:keep-alive` comments in job streams; default 10 s. */
  keepAliveMs?: number;
  /** Data sources processed in parallel; default 2. */
  ingestConcurrency?: number;
  /** Lets `url` data sources fetch from private networks and this machine (off: public addresses only). */
  allowPrivateNetworks?: boolean;
  /** Time one data source may take to process; default grows with its size (see ingestQueue.ts). */
  ingestBudgetMs?: number;
  /** DuckDB's memory limit and threads for the default store (see sandbox.ts for the defaults). */
  duckdb?: Omit<StoreLimits, 'readableDirs' | 'maxInflatedBytes'>;
  /** Size of v2 multipart upload parts; default 5 MiB (the official web client's chunk size). */
  multipartPartBytes?: number;
  /** Lifetime of v2 part URLs (and of an upload nobody completes); default 24 h. */
  multipartUrlTtlMs?: number;
  /**
   * Folders whose files may be read in place (data sources with a `path`): the extension passes
   * its workspace folders. Without any, the service reads no file outside its data folder.
   */
  readRoots?: readonly string[];
  /**
   * Read in place files that have other hard links too. Off by default: a hard link in a read root
   * may be the very file of another folder (see readRoots.ts).
   */
  readHardLinks?: boolean;
  /**
   * What every window of an upload body must bring, or it is answered 408; default 16 KiB in every
   * 30 s (see http/bodyRate.ts). Tests shorten the window.
   */
  uploadMinRate?: MinBodyRate;
  /** The API versions served; default both. Serving one behaves like a service that has dropped the other. */
  apiVersions?: ReadonlyArray<'v1' | 'v2'>;
  /**
   * One service shared by every client of the data folder (see daemon/): clients hold leases, may
   * read in place only under their own folders, and the service calls `onIdle` once it has had no
   * lease and no work for `idleMs`. Remembered folders join `readRoots` (daemon/sharedRoots.ts).
   */
  shared?: { version: string; ttlMs: number; idleMs: number; onIdle(why: string): void };
}

export interface LocalService {
  /** `http://127.0.0.1:PORT` (no trailing slash); append `/v1/team/...` or `/v2/team/...`. */
  baseUrl: string;
  apiKey: string;
  port: number;
  /** Stops listening, aborts running work (interrupted sources resume on next start), flushes metadata. */
  close(): Promise<void>;
  /** The folders DuckDB may read files in place from (fixed for this process). */
  readRoots: readonly string[];
}

const DEFAULT_MAX_UPLOAD_BYTES = 8 * 1024 ** 3;
const DEFAULT_FILE_URL_TTL_MS = 60 * 60 * 1000;
const MIN_KEY_LENGTH = 8;

async function defaultBackends(dataDir: string, o: LocalServiceOptions, readRoots: readonly string[]): Promise<{ store: DataStore; engine: AnalysisEngine; owned: DataStore | undefined }> {
  if (o.store && o.engine) return { store: o.store, engine: o.engine, owned: undefined };
  if (o.store && !o.engine) {
    if (!(o.store instanceof DuckDbStore)) throw new Error('an injected store needs an injected engine unless it is a DuckDbStore');
    return { store: o.store, engine: new LocalAnalysisEngine(o.store), owned: undefined };
  }
  // DuckDB reads only the sources folder, its own scratch and the read roots: never state, history
  // or answer files. A gzip file may inflate to what the service accepts as an uncompressed upload.
  const readableDirs = [dataPaths(dataDir).sourcesDir, ...readRoots];
  const duck = await DuckDbStore.open(dataDir, { ...o.duckdb, readableDirs, maxInflatedBytes: o.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES });
  return { store: duck, engine: o.engine ?? new LocalAnalysisEngine(duck), owned: duck };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts the local service and resolves once it is listening. */
export async function startLocalService(opts: LocalServiceOptions): Promise<LocalService> {
  if (typeof opts.apiKey !== 'string' || opts.apiKey.length < MIN_KEY_LENGTH) {
    throw new Error(`the local service needs an API key of at least ${MIN_KEY_LENGTH} characters`);
  }
  const host = opts.host ?? '127.0.0.1';
  const log: Logger = opts.logger ?? (() => undefined);
  const phases = new StartupPhases();
  const paths = dataPaths(opts.dataDir);
  await ensureDataDirs(paths);
  const meta = await MetaStore.load(paths.stateFile, log);
  phases.mark('state');
  const inPlacePaths = [...meta.sources.values()].flatMap((r) => (r.origin.kind === 'path' ? [r.origin.path] : []));
  const remembered = opts.shared ? await rememberedRoots(opts.dataDir, inPlacePaths) : [];
  // A file read in place stays readable for everyone who sees its dataset, whoever's folder it
  // came from: its own folder joins a shared service's sandbox (and only that folder).
  const sourceDirs = opts.shared ? inPlacePaths.map((p) => dirname(p)) : [];
  const readRoots = await resolveRoots([...(opts.readRoots ?? []), ...remembered, ...sourceDirs]);
  // DuckDB's lock on the database first: a second service started by mistake on this folder must
  // fail here, before its sweeps could touch the files of the one that runs.
  const { store, engine, owned } = await defaultBackends(opts.dataDir, opts, readRoots);
  phases.mark('DuckDB');
  let history: HistoryStore;
  let journal: JobJournal;
  let vault: FileVault;
  try {
    await removeLeftovers(paths, meta);
    history = new HistoryStore(paths.historyDir, log);
    await history.init();
    journal = new JobJournal(join(paths.historyDir, 'running'));
    await journal.recover(history, (id) => meta.sessions.has(id), log);
    vault = await FileVault.open(paths.filesDir, paths.secretFile, opts.fileUrlTtlMs ?? DEFAULT_FILE_URL_TTL_MS);
  } catch (e) {
    await owned?.close().catch(() => undefined);
    throw e;
  }
  phases.mark('sweeps');
  const maxUploadBytes = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const ingestOpts = { meta, store, paths, log, maxDownloadBytes: maxUploadBytes, readRoots, readHardLinks: opts.readHardLinks === true, ...(opts.ingestConcurrency !== undefined ? { concurrency: opts.ingestConcurrency } : {}),
    ...(opts.ingestBudgetMs !== undefined ? { budgetMs: opts.ingestBudgetMs } : {}),
    ...(opts.allowPrivateNetworks === true ? { allowPrivateNetworks: true } : {}),
    onRead: (source: DataSource, result: IngestResult) => engine.prepare?.({ source, ingest: result }) };
  const ingest = new IngestQueue(ingestOpts);
  const jobs = new JobRunner({ meta, history, vault, engine, log, journal });
  // Requests in flight count as work too: an upload or a step of a client between two jobs must
  // not be cut off by an idle stop or a restart.
  let inFlight = 0;
  const leases = opts.shared ? new Leases({
    ttlMs: opts.shared.ttlMs, idleMs: opts.shared.idleMs, busy: () => jobs.busy || ingest.busy || inFlight > 0, onIdle: opts.shared.onIdle,
  }) : undefined;
  const deps: ServiceDeps = {
    meta, history, vault, store, engine, ingest, jobs, paths, log, maxUploadBytes, readRoots, readHardLinks: opts.readHardLinks === true,
    keepAliveMs: opts.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    uploadMinRate: opts.uploadMinRate ?? DEFAULT_MIN_BODY_RATE,
    ...(leases ? {
      inPlaceRoots: (id: string | undefined) => (id === undefined ? undefined : leases.rootsOf(id)),
      modelFor: (id: string | undefined) => (id === undefined ? undefined : leases.modelOf(id)),
    } : {}),
  };

  const multipart = await MultipartUploads.open({
    dir: paths.multipartDir, maxBytes: maxUploadBytes, minRate: deps.uploadMinRate,
    ...(opts.multipartPartBytes !== undefined ? { partBytes: opts.multipartPartBytes } : {}),
    ...(opts.multipartUrlTtlMs !== undefined ? { urlTtlMs: opts.multipartUrlTtlMs } : {}),
  });

  // Both versions over the same state: the same route code, each version's spelling.
  const router = new Router();
  const served = opts.apiVersions ?? ['v1', 'v2'];
  const spellings: Spelling[] = [{ wire: v1Codec, req: v1RequestCodec }, { wire: v2Codec, req: v2RequestCodec }].filter((s) => served.includes(s.wire.version));
  for (const spelling of spellings) {
    registerDatasetRoutes(router, deps, spelling);
    registerDataSourceRoutes(router, deps, spelling);
    registerSessionRoutes(router, deps, spelling);
    registerJobRoutes(router, deps, spelling);
    registerUploadRoutes(router, deps, spelling);
  }
  if (served.includes('v2')) registerMultipartRoutes(router, deps, multipart);
  if (leases && opts.shared) {
    registerLeaseRoutes(router, {
      leases, dataDir: opts.dataDir, sandboxRoots: readRoots, version: opts.shared.version, dataFormat: DATA_FORMAT, ttlMs: opts.shared.ttlMs,
      busy: () => ({ jobs: jobs.busy, ingest: ingest.busy }),
    });
  }
  // The Data Explorer's views (a shared service: each belongs to its client's lease).
  const explore = registerExploreRoutes(router, deps);
  const publicRouter = new Router();
  registerFileRoutes(publicRouter, deps);
  registerPartRoute(publicRouter, multipart);

  let port = 0;
  const server = createServer(
    createDispatcher({
      router, publicRouter, keyDigest: keyDigest(opts.apiKey), host, port: () => port, log,
      preflightHeaders: (path) => (publicRouter.match('PUT', path).kind === 'found' ? PART_CORS_HEADERS : undefined),
    }),
  );
  server.on('clientError', answerClientError);
  server.on('request', (_req, res) => {
    inFlight++;
    res.once('close', () => inFlight--);
  });
  // Large uploads and long streams must not hit Node's whole-request timeout; headers still must come quickly.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  try {
    port = await listen(server, opts.port ?? 0, host);
  } catch (e) {
    await multipart.close();
    await owned?.close().catch(() => undefined);
    throw e;
  }
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const baseUrl = `http://${urlHost}:${port}`;
  phases.mark('listen');
  vault.setBaseUrl(baseUrl);
  multipart.setBaseUrl(baseUrl);
  await ingest.recover();
  phases.mark('recover');
  log('info', `local service listening on ${baseUrl} (started in ${phases.summary()})`);
  leases?.start();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      leases?.stop();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await jobs.close();
      await ingest.close();
      await multipart.close();
      await explore?.closeAll();
      server.closeAllConnections();
      await stopped;
      await meta.flush();
      await history.flush();
      await owned?.close();
    })();
    return closing;
  };
  return { baseUrl, apiKey: opts.apiKey, port, close, readRoots };
}
