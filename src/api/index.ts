/**
 * Public API of the Team Data Analysis client (the one barrel of the project). Plain Node: no
 * vscode. Domain types are re-exported so callers need a single import.
 */
export { TeamDataClient } from './client';
export { TeamDataError, isTeamDataError, type ClientErrorCode, type TeamDataErrorCode } from './errors';
export type {
  ApiVersion, CallOptions, Logger, LogLevel, RetryOptions, TeamDataClientOptions, UserCallOptions,
} from './options';
export { JobStream } from './jobStream';
export { JobEventDecoder, type JobEventSink } from './sseDecoder';
export type { DatasetFields, DatasetsApi } from './datasets';
export type { DataSourcesApi, WaitOptions } from './dataSources';
export type { FilesApi, UploadOptions } from './files';
export type { SessionsApi } from './sessions';
export type { JobsApi } from './jobs';
export type { ProgressListener } from './multipart';
export { parseRetryAfter } from './retry';
export { DownloadError, describeUrl, downloadFile, type DownloadedFile, type DownloadOptions } from './fileDownload';
export type { ListQuery, WireCodec } from '../shared/codec';
export { v1Codec } from '../shared/codecV1';
export { v2Codec } from '../shared/codecV2';
export { API_VERSIONS } from './options';
export { ErrorCode, describeErrorCode } from '../shared/errorCodes';
export type {
  Answer, AnswerGroup, AnswerState, Block, BlockType, DataSource, DataSourceStatus, Dataset, DatasetOverview,
  DatasetStatus, FileRef, HistoryRecord, JobEvent, JobRequest, JobResult, JobMode, LanguageType, NewDataSource,
  NewSession, Page, Session, SourceRef, Stage, Task, TaskStatus,
} from '../shared/domain';
