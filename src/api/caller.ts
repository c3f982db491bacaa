/**
 * Where a request names its caller (the user id), which differs by API version. v1 puts `userId`
 * in the query of the calls the contract lists. v2 puts `user_id` in the query of every GET and in
 * the JSON body of every POST and DELETE: the hosted v2 API requires it there, and the official v2
 * clients send it exactly so. Keeping the rule here lets each resource describe its request once.
 */
import type { CallOptions, UserCallOptions } from './options';
import { userIdOf } from './paging';
import type { RequestSpec, Transport } from './transport';

/**
 * `spec` with the caller added as the client's version wants it. `v1InQuery`: whether the v1
 * contract takes `userId` in this call's query. Entries already present are left alone, so a body
 * that names its own user (a session created for someone else) keeps it.
 */
export function withCaller(t: Transport, opts: UserCallOptions | CallOptions | undefined, spec: RequestSpec, v1InQuery: boolean): RequestSpec {
  const c = t.codec;
  const id = userIdOf(t, opts as UserCallOptions | undefined);
  const inQuery = (): RequestSpec =>
    id === undefined || spec.query?.[c.userIdParam] !== undefined ? spec : { ...spec, query: { ...spec.query, [c.userIdParam]: id } };
  if (c.version === 'v1') return v1InQuery ? inQuery() : spec;
  if (spec.method === 'GET') return inQuery();
  if (spec.method === 'DELETE') {
    // v2 deletes always carry a JSON body, `{}` when no user is known.
    const body = c.encodeDeleteBody(id);
    return body === undefined ? spec : { ...spec, json: { ...body, ...spec.json } };
  }
  // A POST whose body is not JSON (an upload form) names the caller in its own fields.
  if (id === undefined || spec.json === undefined || spec.json[c.userIdParam] !== undefined) return spec;
  return { ...spec, json: { ...spec.json, [c.userIdParam]: id } };
}
