/** What routes and workers of the local service share; built once by `startLocalService`. */
import type { AnalysisEngine, DataStore } from './engine';
import type { FileVault } from './files/fileVault';
import type { MinBodyRate } from './http/bodyRate';
import type { IngestQueue } from './ingest/ingestQueue';
import type { JobRunner } from './jobs/jobRunner';
import type { DataPaths } from './state/dataPaths';
import type { HistoryStore } from './state/historyStore';
import type { Logger, MetaStore } from './state/metaStore';
import type { ModelEndpoint } from '../shared/localModel';

export interface ServiceDeps {
  meta: MetaStore;
  history: HistoryStore;
  vault: FileVault;
  store: DataStore;
  engine: AnalysisEngine;
  ingest: IngestQueue;
  jobs: JobRunner;
  paths: DataPaths;
  log: Logger;
  maxUploadBytes: number;
  /** Real paths of the folders whose files may be read in place (see readRoots.ts). */
  readRoots: readonly string[];
  /** Read in place files that have other hard links too (`--read-hard-links`; see readRoots.ts). */
  readHardLinks?: boolean;
  /**
   * Where the client holding `leaseId` may make new in-place sources (a shared service: the
   * folders it registered with that lease; none without a live lease). Absent: every read root.
   */
  inPlaceRoots?: (leaseId: string | undefined) => readonly string[] | undefined;
  /** The language model the client holding `leaseId` chose for its questions (a shared service). */
  modelFor?: (leaseId: string | undefined) => ModelEndpoint | undefined;
  keepAliveMs: number;
  /** What every window of an upload body must bring (see http/bodyRate.ts). */
  uploadMinRate: MinBodyRate;
}
