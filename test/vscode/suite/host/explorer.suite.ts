/**
 * The Team Data Explorer in a real VS Code (issue 27): each format opens in the custom editor and
 * the real explorer webview gets `init` and its first pages from the local service; an answer
 * table opens with "Explore"; "Ask about this view" carries the view's filters into the answer's
 * reading line; an edited file comes back as `reloaded`, a deleted one as a plain message; and bad
 * input (a corrupt Parquet or gzip file, 10,000 columns, a 500 MB single line, all generated here in
 * the temporary workspace) gives a plain message while the service stays up. The tests read what
 * the host posted to the webview (ExplorerSession.posted), so the real webview's own requests
 * are what is checked.
 */
import { strict as assert } from 'node:assert';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import * as vscode from 'vscode';
import type { AnalyzeResult } from '../../../../src/extension/flows/analyze';
import { askAboutView, copySql, exportView } from '../../../../src/extension/explorer/explorerActions';
import type { ExplorerSession } from '../../../../src/extension/explorer/explorerSession';
import { handleAction } from '../../../../src/extension/panel/panelActions';
import type { Answer } from '../../../../src/shared/domain';
import { fileKeyOf } from '../../../../src/shared/protocol';
import { duck, firstPage, openFile, postedOf, sql, write } from './explorerHelpers';
import { api, assertHumane, useScriptedPrompts, waitFor, workspaceFile } from './helpers';

const REGIONS = ['north', 'south', 'east', 'west'];
const ROWS = 120;
const rows = Array.from({ length: ROWS }, (_, i) => ({ region: REGIONS[i % 4] as string, amount: i % 50, day: `2024-0${1 + (i % 9)}-1${i % 10}` }));
const csv = (sep: string): string => `region${sep}amount${sep}day\n${rows.map((r) => [r.region, r.amount, r.day].join(sep)).join('\n')}\n`;
const northTotal = rows.filter((r) => r.region === 'north').reduce((s, r) => s + r.amount, 0);

const stepsOf = (a: Answer | undefined): string[] => (a?.groups ?? []).filter((g) => g.stage === 'Analyze').map((g) => g.name);

async function failure(name: string): Promise<string> {
  const x = await openFile(name);
  const message = await waitFor(`a message for ${name}`, () => x.lastError, 120_000);
  assertHumane(message);
  assert.equal(postedOf(x, 'init').length, 0, `no grid for ${name}`);
  return message;
}

