/**
 * A user's first seconds, in a window where nothing has used the extension yet (this suite runs
 * first): it activates by itself once startup has finished and shows the status bar item before
 * any Team Data view opens, without starting the local service; while the service starts, both
 * trees say so instead of returning nothing (which makes VS Code show "No datasets yet"); then
 * they fill. Prints the time from activation to filled trees (a figure, not an assertion).
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { DatasetsTreeNode, SessionsTreeNode } from '../../../../src/extension/trees/nodes';
import type { Services } from '../../../../src/extension/services';
import { extension, waitFor } from './helpers';

type RootNode = DatasetsTreeNode | SessionsTreeNode;

/** True for the "Starting the local service…" notice of a root. */
export function isStarting(n: RootNode): boolean {
  return n.kind === 'message' && n.severity === 'progress' && /^Starting the local service/.test(n.text);
}

/** Both roots, as the views would get them now. */
export async function roots(s: Services): Promise<[DatasetsTreeNode[], SessionsTreeNode[]]> {
  return Promise.all([s.datasets.getChildren(), s.sessions.getChildren()]);
}

/** Polls both roots until neither shows the starting notice; resolves with that moment. */
export async function whenFilled(s: Services): Promise<{ at: number; datasets: RootNode[]; sessions: RootNode[] }> {
  return waitFor('both trees to load from the service', async () => {
    const [datasets, sessions] = await roots(s);
    if ([...datasets, ...sessions].some(isStarting)) return undefined;
    return { at: Date.now(), datasets, sessions };
  }, 60_000);
}

describe('startup', function () {
  this.timeout(120_000);
  let activatedAt = 0;
  let serviceReadyAt: number | undefined;

  it('after startup the extension activates by itself and shows the status bar item, with no view open and no command run', async () => {
    // Defect (issue 24): on a first open no "Team Data" item appeared until a Team Data view was opened.
    const ext = extension();
    // Nothing here activates it: not api(), not a command, not a view.
    await waitFor('the extension to activate after startup', () => ext.isActive, 90_000);
    activatedAt = Date.now();
    const s = ext.exports.services;
    s.supervisor.onDidChangeState((state) => {
      if (state === 'running') serviceReadyAt ??= Date.now();
    });
    assert.match(s.status.text, /Team Data: Local/);
    assert.equal(s.datasetsView.visible, false, 'no Team Data view is open: the item must not wait for one');
    assert.equal(s.sessionsView.visible, false);
    // Activation at startup does not start the local service in every window: its first use does.
    assert.equal(s.supervisor.state, 'stopped');
    // A palette command still works at once (it found the extension active).
    await vscode.commands.executeCommand('teamData.showLogs');
  });

  it('while the local service starts both trees say so, never empty; then they fill (prints the time)', async () => {
    const s = extension().exports.services;
    assert.notEqual(s.supervisor.state, 'running', 'the check needs a service that has not answered yet');
    const [datasets, sessions] = await roots(s);
    for (const [name, nodes] of [['Datasets', datasets], ['Sessions', sessions]] as Array<[string, RootNode[]]>) {
      // An empty root here is what made VS Code show "No datasets yet" for seconds.
      assert.equal(nodes.length, 1, `${name}: ${JSON.stringify(nodes)}`);
      assert.ok(nodes[0] && isStarting(nodes[0]), `${name}: ${JSON.stringify(nodes)}`);
    }
    const item = s.datasets.getTreeItem(datasets[0] as DatasetsTreeNode);
    assert.equal(item.label, 'Starting the local service…');
    await vscode.commands.executeCommand('teamData.datasets.focus');
    const filled = await whenFilled(s);
    assert.equal(s.supervisor.state, 'running');
    // The service of a fresh profile holds nothing: now the roots are empty for real (welcome view).
    assert.deepEqual([filled.datasets.length, filled.sessions.length], [0, 0]);
    const ready = serviceReadyAt !== undefined ? `, service answering after ${serviceReadyAt - activatedAt} ms` : '';
    console.log(`startup: trees filled ${filled.at - activatedAt} ms after activation (first activation, empty data folder${ready})`);
  });
});
