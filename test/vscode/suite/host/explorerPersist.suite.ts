/**
 * What the Team Data Explorer keeps, in a real VS Code (issue 27): rows pinned at the top come
 * back when a tab is reopened — fetched again from the service by index under the saved query,
 * so a file edited meanwhile shows its new values, and an index past the end is dropped — beside
 * the saved sort, filters, pinned columns and widths (the custom editor is what VS Code restores
 * after a reload, by the same resolveCustomEditor); and explorer panels (a data source, an answer
 * table) come back after a window reload through the panel serializer, from the state their
 * webview kept, with a plain message when the table's copy or the data source is gone.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXPLORER_PANEL_TYPE } from '../../../../src/extension/explorer/explorerEditors';
import { EXPLORER_STATE_KEY } from '../../../../src/extension/explorer/explorerMemory';
import type { ExplorerSession } from '../../../../src/extension/explorer/explorerSession';
import { addFilesFlow } from '../../../../src/extension/flows/analyze';
import { answerFilesRoot } from '../../../../src/extension/panel/fileCache';
import type { ExploreQuery } from '../../../../src/shared/explore';
import type { ExplorerPanelState } from '../../../../src/shared/explorerProtocol';
import { firstPage, openFile, postedOf, write } from './explorerHelpers';
import { api, assertHumane, extension, useScriptedPrompts, waitFor, workspaceFile } from './helpers';

const REGIONS = ['north', 'south', 'east', 'west'];
const N = 200;
const table = (bump: number): Array<[number, string, number]> => Array.from({ length: N }, (_, i) => [i + 1, REGIONS[i % 4] as string, (i % 50) + bump]);
const csvOf = (t: Array<[number, string, number]>): string => `id,region,amount\n${t.map((r) => r.join(',')).join('\n')}\n`;
/** The rows of the view under `sortedNorth`: north only, by id descending. */
const northDesc = (t: Array<[number, string, number]>): Array<[number, string, number]> => t.filter((r) => r[1] === 'north').sort((p, q) => q[0] - p[0]);
const sortedNorth: ExploreQuery = { sort: [{ column: 'id', desc: true }], filters: [{ column: 'region', op: 'in', values: ['north'] }] };

async function ready(x: ExplorerSession, what: string): Promise<void> {
  await firstPage(x, what);
  await waitFor(`the whole of ${what} read`, () => x.current?.state === 'ready', 120_000);
}

async function closed(x: ExplorerSession): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const a = await api();
  await waitFor('the tab closed', () => !a.services.explorers.sessions.includes(x));
}

/** A fresh panel, as VS Code makes one when it restores a tab after a reload, handed to the serializer. */
async function restored(state: unknown): Promise<{ panel: vscode.WebviewPanel; x: ExplorerSession | undefined }> {
  const a = await api();
  const panel = vscode.window.createWebviewPanel(EXPLORER_PANEL_TYPE, 'Restored', vscode.ViewColumn.Active, { enableScripts: true });
  // What VS Code hands back is the JSON the webview kept.
  const x = await a.services.explorers.restorePanel(panel, JSON.parse(JSON.stringify(state ?? null)) as unknown);
  return { panel, x };
}

