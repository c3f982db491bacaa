/**
 * Jobs in flight, on disk. History holds a job once it finished; a service killed mid-job (kill -9,
 * a crash, the machine going down) would otherwise lose the question without a trace. Each job
 * leaves a small file while it runs; the next start turns every file left behind into a history
 * record that says the job was interrupted, so the user sees it in the session and can ask again.
 */
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isGeneratedId } from '../ids';
import { writeFileAtomic } from '../state/atomicFile';
import type { HistoryStore } from '../state/historyStore';
import type { Logger } from '../state/metaStore';

export const INTERRUPTED_TEXT = 'This question was not answered: the local service stopped while it was working on it (it was ended or crashed). Ask it again.';

export class JobJournal {
  constructor(private readonly dir: string) {}

  private file(jobId: string): string {
    if (!isGeneratedId(jobId)) throw new Error('invalid job id for the journal');
    return join(this.dir, `${jobId}.json`);
  }

  async begin(jobId: string, sessionId: string, question: string, createdAt: number): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file(jobId), JSON.stringify({ jobId, sessionId, question, createdAt }));
  }

  async end(jobId: string): Promise<void> {
    await unlink(this.file(jobId)).catch(() => undefined);
  }

  /**
   * Records every job left behind by an earlier run as interrupted (when its session still
   * exists), then forgets it. Returns how many were recorded.
   */
  async recover(history: HistoryStore, sessionExists: (id: string) => boolean, log: Logger): Promise<number> {
    let names: string[];
    try {
      names = (await readdir(this.dir)).filter((n) => n.endsWith('.json'));
    } catch {
      return 0;
    }
    let recorded = 0;
    for (const name of names) {
      const path = join(this.dir, name);
      try {
        const raw = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
        const { jobId, sessionId, question, createdAt } = raw;
        if (typeof jobId === 'string' && typeof sessionId === 'string' && typeof question === 'string' && typeof createdAt === 'number'
          && isGeneratedId(jobId) && isGeneratedId(sessionId) && sessionExists(sessionId)
          && !(await history.list(sessionId)).some((r) => r.jobId === jobId)) {
          const { persisted } = await history.append({
            jobId, sessionId, question, createdAt, ok: false, interrupted: true,
            blocks: [{ groupId: 'respond', groupName: 'Conclusions', stage: 'Respond', type: 'MESSAGE', content: INTERRUPTED_TEXT }],
          });
          await persisted;
          recorded++;
        }
      } catch (e) {
        log('warn', `an interrupted job could not be recorded: ${e instanceof Error ? e.message : String(e)}`);
      }
      await unlink(path).catch(() => undefined);
    }
    if (recorded > 0) log('warn', `${recorded} job(s) were interrupted when the service last stopped; their sessions say so`);
    return recorded;
  }
}
