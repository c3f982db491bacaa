/**
 * `team-data sessions list|delete` and `team-data datasets list|delete`: what the service holds,
 * and the way out of its session limit from the command line. Lists go to stdout (a table, or JSON
 * with --json), counts and failures to stderr. A delete that fails for one id carries on with the
 * others and ends with exit code 1.
 *
 * On the embedded service a command without a user id sees every user's sessions (`ask`'s, the
 * MCP server's): the limit counts them all, so that is what making room needs.
 */
import type { TeamDataClient } from '../api/index';
import { MAX_SESSIONS, type Dataset, type Session } from '../shared/domain';
import type { DatasetsArgs, SessionPick, SessionsArgs } from './args';
import { connectionOf, withClient } from './connect';
import { describeFailure } from './failure';
import { oneLine, renderTextTable } from './textTable';

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/** Per-record look-ups (history counts, source counts) at most this many at a time. */
const PARALLEL = 8;

async function mapLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));
  return out;
}

async function allOf<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of records) out.push(r);
  return out;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A count that could not be had is shown as unknown rather than failing the whole list. */
async function countOr(signal: AbortSignal, count: () => Promise<number>): Promise<number | null> {
  try {
    return await count();
  } catch (err) {
    if (signal.aborted) throw err;
    return null;
  }
}

function printTable(io: Io, header: string[], rows: string[][]): void {
  if (rows.length > 0) io.out.write(`${renderTextTable([header, ...rows], { maxRows: rows.length, maxCellWidth: 60 })}\n`);
}

// --- sessions -----------------------------------------------------------------------------------

interface ListedSession extends Session {
  /** Questions asked in the session (its history), or null when the service would not say. */
  turns: number | null;
}

async function listSessions(client: TeamDataClient, args: Extract<SessionsArgs, { action: 'list' }>, io: Io): Promise<number> {
  const opts = { signal: io.signal };
  const sessions = await allOf(client.sessions.iterate({ pageSize: 100 }, opts));
  // The contract's session record has no creation time; the listing itself is newest first.
  const listed: ListedSession[] = await mapLimited(sessions, async (s) => ({
    ...s,
    turns: await countOr(io.signal, async () => (await client.sessions.history(s.id, { pageSize: 1 }, opts)).total),
  }));
  if (args.json) io.out.write(`${JSON.stringify(listed, null, 2)}\n`);
  else {
    // Without a user id every user's sessions are listed: then say whose each one is.
    const owners = args.userId === undefined;
    printTable(io, ['ID', 'TITLE', 'QUESTIONS', ...(owners ? ['USER'] : [])], listed.map((s) => [
      s.id, s.title, s.turns === null ? '?' : String(s.turns), ...(owners ? [s.userId ?? '-'] : []),
    ]));
  }
  io.err.write(`${plural(listed.length, 'session')}, newest first (the service keeps at most ${MAX_SESSIONS})\n`);
  return 0;
}

/** The sessions `pick` names; the listing is newest first, so the oldest are its tail. */
async function pickedSessions(client: TeamDataClient, pick: SessionPick, io: Io): Promise<Array<{ id: string; title?: string }>> {
  if ('ids' in pick) return pick.ids.map((id) => ({ id }));
  const all = await allOf(client.sessions.iterate({ pageSize: 100 }, { signal: io.signal }));
  return 'oldest' in pick ? all.slice(Math.max(0, all.length - pick.oldest)).reverse() : all;
}

async function deleteSessions(client: TeamDataClient, pick: SessionPick, io: Io): Promise<number> {
  const opts = { signal: io.signal };
  const targets = await pickedSessions(client, pick, io);
  let deleted = 0;
  let failed = 0;
  for (const t of targets) {
    try {
      // Asked for by id: fetch it first, so the user sees which session went (and a wrong id is
      // reported as not found before anything happens).
      const title = t.title ?? (await client.sessions.get(t.id, opts)).title;
      await client.sessions.delete(t.id, opts);
      io.out.write(`Deleted session ${oneLine(t.id)}  ${oneLine(title)}\n`);
      deleted++;
    } catch (err) {
      if (io.signal.aborted) throw err;
      io.err.write(`team-data: could not delete session ${oneLine(t.id)}: ${describeFailure(err)}\n`);
      failed++;
    }
  }
  const left = await countOr(io.signal, async () => (await client.sessions.list({ pageSize: 1 }, opts)).total);
  const short = 'oldest' in pick && targets.length < pick.oldest ? ` (there were only ${targets.length})` : '';
  io.err.write(`Deleted ${plural(deleted, 'session')}${short}${failed > 0 ? `, ${failed} could not be deleted` : ''}`
    + `${left === null ? '' : `; ${left} left (the service keeps at most ${MAX_SESSIONS})`}\n`);
  return failed > 0 ? 1 : 0;
}

export async function sessionsCommand(args: SessionsArgs, io: Io): Promise<number> {
  return withClient(connectionOf(args), io.env, (client) => (args.action === 'list' ? listSessions(client, args, io) : deleteSessions(client, args.pick, io)));
}

// --- datasets -----------------------------------------------------------------------------------

interface ListedDataset extends Dataset {
  /** Data sources (files) in the dataset, or null when the service would not say. */
  sources: number | null;
}

async function listDatasets(client: TeamDataClient, args: Extract<DatasetsArgs, { action: 'list' }>, io: Io): Promise<number> {
  const opts = { signal: io.signal };
  const datasets = await allOf(client.datasets.iterate({ pageSize: 100 }, opts));
  const listed: ListedDataset[] = await mapLimited(datasets, async (d) => ({
    ...d,
    sources: await countOr(io.signal, async () => (await client.dataSources.list(d.id, { pageSize: 1 }, opts)).total),
  }));
  if (args.json) io.out.write(`${JSON.stringify(listed, null, 2)}\n`);
  else printTable(io, ['ID', 'NAME', 'SOURCES'], listed.map((d) => [d.id, d.name, d.sources === null ? '?' : String(d.sources)]));
  io.err.write(`${plural(listed.length, 'dataset')}\n`);
  return 0;
}

async function deleteDatasets(client: TeamDataClient, ids: readonly string[], io: Io): Promise<number> {
  const opts = { signal: io.signal };
  // One listing gives every name to report (datasets have no single-record read in the contract).
  const names = new Map((await allOf(client.datasets.iterate({ pageSize: 100 }, opts))).map((d) => [d.id, d.name]));
  let deleted = 0;
  let failed = 0;
  for (const id of ids) {
    try {
      await client.datasets.delete(id, opts);
      const name = names.get(id);
      io.out.write(`Deleted dataset ${oneLine(id)}${name === undefined ? '' : `  ${oneLine(name)}`}\n`);
      deleted++;
    } catch (err) {
      if (io.signal.aborted) throw err;
      io.err.write(`team-data: could not delete dataset ${oneLine(id)}: ${describeFailure(err)}\n`);
      failed++;
    }
  }
  io.err.write(`Deleted ${plural(deleted, 'dataset')}${failed > 0 ? `, ${failed} could not be deleted` : ''}\n`);
  return failed > 0 ? 1 : 0;
}

export async function datasetsCommand(args: DatasetsArgs, io: Io): Promise<number> {
  return withClient(connectionOf(args), io.env, (client) => (args.action === 'list' ? listDatasets(client, args, io) : deleteDatasets(client, args.ids, io)));
}
