/** Small helpers every route module uses: paging, ownership, body decoding with field errors. */
import type { WireCodec } from '../../shared/codec';
import type { Page } from '../../shared/domain';
import { ErrorCode } from '../../shared/errorCodes';
import { InvalidFieldError, type DecodedListQuery, type RequestCodec } from '../../shared/requestCodecV1';
import { readJsonBody } from '../http/requestBody';
import type { RequestContext } from '../http/router';
import { ApiError, badRequest } from '../http/envelope';

/** Runs a request decoder, turning field errors into the contract's code 100 naming the field. */
export function decode<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof InvalidFieldError) throw badRequest(e.message);
    throw e;
  }
}

/** Reads the JSON body and decodes it. */
export async function decodeBody<T>(ctx: RequestContext, decoder: (raw: unknown) => T): Promise<T> {
  const raw = await readJsonBody(ctx.req);
  return decode(() => decoder(raw));
}

/** Newest first; ties keep reverse insertion order (Map iteration order is insertion order). */
export function newestFirst<T extends { createdAt: number }>(items: Iterable<T>): T[] {
  return [...items].reverse().sort((a, b) => b.createdAt - a.createdAt);
}

export function paginate<T>(items: T[], q: Pick<DecodedListQuery, 'pageNumber' | 'pageSize'>): Page<T> {
  const start = (q.pageNumber - 1) * q.pageSize;
  return { total: items.length, pageNumber: q.pageNumber, pageSize: q.pageSize, records: items.slice(start, start + q.pageSize) };
}

export function contains(haystack: string, needle: string): boolean {
  return haystack.toLocaleLowerCase().includes(needle.toLocaleLowerCase());
}

/** Resource ids are compared as given; oversized ones cannot exist and are rejected early. */
/** The lease a client of a shared service names (see TeamDataClientOptions.localLease). */
export function leaseOf(ctx: RequestContext): string | undefined {
  const v = ctx.req.headers['x-team-data-lease'];
  return typeof v === 'string' && v.length <= 64 ? v : undefined;
}

export function idParam(ctx: RequestContext, name: string): string {
  const v = ctx.params[name] ?? '';
  if (v.length > 128) throw new ApiError(ErrorCode.NOT_FOUND, `${name}: not found`);
  return v;
}

/**
 * One API version as the routes see it: its paths and response spelling, and its request
 * decoders. Every route module is registered once per spelling over the same state, so a dataset
 * made through v1 is listed through v2 and the other way round.
 */
export interface Spelling {
  wire: WireCodec;
  req: RequestCodec;
}

/** The caller a DELETE names: in the query (v1) or in a JSON body (v2). */
export async function deleteCaller(ctx: RequestContext, s: Spelling): Promise<string | undefined> {
  const fromQuery = decode(() => s.req.userId(ctx.query));
  if (!s.req.deleteBodyHasUser) return fromQuery;
  const body = await decodeBody(ctx, (raw) => s.req.decodeDeleteBody(raw));
  return body.userId ?? fromQuery;
}
