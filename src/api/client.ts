/**
 * The client: one object per service (hosted or local), holding the key, the user id and the
 * codec, with a namespace per resource.
 */
import { DataSourcesApi } from './dataSources';
import { DatasetsApi } from './datasets';
import { FilesApi } from './files';
import { JobsApi } from './jobs';
import { resolveOptions, type TeamDataClientOptions } from './options';
import { SessionsApi } from './sessions';
import type { WireCodec } from '../shared/codec';
import { Transport } from './transport';

/**
 * Client of the Team Data Analysis Service (or the embedded local service, which speaks the same
 * API). Every method takes a last optional `{ signal, traceId }` and rejects with a
 * {@link TeamDataError}.
 *
 * @example
 * const client = new TeamDataClient({ baseUrl: 'http://127.0.0.1:4321', apiKey, userId });
 * const { id } = await client.sessions.create({ title: 'Sales' });
 * const job = client.jobs.stream({ sessionId: id, question: 'Give me an overview of this data' });
 * for await (const event of job) render(event);
 * const answer = await job.done;
 */
export class TeamDataClient {
  readonly datasets: DatasetsApi;
  readonly dataSources: DataSourcesApi;
  readonly files: FilesApi;
  readonly sessions: SessionsApi;
  readonly jobs: JobsApi;
  /** The normalised base URL (no trailing slash). */
  readonly baseUrl: string;
  /** The wire codec in use (from `apiVersion` or `codec`); `codec.version` says which API. */
  readonly codec: WireCodec;

  /** @throws TeamDataError `INVALID_ARGUMENT` for a bad base URL, key or option. */
  constructor(options: TeamDataClientOptions) {
    const resolved = resolveOptions(options);
    const t = new Transport(resolved);
    this.baseUrl = resolved.baseUrl;
    this.codec = resolved.codec;
    this.datasets = new DatasetsApi(t);
    this.dataSources = new DataSourcesApi(t);
    this.files = new FilesApi(t);
    this.sessions = new SessionsApi(t);
    this.jobs = new JobsApi(t, resolved);
  }
}
