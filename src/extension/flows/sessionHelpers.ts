/**
 * Creating sessions with the user's settings, and the way out of the session limit: when the
 * service reports it (300009), offer to delete the oldest sessions, then try once more.
 */
import { uniqueTitle } from '../../shared/titleText';
import { isTeamDataError, type TeamDataClient } from '../../api/index';
import { ErrorCode } from '../../shared/errorCodes';
import { MAX_TITLE_LENGTH, type NewSession, type Session } from '../../shared/domain';
import { readSettings } from '../config';
import type { Services } from '../services';

/** How many sessions the limit dialog proposes to delete. */
const PROPOSE_OLDEST = 5;

export function newSessionBody(title: string): NewSession {
  const settings = readSettings();
  return {
    title: title.slice(0, MAX_TITLE_LENGTH),
    languageType: settings.language,
    jobMode: settings.jobMode,
    maxMessagesInContext: settings.maxMessagesInContext,
  };
}

/** Creates a session; on the session limit, offers deleting old ones and retries once. */
export async function createSession(s: Services, client: TeamDataClient, wanted: string): Promise<string> {
  // Two sessions named alike cannot be told apart in the tree or the panel: number the second one.
  const recent = await client.sessions.list({ pageSize: 100 }).then((p) => p.records.map((r) => r.title), () => []);
  const title = uniqueTitle(wanted, recent);
  try {
    return (await client.sessions.create(newSessionBody(title))).id;
  } catch (err) {
    if (!isTeamDataError(err) || err.code !== ErrorCode.SESSION_LIMIT) throw err;
    s.log.warn(`Session limit reached (trace id ${err.traceId ?? 'none'})`);
    const deleted = await offerDeleteOldSessions(s, client, 'The service holds the maximum number of sessions, so no new one can be created.');
    if (deleted === 0) throw err;
    const { id } = await client.sessions.create(newSessionBody(title));
    s.sessions.refresh();
    return id;
  }
}

/**
 * Lets the user delete old sessions (the oldest pre-selected). The service lists newest first
 * (the local service by creation time; the hosted one as its history does), so the tail of the
 * listing is the oldest. Returns how many were deleted.
 */
export async function offerDeleteOldSessions(s: Services, client: TeamDataClient, why?: string): Promise<number> {
  if (why) {
    const go = await s.prompts.choose(`${why} Delete old sessions to make room?`, ['Choose Sessions to Delete…'] as const, { modal: true, level: 'warning' });
    if (go === undefined) return 0;
  }
  const all: Session[] = [];
  for await (const x of client.sessions.iterate({ pageSize: 100 })) all.push(x);
  const oldestFirst = all.reverse();
  const items = oldestFirst.map((x, i) => ({
    label: x.title.trim() || 'Untitled session',
    description: i < PROPOSE_OLDEST ? 'among the oldest' : undefined,
    picked: i < PROPOSE_OLDEST,
    value: x,
  }));
  const chosen = await s.prompts.pickMany(items, { title: 'Delete sessions (oldest first)', placeHolder: 'Selected sessions are deleted with their history' });
  if (!chosen || chosen.length === 0) return 0;
  const ok = await s.prompts.confirm(`Delete ${chosen.length} session${chosen.length === 1 ? '' : 's'} and their history?`, {
    detail: 'This cannot be undone.',
    confirmLabel: 'Delete',
  });
  if (!ok) return 0;
  let deleted = 0;
  for (const x of chosen) {
    try {
      await client.sessions.delete(x.id);
      s.panels.closeSession(x.id);
      deleted++;
    } catch (err) {
      s.notifier.failure(`delete the session "${x.title}"`, err);
    }
  }
  s.sessions.refresh();
  return deleted;
}
