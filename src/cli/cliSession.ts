/**
 * The session `team-data ask` uses when it is not given one. The service keeps at most
 * MAX_SESSIONS sessions, so a new session per ask would fill that after 150 asks and make every
 * further ask (and every new chat in VS Code) fail. Instead each dataset gets ONE CLI session,
 * titled "CLI: <dataset name>", found by listing sessions and made on first use.
 *
 * A reused session must not change answers: the engine reads a question against the session's
 * earlier questions (the last `maxMessagesInContext` of them), so "average price" after "price by
 * region" could be read as a change to that earlier answer, and a model-backed engine sees the
 * earlier questions in its prompt. The CLI session is therefore made with
 * `maxMessagesInContext: 0`: every ask is read on its own, exactly as in a fresh session, while the
 * answers still land in one history the user can browse. `--session ID` keeps follow-ups.
 *
 * The title prefix together with the zero context marks a session as the CLI's own. Only such a
 * session is reused, and only such sessions are ever deleted without being asked: when the limit is
 * reached and a new dataset needs its CLI session, the oldest CLI session (of another dataset; its
 * answers were printed and saved when they were asked) makes room, and the command says so. The
 * user's other sessions are never touched: without a CLI session to replace, ask fails, and the
 * failure names the command that makes room (see failure.ts).
 */
import { isTeamDataError, type TeamDataClient } from '../api/index';
import { ErrorCode } from '../shared/errorCodes';
import { MAX_SESSIONS, MAX_TITLE_LENGTH, type Session } from '../shared/domain';
import { oneLine } from './textTable';

export const CLI_TITLE_PREFIX = 'CLI: ';

export function cliSessionTitle(datasetName: string | undefined): string {
  return `${CLI_TITLE_PREFIX}${datasetName ?? '(no dataset)'}`.slice(0, MAX_TITLE_LENGTH);
}

/** Made by `cliSession` (a user's own session keeps earlier questions as context). */
export function isCliSession(s: Session): boolean {
  return s.title.startsWith(CLI_TITLE_PREFIX) && s.maxMessagesInContext === 0;
}

interface SessionIo {
  err: NodeJS.WritableStream;
  signal: AbortSignal;
}

/** The id of the CLI session for the dataset, made (making room among CLI sessions) when missing. */
export async function cliSession(client: TeamDataClient, datasetName: string | undefined, io: SessionIo): Promise<string> {
  const title = cliSessionTitle(datasetName);
  const opts = { signal: io.signal };
  for await (const s of client.sessions.iterate({ keyword: title, pageSize: 100 }, opts)) {
    if (s.title === title && isCliSession(s)) return s.id;
  }
  const create = async (): Promise<string> => (await client.sessions.create({ title, maxMessagesInContext: 0 }, opts)).id;
  try {
    return await create();
  } catch (err) {
    if (!isTeamDataError(err) || err.code !== ErrorCode.SESSION_LIMIT) throw err;
    // The listing is newest first, so the last CLI session seen is the oldest one.
    let oldest: Session | undefined;
    for await (const s of client.sessions.iterate({ pageSize: 100 }, opts)) if (isCliSession(s)) oldest = s;
    if (oldest === undefined) throw err;
    await client.sessions.delete(oldest.id, opts);
    io.err.write(`The service holds its maximum of ${MAX_SESSIONS} sessions: deleted the oldest CLI session "${oneLine(oldest.title)}" (${oneLine(oldest.id)}) to make room.\n`);
    return create();
  }
}
