/**
 * Creating a data source for an upload, so that cancel means "as if I had never started": the
 * create call itself is not aborted midway (the service may have finished it, and we must know its
 * id), and a cancel at any point after it removes the new source again instead of leaving it
 * "ready" in the tree. Free of `vscode` so it is tested against the real local service.
 */
import { TeamDataError, type NewDataSource, type TeamDataClient, type WaitOptions } from '../../api/index';
import type { DataSource } from '../../shared/domain';

export interface CreateOptions {
  signal: AbortSignal;
  wait: Omit<WaitOptions, 'signal'>;
  /** Told once the source exists (to remember it for reuse, refresh the tree...). */
  onCreated?: (ds: DataSource) => Promise<void> | void;
  /** Told when a cancel removed the created source again. */
  onRemoved?: (ds: DataSource) => Promise<void> | void;
}

const cancelled = (): TeamDataError => new TeamDataError('ABORTED', { operation: 'add a file', message: 'adding the file was cancelled' });

/** Creates the source and waits until it is processed; on cancel, deletes what it created and rejects with `ABORTED`. */
export async function createSourceUndoable(client: TeamDataClient, datasetId: string, body: NewDataSource, o: CreateOptions): Promise<DataSource> {
  if (o.signal.aborted) throw cancelled();
  // Not abortable: a create the service completed after we stopped listening would be left behind unseen.
  const created = await client.dataSources.create(datasetId, body);
  const undo = async (): Promise<never> => {
    await client.dataSources.delete(datasetId, created.id).catch(() => undefined);
    await o.onRemoved?.(created);
    throw cancelled();
  };
  if (o.signal.aborted) return undo();
  await o.onCreated?.(created);
  if (created.status === 'synched') return created;
  try {
    return await client.dataSources.waitUntilSynched(datasetId, created.id, { ...o.wait, signal: o.signal });
  } catch (err) {
    if (o.signal.aborted) return undo();
    throw err;
  }
}
