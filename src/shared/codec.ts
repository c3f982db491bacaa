/**
 * The wire codec interface: the only place that knows field, path and query spellings. The client
 * and the local service both go through a codec, so adding v2 means adding a codec, not editing
 * callers. {@link v1Codec} implements the contract, {@link v2Codec} the service's current API.
 */
import type { SseFrame } from './blockCodecV1';
import type {
  DataSource, Dataset, DatasetOverview, DatasetStatus, HistoryRecord, JobRequest, JobResult, NewDataSource,
  JobEvent, NewSession, Page, Session,
} from './domain';
import type { JsonObject } from './json';

/** Which spelling a request uses for list filters, so callers pass domain names only. */
export interface ListQuery {
  pageNumber?: number;
  pageSize?: number;
  keyword?: string;
  statuses?: readonly string[];
  userId?: string;
}

export interface WireCodec {
  readonly version: 'v1' | 'v2';
  readonly paths: {
    datasets: string;
    dataset(id: string): string;
    datasetStatus(id: string): string;
    datasetOverview(id: string): string;
    datasources(datasetId: string): string;
    datasource(datasetId: string, id: string): string;
    presign(datasetId: string, id: string): string;
    datasourcesWithoutDataset: string;
    upload: string;
    sessions: string;
    session(id: string): string;
    history(id: string): string;
    jobs: string;
  };
  /** Query string entries for a list call (resource decides which keyword name applies). */
  listQuery(resource: 'datasets' | 'sessions' | 'datasources' | 'history', q: ListQuery): Record<string, string>;
  /** The query name that carries the caller's user id. */
  readonly userIdParam: string;
  /** The multipart field that carries the file of an upload. */
  readonly uploadFileField: string;

  encodeDatasetBody(d: { name: string; description: string }): JsonObject;
  decodeDataset(raw: unknown): Dataset;
  decodeCreated(raw: unknown): { id: string };
  decodeDataSource(raw: unknown): DataSource;
  encodeDataSourceBody(d: NewDataSource, userId: string | undefined): JsonObject;
  decodeSession(raw: unknown): Session;
  encodeSessionBody(s: NewSession): JsonObject;
  encodeSessionPatch(s: Partial<NewSession>): JsonObject;
  decodeHistoryRecord(raw: unknown): HistoryRecord;
  decodePage<T>(raw: unknown, item: (r: unknown, field: string) => T): Page<T>;
  decodeJobResult(raw: unknown): JobResult;
  encodeJobBody(j: JobRequest, stream: boolean): JsonObject;
  decodeUploadResult(raw: unknown): { fileKey: string };
  decodeDatasetStatus(raw: unknown, datasetId: string): DatasetStatus;
  decodeDatasetOverview(raw: unknown): DatasetOverview;
  decodePresign(raw: unknown): { url: string; expiredAt?: string };
  /**
   * The JSON body of a DELETE: v2 names the caller there (`{"user_id"}`); v1 sends none (the user
   * id goes in the query), so this is undefined.
   */
  encodeDeleteBody(userId: string | undefined): JsonObject | undefined;
  /** One streamed frame (`event:` name and `data:` text) into a domain event. */
  decodeEvent(event: string, data: string): JobEvent;

  // Server side: the same spellings, other direction.
  encodeDataset(d: Dataset): JsonObject;
  encodeDataSource(d: DataSource): JsonObject;
  encodeSession(s: Session): JsonObject;
  encodePage<T>(p: Page<T>, item: (t: T) => JsonObject): JsonObject;
  encodeHistoryRecord(r: HistoryRecord): JsonObject;
  encodeJobResult(r: JobResult): JsonObject;
  encodeDatasetStatus(s: DatasetStatus): JsonObject;
  encodeDatasetOverview(o: DatasetOverview): JsonObject;
  /** A domain event as the SSE frame this version sends (undefined for events never sent). */
  encodeEvent(e: JobEvent, created: number): SseFrame | undefined;
}
