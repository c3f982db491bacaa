/**
 * Which earlier turn a follow-up refines ("Follow-up to: …"), kept across reloads. The service's
 * history does not hold it (and the v1/v2 wire stays as it is), so the extension keeps it in the
 * workspace state, keyed by the follow-up's job id, and puts it back on the turns a panel restores.
 * No vscode here: a Memento is all it needs.
 */
import type { Turn } from '../../shared/protocol';
import { putRecent, type StateStore } from '../recentState';


/** What a follow-up job refines: the earlier job and its question. */
export interface FollowUpLink {
  sourceJobId: string;
  question: string;
}

export const FOLLOW_UPS_KEY = 'teamData.followUps';
/** Bounded so the workspace state never grows without limit; the oldest links go first. */
export const MAX_FOLLOW_UPS = 1000;

/** The turn id a panel gives a job restored from history (see panelTurns.ts). */
export const historyTurnId = (jobId: string): string => `h:${jobId}`;

export class FollowUpLinks {
  /** `scope`: who is asking where (the connection's identity), so two services' job ids never mix. */
  constructor(private readonly state: StateStore, private readonly scope: () => string) {}

  private key(jobId: string): string {
    return `${this.scope()}|${jobId}`;
  }

  private all(): Record<string, FollowUpLink> {
    return this.state.get<Record<string, FollowUpLink>>(FOLLOW_UPS_KEY) ?? {};
  }

  get(jobId: string): FollowUpLink | undefined {
    const link = this.all()[this.key(jobId)];
    return link !== undefined && typeof link.sourceJobId === 'string' && link.sourceJobId !== '' && typeof link.question === 'string' ? link : undefined;
  }

  /** Remembers that job `jobId` refines `link` (nothing for a job without an id: it has no history). */
  async remember(jobId: string, link: FollowUpLink): Promise<void> {
    if (jobId === '' || link.sourceJobId === '') return;
    await putRecent(this.state, FOLLOW_UPS_KEY, this.all(), this.key(jobId), link, MAX_FOLLOW_UPS);
  }

  /** Restored turns with the turn each one refines, where it is known. */
  restore(turns: Turn[]): Turn[] {
    return turns.map((t) => {
      const link = t.answer.jobId === '' ? undefined : this.get(t.answer.jobId);
      return link ? { ...t, refines: { turnId: historyTurnId(link.sourceJobId), question: link.question } } : t;
    });
  }
}
