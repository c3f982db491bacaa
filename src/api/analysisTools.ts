/**
 * The analysis tools agents call (the MCP server, VS Code's language-model tools): analyze local
 * files, ask about a dataset, list datasets. Plain client calls against any service, local or
 * hosted, so every caller gets the same behaviour; the text they return is in toolText.ts.
 *
 * A tool keeps one service session per dataset for as long as it lives, so a follow-up question
 * has the earlier ones as context, and reuses a file's data source while the file is unchanged.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import type { Answer, DataSource, Dataset } from '../shared/domain';
import { HOSTED_EXTENSIONS, MAX_QUESTION_LENGTH, SUPPORTED_EXTENSIONS } from '../shared/domain';
import { fileExtension } from '../shared/fileNames';
import type { TeamDataClient } from './client';
import type { JobStream } from './jobStream';
import { OutsideRootsError } from './toolRoots';

/**
 * Where a path the tool was given leads: the real path of a file it may read, undefined when it
 * names nothing, an OutsideRootsError when it may not be read (see toolRoots.ts).
 */
export type PathResolver = (path: string) => Promise<string | undefined>;

/** A mistake in the tool's input (a missing file, an unsupported type): the caller's to fix. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolInputError';
  }
}

export interface ToolRun {
  signal?: AbortSignal;
  /** Progress for anything slower than a moment (uploads, processing, the analysis). */
  progress?(message: string): void;
}

/** What a question is asked about: a dataset and the ids and names of its files in use. */
export interface ToolTarget {
  dataset: Dataset;
  ids: string[];
  files: string[];
}

export interface ToolAnswer {
  question: string;
  dataset: Dataset;
  files: string[];
  sessionId: string;
  answer: Answer;
}

/** At most this many files per call: an agent passing a whole folder gets a clear error. */
const MAX_FILES = 20;

export class AnalysisTools {
  /** Session per dataset, so follow-ups have context. */
  private readonly sessions = new Map<string, string>();
  /** Data source per file path while its size and modification time are unchanged. */
  private readonly uploaded = new Map<string, { size: number; mtimeMs: number; datasetId: string; id: string }>();

  /**
   * `root`: relative paths are resolved against it (the workspace, or the MCP server's folder).
   * `hosted`: the service is a hosted one, which accepts fewer file types than the local service.
   * `where`: decides where each path leads and whether it may be read (the MCP server's roots);
   * without it, any path is taken as written, relative ones from `root`.
   */
  constructor(private readonly client: TeamDataClient, private readonly root: string = process.cwd(), private readonly hosted = false, private readonly where?: PathResolver) {}

  async listDatasets(run: ToolRun = {}): Promise<Array<{ dataset: Dataset; sources: DataSource[] }>> {
    const out: Array<{ dataset: Dataset; sources: DataSource[] }> = [];
    for await (const dataset of this.client.datasets.iterate({ pageSize: 100 }, withSignal(run))) {
      const sources: DataSource[] = [];
      for await (const s of this.client.dataSources.iterate(dataset.id, { pageSize: 100 }, withSignal(run))) sources.push(s);
      out.push({ dataset, sources });
      if (out.length >= 200) break;
    }
    return out;
  }

  /** Uploads (or reuses) the files into the dataset named after their folder and asks about them. */
  async analyzeFiles(paths: readonly string[], question: string, run: ToolRun = {}): Promise<ToolAnswer> {
    const q = checkQuestion(question);
    return this.ask(await this.prepareFiles(paths, run), q, run);
  }

  /** Asks about a dataset (by id or exact name), using its ready files. */
  async askDataset(datasetRef: string, question: string, run: ToolRun = {}): Promise<ToolAnswer> {
    const q = checkQuestion(question);
    return this.ask(await this.findDataset(datasetRef, run), q, run);
  }

  /** The files as ready data sources of the dataset named after their folder (uploaded or reused). */
  async prepareFiles(paths: readonly string[], run: ToolRun = {}): Promise<ToolTarget> {
    const files = await this.checkFiles(paths);
    const dataset = await this.datasetNamed(basename(dirname(files[0] as string)) || 'Files', run);
    const ids: string[] = [];
    for (const path of files) ids.push(await this.sourceFor(dataset, path, run));
    return { dataset, ids, files: files.map((f) => basename(f)) };
  }

  /** A dataset by id or exact name, with its ready files. */
  async findDataset(datasetRef: string, run: ToolRun = {}): Promise<ToolTarget> {
    const ref = datasetRef.trim();
    let dataset: Dataset | undefined;
    for await (const d of this.client.datasets.iterate({ pageSize: 100 }, withSignal(run))) {
      if (d.id === ref || d.name === ref) {
        dataset = d;
        break;
      }
    }
    if (!dataset) throw new ToolInputError(`no dataset is called or has the id "${ref}"; list the datasets to see their names`);
    const ready: DataSource[] = [];
    for await (const s of this.client.dataSources.iterate(dataset.id, { statuses: ['synched'], pageSize: 100 }, withSignal(run))) ready.push(s);
    if (ready.length === 0) throw new ToolInputError(`the dataset "${dataset.name}" has no file ready to answer from`);
    return { dataset, ids: ready.map((s) => s.id), files: ready.map((s) => s.fileName || s.name) };
  }

