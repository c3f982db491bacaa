/**
 * What an explorer tab shows (issue 27): a file on disk (the custom editor, or "Open in Team Data
 * Explorer"), an answer table (the host's cached copy of the CSV), or a data source of the local
 * service. Each is opened on the service's explore routes as a view; the key names its persisted
 * state (query, pinned columns, widths).
 */
import type * as vscode from 'vscode';
import type { ExploreTarget } from '../../api/exploreClient';
import { ExploreCallError, ExploreClient } from '../../api/exploreClient';
import type { ExplorerPanelOrigin } from '../../shared/explorerProtocol';
import type { Services } from '../services';

/** A file, or what a panel shows (an answer table's cached CSV, a data source; explorerProtocol.ts). */
export type ExplorerOrigin = { kind: 'file'; uri: vscode.Uri } | ExplorerPanelOrigin;

export function originKey(o: ExplorerOrigin): string {
  return o.kind === 'file' ? o.uri.toString() : o.kind === 'table' ? `table:${o.path}` : `source:${o.datasourceId}`;
}

export function originName(o: ExplorerOrigin): string {
  return o.kind === 'file' ? o.uri.path.split('/').pop() ?? 'data' : o.name;
}

export function targetOf(o: ExplorerOrigin, sheet: string | undefined): ExploreTarget {
  const base: ExploreTarget = o.kind === 'source' ? { datasourceId: o.datasourceId } : { path: o.kind === 'file' ? o.uri.fsPath : o.path };
  return sheet === undefined ? base : { ...base, sheet };
}

/** Why the explorer cannot run: it reads files with DuckDB through the local service only. */
export const NEEDS_LOCAL_SERVICE = 'The Team Data Explorer needs the local service: it reads the file with DuckDB on this machine, and the hosted service has no explorer. Run “Team Data: Use Local Service” to switch, then open the file again.';

/** A client of the explore routes of the running local service (started when needed). */
export async function exploreClient(s: Services): Promise<ExploreClient> {
  if (s.connection.info.mode !== 'local') throw new ExploreCallError(NEEDS_LOCAL_SERVICE, 0);
  const endpoint = s.supervisor.endpoint ?? (await s.supervisor.ensureStarted());
  return new ExploreClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, lease: () => s.supervisor.leaseId });
}

/** A client of the running local service only (closing a view never starts a service). */
export function runningExploreClient(s: Services): ExploreClient | undefined {
  const endpoint = s.supervisor.endpoint;
  return endpoint ? new ExploreClient({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey, lease: () => s.supervisor.leaseId }) : undefined;
}
