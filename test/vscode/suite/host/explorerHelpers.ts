/**
 * What the Team Data Explorer's host suites share (issue 27): files written into the test
 * workspace, DuckDB run with the binding the extension ships (to make test files and to read an
 * export back), what the host posted to a tab's webview, and opening a file in the explorer.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExplorerSession } from '../../../../src/extension/explorer/explorerSession';
import type { ExplorerHostToWebview } from '../../../../src/shared/explorerProtocol';
import { extension, waitFor, workspaceFile } from './helpers';

/** Runs `sql` in DuckDB in the editor's Node; returns the last statement's rows (JSON-safe: numbers, text, null). */
export function duckRows(sql: string): unknown[][] {
  const binding = join(extension().extensionPath, 'node_modules', '@duckdb', 'node-api');
  const script = `const { DuckDBInstance } = require(${JSON.stringify(binding)});
    (async () => {
      const i = await DuckDBInstance.create(':memory:'); const c = await i.connect();
      const r = await c.runAndReadAll(process.argv[1]);
      const rows = r.getRows().map((row) => row.map((v) => typeof v === 'bigint' ? Number(v) : v === null || typeof v !== 'object' ? v : String(v)));
      process.stdout.write(JSON.stringify(rows));
      c.disconnectSync(); i.closeSync();
    })().catch((e) => { console.error(String(e)); process.exit(1); });`;
  const r = spawnSync(process.execPath, ['-e', script, sql], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.status, 0, `DuckDB failed: ${r.stderr}`);
  return JSON.parse(r.stdout || '[]') as unknown[][];
}

/** Runs SQL in DuckDB (to write test files). */
export function duck(sql: string): void {
  duckRows(sql);
}

export const write = (name: string, data: string | Uint8Array): Thenable<void> => vscode.workspace.fs.writeFile(workspaceFile(name), typeof data === 'string' ? Buffer.from(data) : data);

/** A SQL string literal. */
export const sql = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export function postedOf<T extends ExplorerHostToWebview['type']>(x: ExplorerSession, type: T): Array<Extract<ExplorerHostToWebview, { type: T }>> {
  return x.posted.filter((m): m is Extract<ExplorerHostToWebview, { type: T }> => m.type === type);
}

export async function openFile(name: string): Promise<ExplorerSession> {
  const x = (await vscode.commands.executeCommand('teamData.openInExplorer', workspaceFile(name))) as ExplorerSession | undefined;
  assert.ok(x, `no explorer tab for ${name}`);
  return x;
}

/** The real webview asked for its first page, and the host answered it. */
export async function firstPage(x: ExplorerSession, what: string): Promise<{ init: Extract<ExplorerHostToWebview, { type: 'init' }>; rows: unknown[][] }> {
  const init = await waitFor(`init for ${what}`, () => postedOf(x, 'init')[0] ?? (x.lastError !== undefined ? Promise.reject(new Error(x.lastError)) : undefined), 60_000);
  const page = await waitFor(`a page for ${what}`, () => postedOf(x, 'page').find((p) => p.page.offset === 0), 60_000).catch((err: unknown) => {
    // What the host did post says more than the timeout.
    throw new Error(`${String(err)}; the host posted: ${x.posted.map((m) => (m.type === 'error' ? `error: ${m.message}` : m.type === 'page' ? 'page' : JSON.stringify(m).slice(0, 300))).join(', ')}; the webview posted: ${x.received.join(', ')}`);
  });
  return { init, rows: page.page.rows };
}
