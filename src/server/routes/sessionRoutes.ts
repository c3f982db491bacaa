/**
 * Sessions belong to their caller (`userId`): when a request names a user, it only sees and
 * touches that user's sessions (others read as not found). At most 150 sessions exist at once.
 */
import { DEFAULT_AGENT_ID, MAX_SESSIONS, type HistoryRecord } from '../../shared/domain';
import { ErrorCode } from '../../shared/errorCodes';
import { ApiError, notFound } from '../http/envelope';
import { patternOf, type RequestContext, type Router } from '../http/router';
import { FileVault } from '../files/fileVault';
import { newId } from '../ids';
import { DEFAULT_SESSION_TITLE } from '../jobs/title';
import type { ServiceDeps } from '../serviceDeps';
import { toSession, type SessionRecord } from '../state/records';
import { contains, decode, decodeBody, deleteCaller, idParam, newestFirst, paginate, type Spelling } from './routeKit';

function owns(s: SessionRecord, userId: string | undefined): boolean {
  return userId === undefined || s.userId === undefined || s.userId === userId;
}

function sessionOf(deps: ServiceDeps, ctx: RequestContext, userId: string | undefined): SessionRecord {
  const s = deps.meta.sessions.get(idParam(ctx, 'sessionId'));
  if (!s || !owns(s, userId)) throw notFound('session');
  return s;
}

export function registerSessionRoutes(router: Router, deps: ServiceDeps, spelling: Spelling): void {
  const { meta, history, vault } = deps;
  const { wire, req } = spelling;
  const P = wire.paths;

  router.add('POST', P.sessions, async (ctx) => {
    const queryUser = decode(() => req.userId(ctx.query));
    const body = await decodeBody(ctx, (raw) => req.decodeSessionBody(raw));
    if (meta.sessions.size >= MAX_SESSIONS) {
      throw new ApiError(ErrorCode.SESSION_LIMIT, `session limit reached (${MAX_SESSIONS}): delete sessions first`);
    }
    const title = body.title !== undefined && body.title.trim() !== '' ? body.title : undefined;
    const rec: SessionRecord = {
      id: newId(),
      title: title ?? DEFAULT_SESSION_TITLE,
      autoTitle: title === undefined,
      languageType: body.languageType ?? 'AUTO',
      jobMode: body.jobMode ?? 'AUTO',
      maxMessagesInContext: body.maxMessagesInContext ?? 10,
      agentId: body.agentId ?? DEFAULT_AGENT_ID,
      createdAt: Date.now(),
    };
    const userId = body.userId ?? queryUser;
    if (userId !== undefined) rec.userId = userId;
    meta.sessions.set(rec.id, rec);
    await meta.save();
    return { data: req.encodeCreated(rec.id) };
  });

  router.add('GET', P.sessions, async (ctx) => {
    const q = decode(() => req.decodeListQuery('sessions', ctx.query));
    let items = newestFirst(meta.sessions.values()).filter((s) => owns(s, q.userId));
    const k = q.keyword;
    if (k !== undefined) items = items.filter((s) => contains(s.title, k));
    return { data: wire.encodePage(paginate(items.map(toSession), q), wire.encodeSession) };
  });

  router.add('GET', patternOf(P.session(':sessionId')), async (ctx) => {
    const s = sessionOf(deps, ctx, decode(() => req.userId(ctx.query)));
    return { data: wire.encodeSession(toSession(s)) };
  });

  router.add('POST', patternOf(P.session(':sessionId')), async (ctx) => {
    const queryUser = decode(() => req.userId(ctx.query));
    const patch = await decodeBody(ctx, (raw) => req.decodeSessionPatch(raw));
    const s = sessionOf(deps, ctx, queryUser ?? patch.userId);
    if (patch.title !== undefined && patch.title.trim() !== '') {
      s.title = patch.title;
      s.autoTitle = false;
    }
    if (patch.languageType !== undefined) s.languageType = patch.languageType;
    if (patch.jobMode !== undefined) s.jobMode = patch.jobMode;
    if (patch.maxMessagesInContext !== undefined) s.maxMessagesInContext = patch.maxMessagesInContext;
    await meta.save();
    return { data: null };
  });

  router.add('DELETE', patternOf(P.session(':sessionId')), async (ctx) => {
    const s = sessionOf(deps, ctx, await deleteCaller(ctx, spelling));
    meta.sessions.delete(s.id);
    await meta.save();
    const records = await history.remove(s.id);
    for (const r of records) for (const id of FileVault.referencedIds(r.blocks)) await vault.remove(id);
    return { data: null };
  });

  router.add('GET', patternOf(P.history(':sessionId')), async (ctx) => {
    const q = decode(() => req.decodeListQuery('history', ctx.query));
    const s = sessionOf(deps, ctx, q.userId);
    const records = [...(await history.list(s.id))].reverse();
    const page = paginate(records, q);
    const out: HistoryRecord[] = page.records.map((r) => ({
      jobId: r.jobId,
      question: { blocks: [{ type: 'MESSAGE', content: r.question }] },
      answer: { blocks: vault.fresh(r.blocks), ...(r.cancelled === true ? { state: 'cancelled' as const } : !r.ok || r.interrupted === true ? { state: 'error' as const } : {}) },
    }));
    return { data: wire.encodePage({ ...page, records: out }, wire.encodeHistoryRecord) };
  });
}