describe('Team Data Explorer (issue 27)', function () {
  this.timeout(300_000);
  const prompts = useScriptedPrompts();
  /** The analysis of the answer-table test: its data source opens in the explorer too. */
  let analyzed: AnalyzeResult | undefined;

  before(async () => {
    await write('explore-orders.csv', csv(','));
    await write('explore-orders.tsv', csv('\t'));
    await write('explore-orders.jsonl', `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await write('explore-orders.csv.gz', gzipSync(Buffer.from(csv(','))));
    duck(`COPY (SELECT * FROM read_csv(${sql(workspaceFile('explore-orders.csv').fsPath)})) TO ${sql(workspaceFile('explore-orders.parquet').fsPath)} (FORMAT parquet)`);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['region', 'amount'], ...rows.slice(0, 10).map((r) => [r.region, r.amount])]), 'Orders');
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['city', 'stores'], ['Lyon', 3], ['Oslo', 5]]), 'Cities');
    await write('explore-book.xlsx', new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer));
    await write('explore-orders.parquet.gz', gzipSync(readFileSync(workspaceFile('explore-orders.parquet').fsPath)));
    await write('explore-book.xlsx.gz', gzipSync(readFileSync(workspaceFile('explore-book.xlsx').fsPath)));
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  for (const name of ['explore-orders.csv', 'explore-orders.tsv', 'explore-orders.parquet', 'explore-orders.jsonl', 'explore-orders.csv.gz', 'explore-orders.parquet.gz']) {
    it(`opens ${name} in the custom editor: the webview gets init and its first page`, async () => {
      const x = await openFile(name);
      assert.equal(x.origin.kind, 'file');
      const { init, rows: page } = await firstPage(x, name);
      assert.deepEqual(init.opened.columns.map((c) => c.name), ['region', 'amount', 'day']);
      assert.equal(init.opened.fileName, name);
      assert.deepEqual(page[0]?.slice(0, 2), ['north', 0]);
      assert.ok(page.length >= 100, `a page of rows, not ${page.length}`);
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      assert.ok(tab instanceof vscode.TabInputCustom && tab.viewType === 'teamData.explorer', 'opened in the custom editor');
    });
  }

  for (const name of ['explore-book.xlsx', 'explore-book.xlsx.gz']) it(`opens ${name === 'explore-book.xlsx' ? 'an .xlsx workbook' : 'a gzip workbook (.xlsx.gz)'} and switches sheets`, async () => {
    const x = await openFile(name);
    const { init, rows: page } = await firstPage(x, 'the workbook');
    assert.deepEqual(init.opened.sheets, ['Orders', 'Cities']);
    assert.equal(init.opened.sheet, 'Orders');
    assert.equal(page.length, 10);
    await x.receive({ type: 'switchSheet', sheet: 'Cities' });
    const reloaded = await waitFor('the other sheet', () => postedOf(x, 'reloaded').find((m) => m.opened.sheet === 'Cities'));
    assert.deepEqual(reloaded.opened.columns.map((c) => c.name), ['city', 'stores']);
    const cities = await waitFor('a page of the other sheet', () => postedOf(x, 'page').find((p) => p.page.rows[0]?.[0] === 'Lyon'));
    assert.deepEqual(cities.page.rows, [['Lyon', 3], ['Oslo', 5]]);
  });

  it('answers a filtered count and drops the answer to a query the webview has replaced', async () => {
    const x = await openFile('explore-orders.csv');
    await firstPage(x, 'the CSV');
    await waitFor('the whole file read', () => x.current?.state === 'ready');
    const north = { sort: [], filters: [{ column: 'region', op: 'in' as const, values: ['north'] }] };
    const south = { sort: [], filters: [{ column: 'region', op: 'in' as const, values: ['south'] }] };
    await Promise.all([x.receive({ type: 'fetchCount', requestId: 9001, query: north }), x.receive({ type: 'fetchCount', requestId: 9002, query: south })]);
    assert.deepEqual(postedOf(x, 'count').filter((c) => c.requestId > 9000), [{ type: 'count', requestId: 9002, matching: ROWS / 4 }]);
    await x.receive({ type: 'fetchRows', requestId: 9003, offset: 0, limit: 5, query: { sort: [], filters: [{ column: 'region', op: 'regex', text: '(' }] } });
    const err = postedOf(x, 'error').find((e) => e.requestId === 9003);
    assert.ok(err, 'a bad regex is an error for that request');
    assertHumane(err.message);
  });

  it('answers every page asked for while a large CSV is still read (a status poll no longer drops the reply in flight)', async () => {
    const path = workspaceFile('explore-reading.csv').fsPath;
    duck(`COPY (SELECT i AS id, i % 97 AS bucket, 'name ' || i AS name FROM range(6000000) t(i)) TO ${sql(path)} (FORMAT csv, HEADER true)`);
    try {
      const x = await openFile('explore-reading.csv');
      const init = await waitFor('init', () => postedOf(x, 'init')[0], 60_000);
      assert.equal(init.opened.state, 'reading');
      // One request after the other while the file is read: one is in flight each time the
      // status poll (every 500 ms) hears of the read's progress. Each is answered before
      // `receive` returns, or never.
      const missing: number[] = [];
      let asked = 0;
      const started = Date.now();
      while (x.current?.state === 'reading' && asked < 2000) {
        const requestId = 1_000_000 + asked++;
        await x.receive({ type: 'fetchRows', requestId, offset: (asked % 20) * 50, limit: 50, query: { sort: [], filters: [] } });
        if (!x.posted.slice(-20).some((m) => (m.type === 'page' || m.type === 'error') && m.requestId === requestId)) missing.push(requestId);
      }
      const lasted = Date.now() - started;
      assert.ok(lasted > 1200, `the read must outlast a few status polls to show anything: it lasted ${lasted} ms`);
      assert.deepEqual(missing, [], `of ${asked} requests over ${lasted} ms, these got no reply`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      rmSync(path, { force: true });
    }
  });

  it('Explore on an answer table opens the table\'s CSV in the explorer', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const a = await api();
    const uri = workspaceFile('explore-orders.csv');
    const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
    prompts().expect(
      { kind: 'pick', match: /Add explore-orders\.csv to which dataset/, answer: (items) => items.find((i) => new RegExp(`New dataset “${folder}”|\\$\\(database\\) ${folder}$`).test(i.label)) },
      { kind: 'input', match: /Ask about explore-orders\.csv/, answer: () => 'total amount by region' },
    );
    const result = (await vscode.commands.executeCommand('teamData.analyzeFile', uri, [uri])) as AnalyzeResult | undefined;
    prompts().assertDone();
    assert.equal(result?.answer?.state, 'done', JSON.stringify(result?.answer?.error));
    analyzed = result;
    const panel = a.services.panels.get(result.sessionId ?? '');
    assert.ok(panel);
    const turn = panel.conversation.find((t) => t.answer.groups.some((g) => g.blocks.some((b) => b.type === 'TABLE')));
    const table = turn?.answer.groups.flatMap((g) => g.blocks).find((b) => b.type === 'TABLE');
    assert.ok(turn && table && table.type === 'TABLE', 'an answer with a table');
    await handleAction(a.services, panel, { type: 'exploreTable', turnId: turn.id, fileKey: fileKeyOf(table) });
    const x = await waitFor('an explorer tab on the table', () => a.services.explorers.sessions.find((s) => s.origin.kind === 'table'));
    // The first Explore of a table lets the service read the answer-file cache (it may restart for that).
    const { init, rows: page } = await firstPage(x, 'the answer table');
    assert.equal(init.opened.columns.length >= 2, true, JSON.stringify(init.opened.columns));
    assert.deepEqual(new Set(page.map((r) => r[0])), new Set(REGIONS));
  });

  it('opens a data source of the Datasets tree in the explorer', async () => {
    assert.ok(analyzed, 'needs the analysis of the answer-table test');
    const a = await api();
    const client = await a.services.connection.client();
    const ds = await client.dataSources.get(analyzed.datasetId, analyzed.dataSourceIds[0] as string);
    const x = (await vscode.commands.executeCommand('teamData.dataSources.explore', { kind: 'dataSource', dataSource: ds })) as ExplorerSession | undefined;
    assert.ok(x);
    assert.equal(x.origin.kind, 'source');
    const { init, rows: page } = await firstPage(x, 'the data source');
    assert.deepEqual(init.opened.columns.map((c) => c.name), ['region', 'amount', 'day']);
    assert.ok(page.length >= 100, `a page of rows, not ${page.length}`);
  });

  it('Copy as SQL opens the view\'s SQL in an untitled sql document', async () => {
    const a = await api();
    const x = await openFile('explore-orders.csv');
    await firstPage(x, 'the CSV');
    const editor = await copySql(a.services, x, { sort: [{ column: 'amount', desc: true }], filters: [{ column: 'region', op: 'in', values: ['north'] }] });
    assert.ok(editor);
    assert.equal(editor.document.uri.scheme, 'untitled');
    assert.equal(editor.document.languageId, 'sql');
    const text = editor.document.getText();
    assert.match(text, /explore-orders\.csv/);
    assert.match(text, /WHERE[\s\S]*'north'[\s\S]*ORDER BY/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Export CSV writes the filtered view where the save dialog says, and nothing else', async () => {
    const a = await api();
    const x = await openFile('explore-orders.csv');
    await firstPage(x, 'the CSV');
    await waitFor('the whole file read', () => x.current?.state === 'ready');
    const target = workspaceFile('explore-north.csv');
    prompts().expect({ kind: 'saveFile', match: /Export the view of explore-orders\.csv as CSV/, answer: target });
    const done = await exportView(a.services, x, { sort: [], filters: [{ column: 'region', op: 'in', values: ['north'] }] }, 'csv');
    prompts().assertDone();
    assert.equal(done?.rows, ROWS / 4);
    const lines = readFileSync(target.fsPath, 'utf8').trim().split('\n');
    assert.equal(lines.length, ROWS / 4 + 1);
    assert.ok(lines.slice(1).every((l) => l.startsWith('north,')));
    assert.deepEqual(readdirSync(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '').filter((f) => f.endsWith('.part')), [], 'no temporary file left');
    rmSync(target.fsPath);
    assert.equal(existsSync(target.fsPath), false);
  });

  it('Ask about this view: the answer\'s reading line states the view\'s filter', async () => {
    const a = await api();
    const x = await openFile('explore-orders.csv');
    await firstPage(x, 'the CSV');
    const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
    prompts().expect(
      { kind: 'input', match: /Ask about explore-orders\.csv, where `region` is "north"/, answer: () => 'total `amount`' },
      { kind: 'pick', match: /Add explore-orders\.csv to which dataset/, answer: (items) => items.find((i) => new RegExp(`\\$\\(database\\) ${folder}$|New dataset “${folder}”`).test(i.label)) },
    );
    const asked = await askAboutView(a.services, x, { sort: [], filters: [{ column: 'region', op: 'in', values: ['north'] }] });
    prompts().assertDone();
    assert.ok(asked);
    assert.equal(asked.question, 'total `amount` where `region` is "north"');
    assert.equal(asked.answer.state, 'done', JSON.stringify(asked.answer.error));
    assert.ok(stepsOf(asked.answer).includes('Read the question as: Total `amount` where `region` is "north"'), JSON.stringify(stepsOf(asked.answer)));
    const text = asked.answer.groups.flatMap((g) => g.blocks).map((b) => (b.type === 'MESSAGE' ? b.content : '')).join('\n');
    assert.ok(text.includes(northTotal.toLocaleString('en-US')), text);
  });

  it('Ask about this view names a filter a question cannot carry, and asks nothing unless told to', async () => {
    const a = await api();
    const x = await openFile('explore-orders.csv');
    await firstPage(x, 'the CSV');
    prompts().expect({ kind: 'choose', match: /cannot carry this filter of the view: `region` starts with "no"/, answer: undefined });
    const asked = await askAboutView(a.services, x, { sort: [], filters: [{ column: 'region', op: 'startsWith', text: 'no' }] });
    prompts().assertDone();
    assert.equal(asked, undefined);
  });

  it('an edited file comes back as reloaded with its new rows and columns', async () => {
    await write('explore-edit.csv', 'a,b\n1,2\n3,4\n');
    const x = await openFile('explore-edit.csv');
    await firstPage(x, 'the file');
    await new Promise((r) => setTimeout(r, 1100));
    await write('explore-edit.csv', 'a,b,c\n1,2,3\n3,4,5\n5,6,7\n');
    const reloaded = await waitFor('reloaded', () => postedOf(x, 'reloaded')[0], 60_000);
    assert.deepEqual(reloaded.opened.columns.map((c) => c.name), ['a', 'b', 'c']);
    await waitFor('a page of the new file', () => postedOf(x, 'page').find((p) => p.page.rows.length === 3));
  });

  it('a deleted file gives a plain message in the editor', async () => {
    await write('explore-gone.csv', 'a,b\n1,2\n');
    const x = await openFile('explore-gone.csv');
    await firstPage(x, 'the file');
    await vscode.workspace.fs.delete(workspaceFile('explore-gone.csv'));
    const message = await waitFor('the message', () => x.lastError, 60_000);
    assert.match(message, /explore-gone\.csv was deleted or moved/);
    assertHumane(message);
  });

  describe('bad input gives a plain message while the service stays up', () => {
    let pid: number | undefined;
    before(async () => {
      const a = await api();
      await a.services.supervisor.ensureStarted();
      pid = a.services.supervisor.pid;
    });
    afterEach(async () => {
      const a = await api();
      assert.equal(a.services.supervisor.pid, pid, 'the same service process');
      await (await a.services.connection.client()).datasets.list({ pageSize: 1 });
    });

    it('a corrupt Parquet file', async () => {
      await write('explore-corrupt.parquet', Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(4096, 7), Buffer.from('PAR1')]));
      assert.match(await failure('explore-corrupt.parquet'), /explore-corrupt\.parquet/);
    });

    it('a corrupt gzip file', async () => {
      await write('explore-corrupt.csv.gz', Buffer.concat([gzipSync(Buffer.from(csv(','))).subarray(0, 40), Buffer.alloc(2048, 3)]));
      assert.match(await failure('explore-corrupt.csv.gz'), /explore-corrupt\.csv\.gz/);
    });

    it('a CSV with 10,000 columns', async () => {
      const header = Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',');
      await write('explore-wide.csv', `${header}\n${Array.from({ length: 10_000 }, (_, i) => i).join(',')}\n`);
      assert.match(await failure('explore-wide.csv'), /10,000 columns/);
    });

    it('a 500 MB file on a single line', async function () {
      this.timeout(600_000);
      const path = workspaceFile('explore-oneline.csv').fsPath;
      const fd = openSync(path, 'w');
      try {
        const chunk = Buffer.alloc(8 * 1024 * 1024, 'a');
        for (let written = 0; written < 500 * 1024 * 1024; written += chunk.length) writeSync(fd, chunk);
      } finally {
        closeSync(fd);
      }
      try {
        assert.match(await failure('explore-oneline.csv'), /line is longer than/);
      } finally {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        rmSync(path, { force: true });
      }
    });
  });
});
