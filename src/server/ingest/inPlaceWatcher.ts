/**
 * Notices edits of files read in place between jobs, so a source is re-read (and the tree shows it
 * re-reading) before anyone asks. Polling the file's stat, not fs.watch: editors save by writing a
 * new file and renaming it over the old one, which ends an fs.watch on the old file; a stat poll
 * follows the path whatever happens to it, costs one stat a second per file, and works on every
 * platform. Jobs never rely on it: each job checks size and modification time itself first.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';

/** How often a watched file's stat is read. */
const POLL_MS = 1_000;

export class InPlaceWatcher {
  private readonly watched = new Map<string, { path: string; listener: (cur: Stats, prev: Stats) => void }>();

  constructor(private readonly onChange: (sourceId: string) => void) {}

  watch(sourceId: string, path: string): void {
    const known = this.watched.get(sourceId);
    if (known?.path === path) return;
    if (known !== undefined) this.unwatch(sourceId);
    const listener = (cur: Stats, prev: Stats): void => {
      if (cur.size !== prev.size || cur.mtimeMs !== prev.mtimeMs || cur.ino !== prev.ino) this.onChange(sourceId);
    };
    // Not persistent: a watched file must never keep the service's process alive.
    watchFile(path, { interval: POLL_MS, persistent: false }, listener);
    this.watched.set(sourceId, { path, listener });
  }

  unwatch(sourceId: string): void {
    const known = this.watched.get(sourceId);
    if (known === undefined) return;
    unwatchFile(known.path, known.listener);
    this.watched.delete(sourceId);
  }

  close(): void {
    for (const id of [...this.watched.keys()]) this.unwatch(id);
  }
}
