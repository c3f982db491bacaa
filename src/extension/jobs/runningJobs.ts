/**
 * The jobs streaming right now, for the status bar ("step 2 of 4: …"), the Cancel command and
 * the `teamData.jobRunning` context key.
 */
import * as vscode from 'vscode';
import type { Answer } from '../../shared/domain';

export interface RunningJob {
  readonly key: string;
  readonly sessionId: string;
  readonly question: string;
  /** A short description of what the job is doing now. */
  progress: string;
  cancel(): void;
}

/** What a job is doing, from its answer so far: the running Analyze step, or writing the answer. */
export function progressOf(answer: Answer): string {
  const steps = answer.groups.filter((g) => g.stage === 'Analyze');
  const running = [...steps].reverse().find((g) => g.status === 'running');
  if (running) {
    const n = steps.indexOf(running) + 1;
    return `step ${n}: ${running.name || 'analyzing'}`;
  }
  if (answer.groups.some((g) => g.stage === 'Respond')) return 'writing the answer';
  if (steps.length > 0) return `step ${steps.length}: ${steps[steps.length - 1]?.name || 'analyzing'}`;
  return 'starting';
}

export class RunningJobs implements vscode.Disposable {
  private readonly jobs = new Map<string, RunningJob>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  start(sessionId: string, question: string, cancel: () => void): RunningJob {
    const job: RunningJob = { key: `job-${++this.counter}`, sessionId, question, progress: 'starting', cancel };
    this.jobs.set(job.key, job);
    this.fire();
    return job;
  }

  update(job: RunningJob, answer: Answer): void {
    const p = progressOf(answer);
    if (p === job.progress || !this.jobs.has(job.key)) return;
    job.progress = p;
    this.fire();
  }

  finish(job: RunningJob): void {
    if (this.jobs.delete(job.key)) this.fire();
  }

  get list(): readonly RunningJob[] {
    return [...this.jobs.values()];
  }

  cancelAll(): void {
    for (const j of [...this.jobs.values()]) j.cancel();
  }

  private fire(): void {
    void vscode.commands.executeCommand('setContext', 'teamData.jobRunning', this.jobs.size > 0);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