describe('Team Data Explorer: kept across closing and reloading (issue 27)', function () {
  this.timeout(300_000);
  const prompts = useScriptedPrompts();

  before(async () => {
    await write('explore-pins.csv', csvOf(table(0)));
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('pinned rows come back when the tab is reopened, fetched again by index under the saved query, with its sort, filters and pins', async () => {
    const a = await api();
    const uri = workspaceFile('explore-pins.csv');
    const x = await openFile('explore-pins.csv');
    await ready(x, 'the CSV');
    // The webview pins rows 0 and 5 of the sorted, filtered view (and one past its end).
    await x.receive({ type: 'persist', query: sortedNorth, pinned: ['amount'], widths: { region: 140 }, pinnedRows: [5, 0, 49, 400] });
    await closed(x);
    // Edited while closed: the pinned rows must show the file's values now, not stored ones.
    await write('explore-pins.csv', csvOf(table(1000)));
    const y = await openFile('explore-pins.csv');
    const { init } = await firstPage(y, 'the reopened CSV');
    assert.deepEqual([init.query, init.pinned, init.widths], [sortedNorth, ['amount'], { region: 140 }], 'sort, filters, pinned columns and widths are back');
    const pins = await waitFor('the pinned rows', () => postedOf(y, 'pinnedRows')[0], 60_000);
    const now = northDesc(table(1000));
    assert.deepEqual(pins.query, sortedNorth);
    assert.deepEqual(pins.rows, [{ index: 5, values: now[5] }, { index: 0, values: now[0] }, { index: 49, values: now[49] }], 'the current values, in pin order; the index past the end is gone');
    const saved = a.services.context.workspaceState.get<Record<string, { pinnedRows?: unknown }>>(EXPLORER_STATE_KEY)?.[uri.toString()];
    assert.deepEqual(saved?.pinnedRows, { query: sortedNorth, rows: [5, 0, 49] }, 'the index past the end is dropped from the memory too');
    // A new query in the webview drops them for good.
    await y.receive({ type: 'persist', query: { sort: [], filters: [] }, pinned: ['amount'], widths: {} });
    await closed(y);
    const z = await openFile('explore-pins.csv');
    await ready(z, 'the CSV again');
    await new Promise((r) => setTimeout(r, 1000));
    assert.deepEqual(postedOf(z, 'pinnedRows'), []);
  });

  it('an explorer panel comes back after a window reload: the serializer opens it again from the state its webview kept', async () => {
    const a = await api();
    const activation = (extension().packageJSON as { activationEvents: string[] }).activationEvents;
    assert.ok(activation.includes(`onWebviewPanel:${EXPLORER_PANEL_TYPE}`), 'VS Code activates the extension to restore an explorer panel');
    // A data source of the local service.
    const ws = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
    prompts().expect({ kind: 'pick', match: /Add explore-pins\.csv to which dataset/, answer: (items) => items.find((i) => new RegExp(`New dataset “${ws}”|\\$\\(database\\) ${ws}$`).test(i.label)) });
    const added = await addFilesFlow(a.services, await a.services.connection.client(), [workspaceFile('explore-pins.csv')]);
    prompts().assertDone();
    assert.ok(added?.ids[0], 'a data source');
    const x = a.services.explorers.openSource(added.ids[0], added.dataset.id, 'explore-pins.csv');
    await ready(x, 'the data source');
    const kept = await waitFor('the panel state given to the webview', () => postedOf(x, 'panelState')[0]);
    const state: ExplorerPanelState = { v: 1, origin: { kind: 'source', datasourceId: added.ids[0], datasetId: added.dataset.id, name: 'explore-pins.csv' } };
    assert.deepEqual(kept.state, state);
    await x.receive({ type: 'persist', query: sortedNorth, pinned: [], widths: {}, pinnedRows: [1, 2] });
    await closed(x);
    const { x: y } = await restored(kept.state);
    assert.ok(y, 'the panel is the explorer again');
    const { init, rows } = await firstPage(y, 'the restored data source');
    assert.deepEqual(init.opened.columns.map((c) => c.name), ['id', 'region', 'amount']);
    assert.deepEqual(init.query, sortedNorth, 'its sort and filters are back');
    assert.equal(rows.length, N / 4);
    const pins = await waitFor('its pinned rows', () => postedOf(y, 'pinnedRows')[0], 60_000);
    assert.deepEqual(pins.rows.map((r) => r.index), [1, 2]);
    assert.deepEqual(postedOf(y, 'panelState').map((m) => m.state), [state], 'kept again for the next reload');

    // An answer table: its cached CSV under the answer-file cache.
    const cache = answerFilesRoot(a.services.context.globalStorageUri.fsPath);
    mkdirSync(cache, { recursive: true });
    const path = join(cache, `${randomBytes(8).toString('hex')}.csv`);
    writeFileSync(path, 'region,total\nnorth,10\nsouth,20\n');
    try {
      const { x: t } = await restored({ v: 1, origin: { kind: 'table', path, name: 'total by region.csv' } });
      assert.ok(t);
      const table = await firstPage(t, 'the restored answer table');
      assert.deepEqual(table.rows, [['north', 10], ['south', 20]]);
    } finally {
      rmSync(path, { force: true });
    }
  });

  it('a restored panel whose table copy or data source is gone says so in the tab; a state that is not valid opens nothing', async () => {
    const a = await api();
    const cache = answerFilesRoot(a.services.context.globalStorageUri.fsPath);
    const gone = await restored({ v: 1, origin: { kind: 'table', path: join(cache, 'no-longer-here.csv'), name: 'total by region.csv' } });
    const tableMessage = await waitFor('the message of the gone table', () => gone.x?.lastError, 60_000);
    assert.match(tableMessage, /The answer table “total by region\.csv” is no longer available[\s\S]*Explore/);
    assertHumane(tableMessage);
    assert.equal(postedOf(gone.x as ExplorerSession, 'init').length, 0);
    assert.ok(postedOf(gone.x as ExplorerSession, 'panelState').length > 0, 'still kept: after another reload it says so again');

    const source = await restored({ v: 1, origin: { kind: 'source', datasourceId: 'no-such-source', datasetId: 'no-such-dataset', name: 'orders.csv' } });
    const sourceMessage = await waitFor('the message of the gone data source', () => source.x?.lastError, 60_000);
    assert.match(sourceMessage, /The data source “orders\.csv” is no longer in the local service/);
    assertHumane(sourceMessage);

    const invalid: unknown[] = [
      undefined,
      { v: 2, origin: { kind: 'source', datasourceId: 'a', datasetId: 'b', name: 'c' } },
      { v: 1, origin: { kind: 'file', uri: 'file:///etc/passwd' } },
      // A table outside the answer-file cache is not a table the host kept.
      { v: 1, origin: { kind: 'table', path: workspaceFile('explore-pins.csv').fsPath, name: 'x.csv' } },
      { v: 1, origin: { kind: 'table', path: join(cache, '..', 'x.csv'), name: 'x.csv' } },
    ];
    for (const state of invalid) {
      const before = a.services.explorers.sessions.length;
      const r = await restored(state);
      assert.equal(r.x, undefined, JSON.stringify(state));
      assert.equal(a.services.explorers.sessions.length, before, 'no session');
      assert.match(r.panel.webview.html, /could not be restored after the window reload/);
      assert.doesNotMatch(r.panel.webview.html, /<script/);
      r.panel.dispose();
    }
  });
});
