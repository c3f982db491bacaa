/**
 * The Team Data Explorer's exports and its one precondition, in a real VS Code (issue 27): Export
 * Parquet writes a real Parquet file holding exactly the filtered, sorted view (read back with
 * DuckDB); cancelling an export of a large generated file stops the service's COPY and leaves no
 * file behind, not even a partial one; and a window connected to the hosted service instead of
 * the local one says plainly, wherever the explorer is opened from, that it needs the local
 * service. Files are generated here in the temporary workspace.
 */
import { strict as assert } from 'node:assert';
import { closeSync, existsSync, openSync, readdirSync, readSync, rmSync, statSync } from 'node:fs';
import * as vscode from 'vscode';
import { exportView } from '../../../../src/extension/explorer/explorerActions';
import type { ExplorerSession } from '../../../../src/extension/explorer/explorerSession';
import { exploreClient, NEEDS_LOCAL_SERVICE } from '../../../../src/extension/explorer/explorerTypes';
import type { ExploreQuery } from '../../../../src/shared/explore';
import { duck, duckRows, firstPage, openFile, sql, write } from './explorerHelpers';
import { api, assertHumane, useScriptedPrompts, waitFor, workspaceFile } from './helpers';

const REGIONS = ['north', 'south', 'east', 'west'];
const N = 400;
const rows = Array.from({ length: N }, (_, i) => ({ id: i + 1, region: REGIONS[(i * 7) % 4] as string, amount: ((i * 37) % 101) + (i % 4) * 0.25, day: `2024-0${1 + (i % 9)}-${10 + (i % 19)}` }));
const BIG_ROWS = 10_000_000;

const folder = (): string => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
const partFiles = (): string[] => readdirSync(folder()).filter((f) => f.endsWith('.part'));

function head(path: string, n: number, from: 'start' | 'end'): string {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(n);
    readSync(fd, b, 0, n, from === 'start' ? 0 : statSync(path).size - n);
    return b.toString('latin1');
  } finally {
    closeSync(fd);
  }
}

async function ready(x: ExplorerSession, what: string): Promise<void> {
  await firstPage(x, what);
  await waitFor(`the whole of ${what} read`, () => x.current?.state === 'ready', 120_000);
}

