/**
 * Method + path routing. Patterns are derived from the codec's path builders (called with
 * `:name` placeholders), so the service answers exactly the paths the client builds.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Json } from '../../shared/json';
import { badRequest } from './envelope';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  traceId: string;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
}

/** JSON data for the envelope, or `handled` when the handler wrote the response itself (SSE). */
export type HandlerResult = { data: Json } | 'handled';
export type Handler = (ctx: RequestContext) => Promise<HandlerResult>;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export type RouteMatch =
  | { kind: 'found'; handler: Handler; params: Record<string, string> }
  | { kind: 'wrong-method'; allowed: string[] }
  | { kind: 'none' };

/** Splits a path into raw segments (no dot-segment resolution: `..` is just an unknown id). */
function split(path: string): string[] {
  return path.split('/').slice(1);
}

/** Turns a codec-built path like `/v1/team/datasets/%3Aid` into pattern segments (`:id`). */
export function patternOf(codecPath: string): string {
  return split(codecPath).map((s) => `/${decodeURIComponent(s)}`).join('');
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): void {
    this.routes.push({ method, segments: split(pattern), handler });
  }

  match(method: string, path: string): RouteMatch {
    const segs = split(path);
    const allowed: string[] = [];
    for (const r of this.routes) {
      const params = matchSegments(r.segments, segs);
      if (params === undefined) continue;
      if (r.method === method) return { kind: 'found', handler: r.handler, params };
      allowed.push(r.method);
    }
    return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
  }
}

function matchSegments(pattern: string[], segs: string[]): Record<string, string> | undefined {
  if (pattern.length !== segs.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i] as string;
    const s = segs[i] as string;
    if (p.startsWith(':')) {
      if (s === '') return undefined;
      let value: string;
      try {
        value = decodeURIComponent(s);
      } catch {
        throw badRequest(`${p.slice(1)}: malformed percent-encoding in the path`);
      }
      params[p.slice(1)] = value;
    } else if (p !== s) {
      return undefined;
    }
  }
  return params;
}
