/**
 * Paging as async iteration, plus the argument checks every resource namespace shares.
 */
import type { ListQuery } from '../shared/codec';
import type { Page } from '../shared/domain';
import { TeamDataError } from './errors';
import type { UserCallOptions } from './options';
import type { Transport } from './transport';

/** Page size used by `iterate` when the query names none (the official web client uses 100). */
export const ITERATE_PAGE_SIZE = 100;

/**
 * Yields every record from `q.pageNumber` (default 1) on. Stops at an empty page or once `total`
 * records have been seen, so a service that ignores the page number cannot loop it forever.
 * Argument errors surface from the first `next()`, like any other failure of the loop.
 */
export async function* iteratePages<T>(fetch: (q: ListQuery) => Promise<Page<T>>, q: ListQuery): AsyncGenerator<T, void, undefined> {
  const pageSize = q.pageSize ?? ITERATE_PAGE_SIZE;
  let pageNumber = q.pageNumber ?? 1;
  let seen = (pageNumber - 1) * pageSize;
  for (;;) {
    const page = await fetch({ ...q, pageNumber, pageSize });
    for (const record of page.records) yield record;
    seen += page.records.length;
    if (page.records.length === 0 || seen >= page.total) return;
    pageNumber++;
  }
}

/** Rejects an empty or non-string id before it turns `/datasets/{id}` into `/datasets/`. */
export function requireId(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TeamDataError('INVALID_ARGUMENT', { message: `${name} must be a non-empty string` });
  }
  return value;
}

export function checkListQuery(q: ListQuery): void {
  for (const key of ['pageNumber', 'pageSize'] as const) {
    const v = q[key];
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) {
      throw new TeamDataError('INVALID_ARGUMENT', { message: `${key} must be a positive integer` });
    }
  }
}

/** The call's user id, else the client's. */
export function userIdOf(t: Transport, opts: UserCallOptions | undefined): string | undefined {
  const id = opts?.userId ?? t.userId;
  return id === '' ? undefined : id;
}
