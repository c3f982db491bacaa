/**
 * Drives the local engine directly (real DuckDB store, real files on disk) and collects what an
 * answer contains: steps, CODE, TABLE (parsed CSV), IMAGE, message, QUESTIONS, SOURCES. Also runs an
 * answer's shown SQL in a fresh DuckDB next to the original files, to prove it runs as-is.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { DuckDbStore } from '../../src/server/duckdb/duckDbStore';
import { toPlain } from '../../src/server/duckdb/plainValues';
import type { AnswerContext, IngestResult, PriorTurn } from '../../src/server/engine';
import { LocalAnalysisEngine, type LocalEngineOptions } from '../../src/server/engine/localEngine';
import { parseCsv } from '../../src/shared/csv';
import type { Block, DataSource, JobEvent, JobMode, LanguageType, SourceRef } from '../../src/shared/domain';
import type { GlossaryEntry } from '../../src/shared/glossary';
import type { ModelEndpoint } from '../../src/shared/localModel';

export interface Collected {
  events: JobEvent[];
  message: string;
  code: string[];
  /** Parsed TABLE files (header first), in order. */
  tables: string[][][];
  images: string[];
  questions: string[];
  sources: SourceRef[];
  steps: Array<{ name: string; status: string }>;
}

export interface AskOptions {
  history?: string[];
  jobMode?: JobMode;
  languageType?: LanguageType;
  /** The asking client's model (a VS Code window's choice). */
  model?: ModelEndpoint;
  glossary?: GlossaryEntry[];
  define?: (entry: GlossaryEntry) => Promise<void>;
  signal?: AbortSignal;
}

export interface EngineRig {
  dir: string;
  store: DuckDbStore;
  engine: LocalAnalysisEngine;
  sources: Map<string, { source: DataSource; ingest: IngestResult }>;
  ask(question: string, files: readonly string[], opts?: AskOptions): Promise<Collected>;
  close(): Promise<void>;
}

/** Writes the files into a temp folder, ingests them through the real store, and builds the engine. */
export async function startRig(files: Record<string, string | Buffer>, options: LocalEngineOptions = { llm: null }, rig: { inPlace?: boolean } = {}): Promise<EngineRig> {
  const dir = await mkdtemp(join(tmpdir(), 'team-data-engine-'));
  const dataDir = join(dir, 'data');
  const filesDir = join(dir, 'files');
  // TEAM_DATA_TEST_IN_PLACE=1: CSV, TSV and Parquet files are read where they are (views over the
  // file, as the extension does for workspace files), so every suite can check that path too.
  // TEAM_DATA_TEST_IN_PLACE=cache: the same, with every CSV's columnar copy kept however small the
  // file (the service keeps one under 25% of the file only), so the suites check answers from copies.
  const mode = process.env['TEAM_DATA_TEST_IN_PLACE'];
  const inPlace = rig.inPlace ?? (mode === '1' || mode === 'cache');
  await (await import('node:fs/promises')).mkdir(filesDir, { recursive: true });
  const store = await DuckDbStore.open(dataDir, inPlace ? { readableDirs: [filesDir], ...(mode === 'cache' ? { maxCacheShare: Infinity, minCacheBytes: 0 } : {}) } : {});
  const sources = new Map<string, { source: DataSource; ingest: IngestResult }>();
  let n = 0;
  for (const [name, contents] of Object.entries(files)) {
    const path = join(filesDir, name);
    await writeFile(path, contents);
    const source: DataSource = { id: `src-${++n}`, datasetId: 'ds-1', name, fileName: name, type: 'FILE', status: 'synched', size: Buffer.byteLength(contents) };
    const readInPlace = inPlace && /\.(csv|tsv|parquet)(\.gz)?$/i.test(name);
    const read = await store.ingest(source, path, new AbortController().signal, readInPlace ? { inPlace: true } : {});
    // The copy is written after the read, as the ingest queue asks for it; the suites answer from it.
    const ingest = (mode === 'cache' && readInPlace ? await store.writeCopy(source.id) : undefined) ?? read;
    sources.set(name, { source, ingest });
  }
  const engine = new LocalAnalysisEngine(store, options);
  return {
    dir: filesDir, store, engine, sources,
    async ask(question, names, opts = {}) {
      const selected = names.map((f) => {
        const s = sources.get(f);
        if (!s) throw new Error(`unknown file ${f}`);
        return s;
      });
      const prior: PriorTurn[] = (opts.history ?? []).map((q) => ({ question: q, blocks: [] }));
      const published = new Map<string, string>();
      const events: JobEvent[] = [];
      const ctx: AnswerContext = {
        jobId: 'job-1', question, languageType: opts.languageType ?? 'EN', jobMode: opts.jobMode ?? 'AUTO', sources: selected, history: prior,
        emit: (e) => events.push(e), signal: opts.signal ?? new AbortController().signal,
        ...(opts.model !== undefined ? { model: opts.model } : {}),
        ...(opts.glossary !== undefined ? { glossary: opts.glossary } : {}),
        ...(opts.define !== undefined ? { define: opts.define } : {}),
        publishFile: async (name, contents) => {
          const url = `http://127.0.0.1/files/${published.size}/${name}`;
          published.set(url, typeof contents === 'string' ? contents : Buffer.from(contents).toString('utf-8'));
          return { url, name, expiredAt: new Date(Date.now() + 3_600_000).toISOString() };
        },
      };
      await engine.answer(ctx);
      return collect(events, published);
    },
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function collect(events: JobEvent[], published: Map<string, string>): Collected {
  const out: Collected = { events, message: '', code: [], tables: [], images: [], questions: [], sources: [], steps: [] };
  for (const e of events) {
    if (e.kind === 'TASK') {
      const existing = out.steps.find((s) => s.name === e.task.name);
      if (existing) existing.status = e.task.status;
      else out.steps.push({ name: e.task.name, status: e.task.status });
    }
    if (e.kind !== 'BLOCK') continue;
    const b: Block = e.block;
    if (b.type === 'MESSAGE') out.message += b.content;
    if (b.type === 'CODE') out.code.push(b.content);
    if (b.type === 'TABLE') out.tables.push(parseCsv(published.get(b.content.url) ?? ''));
    if (b.type === 'IMAGE') out.images.push(published.get(b.content.url) ?? '');
    if (b.type === 'QUESTIONS') out.questions.push(...b.content);
    if (b.type === 'SOURCES') out.sources.push(...b.content);
  }
  return out;
}

/** The statements of a ```sql block (comments kept, split by DuckDB itself). */
function codeBody(code: string): string {
  return code.replace(/^`{3,}sql\n/, '').replace(/\n`{3,}$/, '');
}

/**
 * Runs a shown CODE block in a fresh in-memory DuckDB whose file search path is the folder with the
 * original files, exactly as a user would. Returns each statement's rows as plain values.
 */
export async function runShownSql(code: string, filesDir: string): Promise<Array<{ columns: string[]; rows: unknown[][] }>> {
  const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  const conn = await instance.connect();
  try {
    await conn.run(`SET file_search_path = '${filesDir.replace(/'/g, "''")}'`);
    const extracted = await conn.extractStatements(codeBody(code));
    const out: Array<{ columns: string[]; rows: unknown[][] }> = [];
    for (let i = 0; i < extracted.count; i++) {
      const reader = await (await extracted.prepare(i)).runAndReadAll();
      out.push({ columns: reader.columnNames(), rows: reader.getRows().map((r) => r.map(toPlain)) });
    }
    return out;
  } finally {
    conn.disconnectSync();
    instance.closeSync();
  }
}
