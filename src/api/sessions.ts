/**
 * Sessions and their history. A team holds at most 150 sessions; creating one more fails with the
 * service's code 300009, whose message tells the user to delete sessions first.
 */
import type { ListQuery } from '../shared/codec';
import type { HistoryRecord, NewSession, Page, Session } from '../shared/domain';
import { TeamDataError } from './errors';
import type { UserCallOptions } from './options';
import { withCaller } from './caller';
import { checkListQuery, iteratePages, requireId, userIdOf } from './paging';
import type { Transport } from './transport';

function checkSession(s: Partial<NewSession>): void {
  const m = s?.maxMessagesInContext;
  if (m !== undefined && (!Number.isInteger(m) || m < 0 || m > 10)) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: 'maxMessagesInContext must be an integer from 0 to 10' });
  }
}

export class SessionsApi {
  constructor(private readonly t: Transport) {}

  /** Opens a session; its user id is `s.userId`, else the call's or the client's. */
  async create(s: NewSession = {}, opts?: UserCallOptions): Promise<{ id: string }> {
    checkSession(s);
    const c = this.t.codec;
    const body: NewSession = { ...s };
    const userId = s.userId ?? userIdOf(this.t, opts);
    if (userId !== undefined) body.userId = userId;
    return this.t.call(
      // The v1 examples send the general-agent header when creating sessions; v2 dropped it.
      { method: 'POST', path: c.paths.sessions, json: c.encodeSessionBody(body), agentHeader: c.version === 'v1' },
      opts,
      (x) => c.decodeCreated(x),
    );
  }

  /** Changes title, language, job mode or context size. */
  async modify(id: string, patch: Partial<NewSession>, opts?: UserCallOptions): Promise<void> {
    checkSession(patch);
    const c = this.t.codec;
    const spec = withCaller(this.t, opts, { method: 'POST', path: c.paths.session(requireId(id, 'sessionId')), json: c.encodeSessionPatch(patch) }, true);
    await this.t.call(spec, opts, () => undefined);
  }

  /** One session of the user. */
  async get(id: string, opts?: UserCallOptions): Promise<Session> {
    const c = this.t.codec;
    return this.t.call(withCaller(this.t, opts, { method: 'GET', path: c.paths.session(requireId(id, 'sessionId')) }, true), opts, (x) =>
      c.decodeSession(x),
    );
  }

  /** One page of the user's sessions; `keyword` matches titles. */
  async list(q: ListQuery = {}, opts?: UserCallOptions): Promise<Page<Session>> {
    checkListQuery(q);
    const c = this.t.codec;
    return this.t.call({ method: 'GET', path: c.paths.sessions, query: c.listQuery('sessions', this.withUser(q, opts)) }, opts, (x) =>
      c.decodePage(x, (r) => c.decodeSession(r)),
    );
  }

  /** Every session matching `q`, fetching pages as the loop advances. */
  iterate(q: ListQuery = {}, opts?: UserCallOptions): AsyncIterable<Session> {
    return iteratePages((page) => this.list(page, opts), q);
  }

  /** Deletes a session with its history (frees one of the team's 150 session slots). */
  async delete(id: string, opts?: UserCallOptions): Promise<void> {
    const c = this.t.codec;
    await this.t.call(withCaller(this.t, opts, { method: 'DELETE', path: c.paths.session(requireId(id, 'sessionId')) }, true), opts, () => undefined);
  }

  /** One page of the session's past jobs (the service lists the newest first). */
  async history(id: string, q: ListQuery = {}, opts?: UserCallOptions): Promise<Page<HistoryRecord>> {
    checkListQuery(q);
    const c = this.t.codec;
    return this.t.call(
      { method: 'GET', path: c.paths.history(requireId(id, 'sessionId')), query: c.listQuery('history', this.withUser(q, opts)) },
      opts,
      (x) => c.decodePage(x, (r) => c.decodeHistoryRecord(r)),
    );
  }

  /** Every past job of the session, newest first as the service lists them. */
  iterateHistory(id: string, q: ListQuery = {}, opts?: UserCallOptions): AsyncIterable<HistoryRecord> {
    return iteratePages((page) => this.history(id, page, opts), q);
  }

  private withUser(q: ListQuery, opts: UserCallOptions | undefined): ListQuery {
    if (q.userId !== undefined) return q;
    const userId = userIdOf(this.t, opts);
    return userId === undefined ? q : { ...q, userId };
  }
}
