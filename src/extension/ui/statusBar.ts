/**
 * The status bar item: which service (Local / hosted host), signed in or not, the local service's
 * state, and a running job's progress. Clicking it opens the quick pick of relevant actions.
 */
import * as vscode from 'vscode';
import type { ConnectionInfo, ConnectionManager } from '../connection/connection';
import type { RunningJobs } from '../jobs/runningJobs';

export function statusText(info: ConnectionInfo, jobs: ReadonlyArray<{ progress: string }>): { text: string; tooltip: string; warning: boolean; error: boolean } {
  const where = info.mode === 'local' ? 'Local' : info.label;
  const first = jobs[0];
  if (first) {
    const more = jobs.length > 1 ? ` (+${jobs.length - 1})` : '';
    return { text: `$(sync~spin) Team Data: ${first.progress}${more}`, tooltip: `A job is running on ${where}. Click to cancel or see more actions.`, warning: false, error: false };
  }
  if (info.mode === 'local') {
    switch (info.localState) {
      case 'starting':
      case 'restarting':
        return { text: '$(sync~spin) Team Data: Local', tooltip: 'The embedded local service is starting.', warning: false, error: false };
      case 'failed':
        return { text: '$(error) Team Data: Local', tooltip: 'The embedded local service is not running. Click for actions (Restart, Show Logs).', warning: false, error: true };
      case 'stopped':
        return { text: '$(database) Team Data: Local', tooltip: `Embedded local service (offline, data stays on this machine), user ${info.userId}. It starts when a Team Data view, command or question needs it.`, warning: false, error: false };
      default:
        return { text: '$(database) Team Data: Local', tooltip: `Embedded local service (offline, data stays on this machine), user ${info.userId}.`, warning: false, error: false };
    }
  }
  if (!info.signedIn) {
    return { text: `$(cloud) Team Data: ${where} (signed out)`, tooltip: `Hosted service ${where}: not signed in. Click to sign in.`, warning: true, error: false };
  }
  const via = info.keySource === 'env' ? ' (key from TEAM_DATA_API_KEY)' : info.keySource === 'memory' ? ' (key kept for this window only)' : '';
  return { text: `$(cloud) Team Data: ${where}`, tooltip: `Hosted service ${where}, signed in as ${info.userId || 'unknown user'}${via}.`, warning: false, error: false };
}

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly connection: ConnectionManager,
    private readonly jobs: RunningJobs,
  ) {
    this.item = vscode.window.createStatusBarItem('teamData.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'Team Data Analysis';
    this.item.command = 'teamData.showStatusMenu';
    this.subscriptions.push(connection.onDidChange(() => this.render()), jobs.onDidChange(() => this.render()));
    this.render();
    this.item.show();
  }

  /** The text shown now (the tests read it). */
  get text(): string {
    return this.item.text;
  }

  private render(): void {
    const s = statusText(this.connection.info, this.jobs.list);
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.accessibilityInformation = { label: `Team Data Analysis: ${s.tooltip}` };
    this.item.backgroundColor = s.error
      ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : s.warning
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : undefined;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.item.dispose();
  }
}
