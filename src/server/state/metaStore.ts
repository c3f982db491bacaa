/**
 * In-memory index of datasets, data sources, sessions and uploads, persisted as one JSON document
 * written atomically. Writes are coalesced: while one write is in flight, later changes are
 * collected into a single follow-up write, so a burst of mutations costs at most two writes and
 * every `save()` resolves only once a write that includes the caller's change is on disk.
 */
import { readFile, rename } from 'node:fs/promises';
import { writeFileAtomic, removeStaleTempFiles } from './atomicFile';
import {
  readPersistedState, type DatasetRecord, type PersistedState, type SessionRecord, type SourceRecord,
  type UploadRecord,
} from './records';
import { dirname } from 'node:path';

export type Logger = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;

export class MetaStore {
  readonly datasets = new Map<string, DatasetRecord>();
  readonly sources = new Map<string, SourceRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly uploads = new Map<string, UploadRecord>();
  private chain: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;

  private constructor(private readonly file: string) {}

  /** Loads the state file; a file that cannot be parsed is moved aside (never silently overwritten). */
  static async load(file: string, log: Logger): Promise<MetaStore> {
    const store = new MetaStore(file);
    await removeStaleTempFiles(dirname(file));
    let text: string | undefined;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (text !== undefined) {
      let raw: unknown;
      try {
        raw = JSON.parse(text) as unknown;
      } catch {
        const aside = `${file}.unreadable-${Date.now()}`;
        log('error', `metadata file was unreadable; moved it to ${aside} and started empty`);
        await rename(file, aside);
      }
      if (raw !== undefined) store.apply(readPersistedState(raw));
    }
    return store;
  }

  private apply(s: PersistedState): void {
    for (const d of s.datasets) this.datasets.set(d.id, d);
    for (const r of s.sources) if (this.datasets.has(r.datasetId)) this.sources.set(r.id, r);
    for (const r of s.sessions) this.sessions.set(r.id, r);
    for (const u of s.uploads) this.uploads.set(u.fileKey, u);
  }

  private serialize(): string {
    const state: PersistedState = {
      version: 1,
      datasets: [...this.datasets.values()],
      sources: [...this.sources.values()],
      sessions: [...this.sessions.values()],
      uploads: [...this.uploads.values()],
    };
    return JSON.stringify(state);
  }

  /** Persists the current state; resolves when a write containing every change made so far is durable. */
  save(): Promise<void> {
    if (this.queued === undefined) {
      const next = this.chain.then(() => {
        // Taken when the write starts, so changes made while waiting are included.
        this.queued = undefined;
        return writeFileAtomic(this.file, this.serialize());
      });
      this.queued = next;
      this.chain = next.catch(() => undefined);
    }
    return this.queued;
  }

  /** Resolves once every requested write has finished. */
  async flush(): Promise<void> {
    await this.chain;
  }

  sourcesOf(datasetId: string): SourceRecord[] {
    return [...this.sources.values()].filter((s) => s.datasetId === datasetId);
  }
}
