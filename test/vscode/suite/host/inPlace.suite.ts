/**
 * A workspace CSV read in place by the local service (issue 16, item 2): Analyze This File adds it
 * without uploading it (the service is handed the file's path; nothing lands in its data folder),
 * the Datasets view shows its rows (and, while a file is read, how far the read has got), and after
 * the file is edited the next question answers from the new contents.
 */
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { answerBlocks } from '../../../../src/shared/answerFold';
import type { Answer } from '../../../../src/shared/domain';
import type { AnalyzeResult } from '../../../../src/extension/flows/analyze';
import { api, useScriptedPrompts, waitFor, workspaceFile } from './helpers';

const REGIONS = ['north', 'south', 'east', 'west'];
const csvOf = (rows: number): string => `region,amount\n${Array.from({ length: rows }, (_, i) => `${REGIONS[i % 4]},${i % 50}`).join('\n')}\n`;
const totalOf = (rows: number, region: string): number => Array.from({ length: rows }, (_, i) => i).filter((i) => REGIONS[i % 4] === region).reduce((s, i) => s + (i % 50), 0);

/** Whether the answer states every region's right total for a file of `rows` rows ("- south: 2,500"). */
function statesTotals(answer: Answer | undefined, rows: number): boolean {
  const text = answer === undefined ? '' : answerBlocks(answer).map((b) => (b.type === 'MESSAGE' ? b.content : '')).join('\n');
  return REGIONS.every((r) => text.includes(`- ${r}: ${totalOf(rows, r).toLocaleString('en-US')}`));
}

describe('a workspace CSV read in place', function () {
  this.timeout(180_000);
  const prompts = useScriptedPrompts();

  it('is analyzed without an upload, and an edit shows up in the next answer', async () => {
    const uri = workspaceFile('inplace-orders.csv');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(csvOf(400)));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const a = await api();
    await waitFor('the panels to close', () => a.services.panels.active === undefined || undefined);
    const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
    prompts().expect(
      { kind: 'pick', match: /Add inplace-orders\.csv to which dataset/, answer: (items) => items.find((i) => new RegExp(`New dataset “${folder}”|\\$\\(database\\) ${folder}$`).test(i.label)) },
      { kind: 'input', match: /Ask about inplace-orders\.csv/, answer: () => 'total amount by region' },
    );
    const result = (await vscode.commands.executeCommand('teamData.analyzeFile', uri, [uri])) as AnalyzeResult | undefined;
    prompts().assertDone();
    assert.deepEqual(prompts().errors(), []);
    assert.equal(result?.answer?.state, 'done', JSON.stringify(result?.answer?.error));
    assert.ok(statesTotals(result.answer, 400), 'the first answer states the totals of the file');

    const client = await a.services.connection.client();
    const id = result.dataSourceIds[0] as string;
    const ds = await client.dataSources.get(result.datasetId, id);
    assert.equal(ds.status, 'synched');
    assert.equal(ds.path, uri.fsPath, 'the source reads the workspace file where it is');
    // No upload: the service's data folder holds no copy of the file.
    const dataDir = a.services.supervisor.dataDir;
    assert.equal(existsSync(join(dataDir, 'sources', `${id}.csv`)), false, 'the file was copied into the sources folder');
    assert.deepEqual((await readdir(join(dataDir, 'uploads'))).filter((f) => f.includes('inplace')), []);

    // The Datasets view says it is ready, its rows, and that it is read in place; while a file is
    // read it says how far the read has got.
    a.services.datasets.refresh();
    const dsNode = (await a.services.datasets.getChildren()).find((n) => n.kind === 'dataset' && n.dataset.id === result.datasetId);
    assert.ok(dsNode);
    const node = (await a.services.datasets.getChildren(dsNode)).find((n) => n.kind === 'dataSource' && n.dataSource.id === id);
    assert.ok(node && node.kind === 'dataSource');
    assert.equal(a.services.datasets.getTreeItem(node).description, 'ready · 400 rows · in place');
    const reading = { ...node, dataSource: { ...node.dataSource, status: 'synching' as const, progress: { readBytes: 412 * 1024 ** 2, totalBytes: 1024 ** 3, rowsRead: 7_080_000 } } };
    assert.equal(a.services.datasets.getTreeItem(reading).description, 'reading 432 MB of 1.1 GB (40%) · about 7.1M rows');

    // Edit the file; the next question sees the new rows.
    await vscode.workspace.fs.writeFile(uri, Buffer.from(csvOf(480)));
    const again = await client.jobs.run({ sessionId: result.sessionId as string, datasetId: result.datasetId, datasourceIdList: [id], question: 'total amount by region' });
    assert.equal(again.state, 'done', JSON.stringify(again.error));
    assert.ok(statesTotals(again, 480), 'the answer after the edit states the new totals');
    assert.equal(statesTotals(again, 400), false);
  });
});