  /**
   * Starts the question as a streamed job. `sessionId`: ask there (a chat conversation keeps its
   * own); otherwise the tool's session for the dataset, created on first use.
   */
  async start(target: ToolTarget, question: string, run: ToolRun = {}, sessionId?: string): Promise<{ sessionId: string; stream: JobStream }> {
    const q = checkQuestion(question);
    let session = sessionId ?? this.sessions.get(target.dataset.id);
    if (session === undefined) {
      session = (await this.client.sessions.create({ title: `Agent: ${target.dataset.name}`.slice(0, 60) }, withSignal(run))).id;
      this.sessions.set(target.dataset.id, session);
    }
    const stream = this.client.jobs.stream({ sessionId: session, question: q, datasetId: target.dataset.id, datasourceIdList: target.ids }, withSignal(run));
    return { sessionId: session, stream };
  }

  private async ask(target: ToolTarget, question: string, run: ToolRun): Promise<ToolAnswer> {
    run.progress?.(`Analyzing ${target.files.length === 1 ? target.files[0] : `${target.files.length} files`}…`);
    const { sessionId, stream } = await this.start(target, question, run);
    for await (const ev of stream) {
      if (ev.kind === 'TASK' && ev.task.status === 'running' && ev.task.name) run.progress?.(ev.task.name);
    }
    return { question, dataset: target.dataset, files: target.files, sessionId, answer: await stream.done };
  }

  private async checkFiles(paths: readonly string[]): Promise<string[]> {
    if (paths.length === 0) throw new ToolInputError('name at least one file to analyze');
    if (paths.length > MAX_FILES) throw new ToolInputError(`at most ${MAX_FILES} files per question (got ${paths.length})`);
    const out: string[] = [];
    for (const p of paths) {
      const path = await this.locate(p);
      const info = path === undefined ? undefined : await stat(path).catch(() => undefined);
      if (path === undefined || !info) throw new ToolInputError(`${p}: no such file`);
      if (!info.isFile()) throw new ToolInputError(`${p}: not a file`);
      const ext = fileExtension(path);
      const accepted: readonly string[] = this.hosted ? HOSTED_EXTENSIONS : SUPPORTED_EXTENSIONS;
      if (!accepted.includes(ext)) {
        const localOnly = this.hosted && (SUPPORTED_EXTENSIONS as readonly string[]).includes(ext);
        throw new ToolInputError(localOnly
          ? `${p}: the hosted service does not accept "${ext}" files (only the embedded local service reads them); convert the file to CSV first, or use the local service; the hosted service accepts: ${HOSTED_EXTENSIONS.join(' ')}`
          : `${p}: files of type "${ext || 'none'}" cannot be analyzed; supported: ${accepted.join(' ')}`);
      }
      if (info.size === 0) throw new ToolInputError(`${p}: the file is empty`);
      out.push(path);
    }
    return out;
  }

  private async locate(p: string): Promise<string | undefined> {
    if (!this.where) return isAbsolute(p) ? p : resolve(this.root, p);
    try {
      return await this.where(p);
    } catch (e) {
      if (e instanceof OutsideRootsError) throw new ToolInputError(`${p}: ${e.message}`);
      throw e;
    }
  }

  private async datasetNamed(name: string, run: ToolRun): Promise<Dataset> {
    for await (const d of this.client.datasets.iterate({ keyword: name, pageSize: 100 }, withSignal(run))) if (d.name === name) return d;
    const { id } = await this.client.datasets.create({ name, description: 'Files analyzed by an agent' }, withSignal(run));
    return { id, name, description: 'Files analyzed by an agent' };
  }

  private async sourceFor(dataset: Dataset, path: string, run: ToolRun): Promise<string> {
    const info = await stat(path);
    const known = this.uploaded.get(path);
    if (known && known.datasetId === dataset.id && known.size === info.size && known.mtimeMs === info.mtimeMs) {
      const still = await this.client.dataSources.get(dataset.id, known.id, withSignal(run)).catch(() => undefined);
      if (still?.status === 'synched') return known.id;
    }
    const name = basename(path);
    run.progress?.(`Uploading ${name}…`);
    const { fileKey } = await this.client.files.upload(path, withSignal(run));
    const created = await this.client.dataSources.create(dataset.id, { fileName: name, fileKey }, withSignal(run));
    run.progress?.(`Reading ${name}…`);
    const ready = await this.client.dataSources.waitUntilSynched(dataset.id, created.id, { ...withSignal(run), intervalMs: 250 });
    if (ready.status !== 'synched') throw new ToolInputError(`${name} could not be read: ${ready.error ?? 'the service could not process it'}`);
    this.uploaded.set(path, { size: info.size, mtimeMs: info.mtimeMs, datasetId: dataset.id, id: created.id });
    return created.id;
  }
}

function checkQuestion(question: string): string {
  const q = question.trim();
  if (q === '') throw new ToolInputError('the question is empty');
  if (q.length > MAX_QUESTION_LENGTH) throw new ToolInputError(`the question is longer than ${MAX_QUESTION_LENGTH} characters`);
  return q;
}

function withSignal(run: ToolRun): { signal?: AbortSignal } {
  return run.signal ? { signal: run.signal } : {};
}
