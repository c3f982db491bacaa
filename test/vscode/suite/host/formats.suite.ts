/**
 * Parquet and gzip-compressed CSV from the workspace (issue 16, item 1): Analyze This File reads
 * them on the local service; with a hosted service the extension says the service does not accept
 * them, converts to CSV with DuckDB on this machine and uploads the CSV. The "hosted" service is
 * the real local service addressed by its URL and signed in to (as in the sign-in suite), so the
 * upload and the answer are real; what makes it hosted is the extension's connection mode.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import type { AnalyzeResult } from '../../../../src/extension/flows/analyze';
import { CONVERT_AND_UPLOAD } from '../../../../src/extension/flows/csvConversion';
import { api, extension, ScriptedPrompts, useScriptedPrompts, waitFor, workspaceFile } from './helpers';

const REGIONS = ['north', 'south', 'east', 'west'];
const ROWS = 400;
/** Invented orders: region i % 4, amount i % 50; each region's total is known. */
const csvText = `region,amount\n${Array.from({ length: ROWS }, (_, i) => `${REGIONS[i % 4]},${i % 50}`).join('\n')}\n`;
const totalOf = (region: string): number => Array.from({ length: ROWS }, (_, i) => i).filter((i) => REGIONS[i % 4] === region).reduce((s, i) => s + (i % 50), 0);

/** Writes a Parquet file with the DuckDB binding the extension ships, run by the editor's Node. */
function writeParquet(path: string): void {
  const duck = join(extension().extensionPath, 'node_modules', '@duckdb', 'node-api');
  const sql = `COPY (SELECT ['north', 'south', 'east', 'west'][range % 4 + 1] AS region, range % 50 AS amount FROM range(${ROWS})) TO '${path.replace(/'/g, "''")}' (FORMAT parquet)`;
  const script = `const { DuckDBInstance } = require(${JSON.stringify(duck)});
    (async () => { const i = await DuckDBInstance.create(':memory:'); const c = await i.connect(); await c.run(process.argv[1]); c.disconnectSync(); i.closeSync(); })()
      .catch((e) => { console.error(String(e)); process.exit(1); });`;
  const r = spawnSync(process.execPath, ['-e', script, sql], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8' });
  assert.equal(r.status, 0, `could not write the Parquet file: ${r.stderr}`);
}

/** The regions whose right total the answer states ("- south: 2,500"). */
function regionsWithRightTotals(result: AnalyzeResult | undefined): string[] {
  const text = (result?.answer?.groups ?? []).flatMap((g) => g.blocks).map((b) => (b.type === 'MESSAGE' ? b.content : '')).join('\n');
  return REGIONS.filter((r) => text.includes(`- ${r}: ${totalOf(r).toLocaleString('en-US')}`));
}

describe('Parquet and compressed files', function () {
  this.timeout(180_000);
  const prompts = useScriptedPrompts();

  before(async () => {
    writeParquet(workspaceFile('orders.parquet').fsPath);
    await vscode.workspace.fs.writeFile(workspaceFile('orders.csv.gz'), gzipSync(Buffer.from(csvText)));
  });

  beforeEach(async () => {
    // No open answer panel: analyzing then opens a new session without asking.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const a = await api();
    await waitFor('the panels to close', () => a.services.panels.active === undefined || undefined);
  });

  for (const file of ['orders.parquet', 'orders.csv.gz']) {
    it(`analyzes ${file} on the local service`, async () => {
      const uri = workspaceFile(file);
      const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
      prompts().expect(
        { kind: 'pick', match: new RegExp(`Add ${file.replace(/\./g, '\\.')} to which dataset`), answer: (items) => items.find((i) => new RegExp(`New dataset “${folder}”|\\$\\(database\\) ${folder}$`).test(i.label)) },
        { kind: 'input', match: new RegExp(`Ask about ${file.replace(/\./g, '\\.')}`), answer: () => 'total amount by region' },
      );
      const result = (await vscode.commands.executeCommand('teamData.analyzeFile', uri, [uri])) as AnalyzeResult | undefined;
      prompts().assertDone();
      assert.deepEqual(prompts().errors(), []);
      assert.equal(result?.answer?.state, 'done', JSON.stringify(result?.answer?.error));
      const client = await (await api()).services.connection.client();
      const ds = await client.dataSources.get(result.datasetId, result.dataSourceIds[0] as string);
      assert.equal(ds.fileName, file);
      assert.equal(ds.status, 'synched');
      assert.deepEqual(regionsWithRightTotals(result), REGIONS, 'every region total is in the answer');
    });
  }

  describe('with a hosted service', () => {
    let hostedSession: string | undefined;
    before(async () => {
      const a = await api();
      const endpoint = await a.services.supervisor.ensureStarted();
      const signIn = new ScriptedPrompts();
      a.usePrompts(signIn);
      signIn.expect(
        { kind: 'input', match: /Base URL/, answer: () => endpoint.baseUrl },
        { kind: 'input', match: /user id/, answer: () => 'tester' },
        { kind: 'input', match: /API key/, answer: () => endpoint.apiKey },
      );
      assert.equal(await vscode.commands.executeCommand('teamData.signIn'), true, JSON.stringify(signIn.notifications));
      a.usePrompts(undefined);
      signIn.assertDone();
      assert.equal((await a.services.connection.refresh()).mode, 'hosted');
    });
    after(async () => {
      const a = await api();
      // The local service limits sessions across users; the later session-limit test counts only its own user's.
      if (hostedSession !== undefined) await (await a.services.connection.client()).sessions.delete(hostedSession).catch(() => undefined);
      await vscode.commands.executeCommand('teamData.signOut');
      const config = vscode.workspace.getConfiguration('teamData');
      await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await config.update('userId', undefined, vscode.ConfigurationTarget.Global);
      await a.services.connection.refresh();
    });

    it('says the service does not accept a Parquet file, converts it to CSV with DuckDB and uploads that', async () => {
      const uri = workspaceFile('orders.parquet');
      const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
      prompts().expect(
        { kind: 'choose', match: /does not accept orders\.parquet: the hosted service reads only csv, tsv/, answer: CONVERT_AND_UPLOAD },
        { kind: 'pick', match: /Add orders\.parquet to which dataset/, answer: (items) => items.find((i) => new RegExp(`New dataset “${folder}”|\\$\\(database\\) ${folder}$`).test(i.label)) },
        { kind: 'input', match: /Ask about orders\.parquet/, answer: () => 'total amount by region' },
      );
      const result = (await vscode.commands.executeCommand('teamData.analyzeFile', uri, [uri])) as AnalyzeResult | undefined;
      hostedSession = result?.sessionId;
      prompts().assertDone();
      assert.deepEqual(prompts().errors(), []);
      assert.equal(result?.answer?.state, 'done', JSON.stringify(result?.answer?.error));
      const client = await (await api()).services.connection.client();
      const ds = await client.dataSources.get(result.datasetId, result.dataSourceIds[0] as string);
      assert.equal(ds.fileName, 'orders.csv', 'the CSV was uploaded, not the Parquet file');
      assert.equal(ds.status, 'synched');
      assert.deepEqual(regionsWithRightTotals(result), REGIONS, 'every region total is in the answer');
    });

    it('uploads nothing when the conversion is declined', async () => {
      const uri = workspaceFile('orders.csv.gz');
      prompts().expect({ kind: 'choose', match: /does not accept orders\.csv\.gz/, answer: undefined });
      const result = await vscode.commands.executeCommand('teamData.analyzeFile', uri, [uri]);
      prompts().assertDone();
      assert.equal(result, undefined);
    });
  });
});
