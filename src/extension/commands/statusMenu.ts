/**
 * The status bar item's quick pick: only the actions that make sense right now (cancel while a
 * job runs, sign in when signed out, restart when the local service is down, ...).
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import type { PickItem } from '../ui/prompts';

export async function showStatusMenu(s: Services): Promise<void> {
  const info = s.connection.info;
  const items: Array<PickItem<string>> = [];
  for (const job of s.jobs.list) {
    items.push({ label: '$(debug-stop) Cancel Running Job', description: job.progress, detail: job.question.slice(0, 120), value: 'teamData.cancelJob' });
  }
  if (info.mode === 'hosted' && !info.signedIn) items.push({ label: '$(sign-in) Sign In…', description: info.label, value: 'teamData.signIn' });
  items.push({ label: '$(comment-discussion) Ask a Question…', value: 'teamData.ask' });
  items.push({ label: '$(graph) Analyze a File…', value: 'teamData.analyzeFile' });
  items.push({ label: '$(window) Open Answer Panel', value: 'teamData.openPanel' });
  if (info.mode === 'local') {
    if (info.localState === 'failed' || info.localState === 'running') {
      items.push({ label: '$(debug-restart) Restart Local Service', description: info.localState === 'failed' ? 'not running' : 'running', value: 'teamData.restartLocalService' });
    }
    items.push({ label: '$(cloud) Sign In to a Hosted Service…', value: 'teamData.signIn' });
  } else {
    if (info.signedIn && info.keySource !== 'env') items.push({ label: '$(sign-out) Sign Out', description: info.label, value: 'teamData.signOut' });
    items.push({ label: '$(database) Use the Embedded Local Service', description: 'offline, data stays on this machine', value: 'teamData.useLocalService' });
  }
  const model = s.model.status;
  items.push({ label: '$(sparkle) Choose Language Model…', description: model.kind === 'active' ? model.label : model.kind === 'off' ? 'off: the built-in engine answers alone' : 'off', value: 'teamData.chooseModel' });
  items.push({ label: '$(output) Show Logs', value: 'teamData.showLogs' });
  items.push({ label: '$(settings-gear) Settings', value: 'teamData.openSettings' });
  const where = info.mode === 'local' ? 'embedded local service' : `${info.label}${info.signedIn ? '' : ' (signed out)'}`;
  const chosen = await s.prompts.pick(items, { title: `Team Data Analysis: ${where}` });
  if (chosen) await vscode.commands.executeCommand(chosen);
}
