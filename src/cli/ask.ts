/**
 * `team-data ask`: upload files as data sources, ask in a session, print the answer as it
 * streams. Without a base URL it starts the embedded local service in-process, so the same client
 * code path is exercised against local and hosted services alike.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { TeamDataClient } from '../api/index';
import { answerBlocks } from '../shared/answerFold';
import { LANGUAGE_TYPES, SUPPORTED_EXTENSIONS, type Answer, type Dataset, type JobRequest, type LanguageType } from '../shared/domain';
import { fileExtension } from '../shared/fileNames';
import { UsageError, type AskArgs } from './args';
import { AnswerPrinter } from './answerPrinter';
import { cliSession } from './cliSession';
import { connectionOf, withClient } from './connect';
import { localUserId } from './localUser';
import { formatBytes } from '../shared/byteSize';
import { ProgressLine } from './progress';

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

async function checkFiles(files: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) {
    const path = resolve(f);
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new UsageError(`${f}: no such file`);
    if (!info.isFile()) throw new UsageError(`${f}: not a file`);
    const ext = fileExtension(path);
    if (!(SUPPORTED_EXTENSIONS as readonly string[]).includes(ext)) {
      throw new UsageError(`${f}: unsupported file type "${ext || 'none'}"; supported: ${SUPPORTED_EXTENSIONS.join(' ')}`);
    }
    if (info.size === 0) throw new UsageError(`${f}: the file is empty`);
    out.push(path);
  }
  return out;
}

/** The dataset named after the current folder, created on first use (like the extension does). */
async function defaultDataset(client: TeamDataClient, signal: AbortSignal): Promise<Pick<Dataset, 'id' | 'name'>> {
  const name = basename(process.cwd()) || 'team-data';
  for await (const d of client.datasets.iterate({ keyword: name, pageSize: 100 }, { signal })) {
    if (d.name === name) return d;
  }
  const created = await client.datasets.create({ name, description: 'Files analyzed with the team-data CLI' }, { signal });
  return { id: created.id, name };
}

/** The name of the dataset `--dataset` names (its CLI session is titled after it). */
async function datasetName(client: TeamDataClient, id: string, signal: AbortSignal): Promise<string> {
  for await (const d of client.datasets.iterate({ pageSize: 100 }, { signal })) if (d.id === id) return d.name;
  return id;
}

async function uploadAll(client: TeamDataClient, datasetId: string, paths: string[], io: Io): Promise<string[]> {
  const ids: string[] = [];
  const progress = new ProgressLine(io.err);
  for (const path of paths) {
    const name = basename(path);
    const { fileKey } = await client.files.upload(path, {
      signal: io.signal,
      onProgress: (sent: number, total: number) => {
        const pct = total > 0 ? Math.floor((sent / total) * 100) : 100;
        progress.update(`Uploading ${name} ${pct}% (${formatBytes(sent)} of ${formatBytes(total)})`, sent === total);
      },
    });
    progress.done(`Uploaded ${name}`);
    const ds = await client.dataSources.create(datasetId, { fileName: name, fileKey }, { signal: io.signal });
    const synched = await client.dataSources.waitUntilSynched(datasetId, ds.id, {
      signal: io.signal,
      intervalMs: 250,
      onStatus: (s) => progress.update(`Processing ${name}: ${s.status === 'invalid' ? 'waiting' : s.status}`),
    });
    progress.done(`Ready: ${name} (${synched.status})`);
    ids.push(ds.id);
  }
  return ids;
}

async function synchedSources(client: TeamDataClient, datasetId: string, signal: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  for await (const s of client.dataSources.iterate(datasetId, { statuses: ['synched'], pageSize: 100 }, { signal })) ids.push(s.id);
  return ids;
}

function languageOf(code: string | undefined): LanguageType | undefined {
  if (code === undefined) return undefined;
  if (!(LANGUAGE_TYPES as readonly string[]).includes(code)) {
    throw new UsageError(`--language must be one of ${LANGUAGE_TYPES.join(', ')}`);
  }
  return code as LanguageType;
}

async function runAsk(client: TeamDataClient, args: AskArgs, io: Io): Promise<number> {
  const language = languageOf(args.language);
  const paths = await checkFiles(args.files);
  let datasetId = args.dataset;
  let name: string | undefined;
  if (datasetId === undefined && paths.length > 0) ({ id: datasetId, name } = await defaultDataset(client, io.signal));
  let sourceIds: string[] | undefined;
  if (datasetId !== undefined) sourceIds = paths.length > 0 ? await uploadAll(client, datasetId, paths, io) : await synchedSources(client, datasetId, io.signal);
  if (name === undefined && datasetId !== undefined && args.session === undefined) name = await datasetName(client, datasetId, io.signal);
  // Not a new session per ask: the service keeps at most 150 (see cliSession.ts).
  const sessionId = args.session ?? (await cliSession(client, name, io));
  const req: JobRequest = { sessionId, question: args.question };
  if (datasetId !== undefined) req.datasetId = datasetId;
  if (sourceIds !== undefined) req.datasourceIdList = sourceIds;
  if (language !== undefined) req.languageType = language;

  // Colour only on a terminal, and never when the user asks for none (https://no-color.org).
  const color = (io.out as { isTTY?: boolean }).isTTY === true && !io.env['NO_COLOR'];
  const printer = new AnswerPrinter({ out: io.out, err: io.err, saveDir: resolve(args.out), signal: io.signal, color });
  let answer: Answer;
  if (args.stream) {
    const stream = client.jobs.stream(req, { signal: io.signal });
    for await (const ev of stream) {
      if (!args.json) printer.handle(ev);
      else if (ev.kind === 'TASK') printer.handle(ev);
    }
    answer = await stream.done;
  } else {
    answer = await client.jobs.run(req, { signal: io.signal });
    if (!args.json) for (const block of answerBlocks(answer)) printer.handle({ kind: 'BLOCK', block });
  }
  await printer.flush();
  if (args.json) {
    io.out.write(`${JSON.stringify(client.codec.encodeJobResult({ jobId: answer.jobId, blocks: answerBlocks(answer) }), null, 2)}\n`);
  }
  io.err.write(`Job ${answer.jobId} in session ${sessionId}${answer.state === 'done' ? '' : ` (${answer.state})`}\n`);
  return answer.state === 'done' ? 0 : 1;
}

export async function ask(args: AskArgs, io: Io): Promise<number> {
  // On the embedded service the sessions `ask` opens belong to the local user; a hosted service
  // gets the user id it was given, or none.
  const conn = connectionOf(args);
  if (conn.userId === undefined && conn.baseUrl === undefined) conn.userId = localUserId(io.env);
  return withClient(conn, io.env, (client) => runAsk(client, args, io));
}