describe('Team Data Explorer: exports and the hosted service (issue 27)', function () {
  this.timeout(600_000);
  const prompts = useScriptedPrompts();

  before(async () => {
    await write('explore-export.csv', `id,region,amount,day\n${rows.map((r) => [r.id, r.region, r.amount, r.day].join(',')).join('\n')}\n`);
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Export Parquet writes a valid Parquet file with the filtered view\'s rows, in the view\'s order', async () => {
    const a = await api();
    const x = await openFile('explore-export.csv');
    await ready(x, 'the CSV');
    const target = workspaceFile('explore-export-north.parquet');
    const query: ExploreQuery = {
      sort: [{ column: 'amount', desc: true }, { column: 'id', desc: false }],
      filters: [{ column: 'region', op: 'in', values: ['north', 'east'] }, { column: 'amount', op: 'between', min: 10, max: 80 }],
    };
    const expected = rows
      .filter((r) => (r.region === 'north' || r.region === 'east') && r.amount >= 10 && r.amount <= 80)
      .sort((p, q) => q.amount - p.amount || p.id - q.id)
      .map((r) => [r.id, r.region, r.amount, r.day]);
    assert.ok(expected.length > 50 && expected.length < N / 2, `a real filter: ${expected.length} rows`);
    prompts().expect({ kind: 'saveFile', match: /Export the view of explore-export\.csv as Parquet/, answer: target });
    const done = await exportView(a.services, x, query, 'parquet');
    prompts().assertDone();
    assert.equal(done?.rows, expected.length);
    assert.equal(done?.path, target.fsPath);
    // Parquet's magic at both ends, and DuckDB reads it as Parquet (read_parquet refuses anything else).
    assert.equal(head(target.fsPath, 4, 'start'), 'PAR1');
    assert.equal(head(target.fsPath, 4, 'end'), 'PAR1');
    const path = sql(target.fsPath);
    assert.deepEqual(duckRows(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${path}))`), [['id', 'BIGINT'], ['region', 'VARCHAR'], ['amount', 'DOUBLE'], ['day', 'DATE']]);
    assert.deepEqual(duckRows(`SELECT id, region, amount, CAST(day AS VARCHAR) FROM read_parquet(${path})`), expected);
    assert.ok(prompts().notifications.some((n) => n.level === 'info' && n.message.includes(`Exported ${expected.length} rows of explore-export.csv`)), JSON.stringify(prompts().notifications));
    assert.deepEqual(partFiles(), [], 'no temporary file left');
    rmSync(target.fsPath);
  });

  it('cancelling an export stops it and leaves no file, not even a partial one', async () => {
    const a = await api();
    const big = workspaceFile('explore-big.parquet').fsPath;
    // Large enough that the CSV export takes seconds: the cancel lands while the COPY writes.
    duck(`COPY (SELECT i AS id, 'name ' || i AS name, i % 97 AS bucket, i * 0.5 AS half FROM range(${BIG_ROWS}) t(i)) TO ${sql(big)} (FORMAT parquet)`);
    const target = workspaceFile('explore-big-export.csv');
    try {
      const x = await openFile('explore-big.parquet');
      await ready(x, 'the large Parquet file');
      const view = x.viewId as string;
      prompts().expect({ kind: 'saveFile', match: /Export the view of explore-big\.parquet as CSV/, answer: target });
      const cts = new vscode.CancellationTokenSource();
      const started = Date.now();
      const exporting = exportView(a.services, x, { sort: [], filters: [{ column: 'bucket', op: 'between', min: 0, max: 90 }] }, 'csv', cts.token);
      // The service is writing: its hidden temporary file is there and grows.
      await waitFor('the export\'s temporary file', () => partFiles().length > 0, 60_000);
      const part = partFiles()[0] as string;
      assert.match(part, /^\.explore-big-export\.csv\..*\.part$/);
      const cancelledAt = Date.now();
      cts.cancel();
      const result = await exporting;
      const stoppedIn = Date.now() - cancelledAt;
      prompts().assertDone();
      assert.equal(result, undefined, 'a cancelled export returns nothing');
      assert.ok(stoppedIn < 10_000, `stopped ${stoppedIn} ms after the cancel (the export had run ${cancelledAt - started} ms)`);
      assert.equal(existsSync(target.fsPath), false, 'no exported file');
      assert.deepEqual(partFiles(), [], 'no partial file');
      assert.ok(prompts().notifications.some((n) => /The export of explore-big\.parquet was cancelled; nothing was written/.test(n.message)), JSON.stringify(prompts().notifications));
      // Really stopped on the service: no export runs on the view, and nothing appears later.
      const status = await (await exploreClient(a.services)).status(view);
      assert.equal(status.export, undefined, JSON.stringify(status));
      await new Promise((r) => setTimeout(r, 3000));
      assert.equal(existsSync(target.fsPath), false, 'nothing written after the cancel either');
      assert.deepEqual(partFiles(), []);
      console.log(`      explorer: an export of ${BIG_ROWS.toLocaleString('en-US')} rows cancelled after ${cancelledAt - started} ms stopped in ${stoppedIn} ms`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(big, { force: true });
      rmSync(target.fsPath, { force: true });
    }
  });

  describe('connected to the hosted service', () => {
    before(async () => {
      await vscode.workspace.getConfiguration('teamData').update('baseUrl', 'http://127.0.0.1:9/', vscode.ConfigurationTarget.Workspace);
      const info = await (await api()).services.connection.refresh();
      assert.equal(info.mode, 'hosted');
    });
    after(async () => {
      await vscode.workspace.getConfiguration('teamData').update('baseUrl', undefined, vscode.ConfigurationTarget.Workspace);
      const info = await (await api()).services.connection.refresh();
      assert.equal(info.mode, 'local');
    });

    it('says plainly that the explorer needs the local service, from the command and in an editor opened with Open With', async () => {
      const uri = workspaceFile('explore-export.csv');
      const x = (await vscode.commands.executeCommand('teamData.openInExplorer', uri)) as ExplorerSession | undefined;
      assert.equal(x, undefined, 'no tab from the command');
      const warned = prompts().notifications.find((n) => n.level === 'warning');
      assert.equal(warned?.message, NEEDS_LOCAL_SERVICE);
      assertHumane(NEEDS_LOCAL_SERVICE);
      assert.match(NEEDS_LOCAL_SERVICE, /needs the local service[\s\S]*Use Local Service/);
      // Open With… reaches the custom editor without the command: the tab says the same.
      const a = await api();
      await vscode.commands.executeCommand('vscode.openWith', uri, 'teamData.explorer');
      const tab = await waitFor('the explorer tab', () => a.services.explorers.sessions.find((s) => s.origin.kind === 'file' && s.origin.uri.fsPath === uri.fsPath));
      const message = await waitFor('the message in the tab', () => tab.lastError, 60_000);
      assert.match(message, /^Could not open explore-export\.csv: The Team Data Explorer needs the local service/);
      assert.equal(tab.posted.some((m) => m.type === 'init'), false, 'no grid');
      assert.deepEqual(tab.posted.filter((m) => m.type === 'error').map((m) => m.type === 'error' && m.message), [message], 'the message is what the webview shows');
      // A data source of the tree: the same words, no tab.
      const node = { kind: 'dataSource', dataSource: { id: 'ds', datasetId: 'd', name: 'orders', fileName: 'orders.csv', status: 'synched' } };
      assert.equal(await vscode.commands.executeCommand('teamData.dataSources.explore', node), undefined);
      assert.equal(prompts().notifications.filter((n) => n.message === NEEDS_LOCAL_SERVICE).length, 2);
    });
  });
});
