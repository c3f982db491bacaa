/**
 * Analyze This File on a workspace CSV, end to end against the real local service: a dataset
 * named after the workspace folder, a synched data source, a session, a completed job streamed
 * into the answer panel (whose webview completes the ready handshake), and the trees showing it.
 * Analyzing the unchanged file again reuses the data source.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AnalyzeResult } from '../../../../src/extension/flows/analyze';
import type { AskResult } from '../../../../src/extension/flows/ask';
import { handleAction } from '../../../../src/extension/panel/panelActions';
import type { PickItem } from '../../../../src/extension/ui/prompts';
import type { DataSource } from '../../../../src/shared/domain';
import { codeFileName } from '../../../../src/shared/fileNames';
import { fileKeyOf } from '../../../../src/shared/protocol';
import { activeItem, api, labelled, useScriptedPrompts, waitFor, workspaceFile } from './helpers';

export const shared: { first?: AnalyzeResult } = {};

describe('Analyze This File', function () {
  this.timeout(180_000);
  const prompts = useScriptedPrompts();

  it('uploads the CSV, waits until synched, opens a session and streams the answer into the panel', async () => {
    const a = await api();
    const csv = workspaceFile('sales.csv');
    const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
    prompts().expect(
      { kind: 'pick', match: /Add sales\.csv to which dataset/, answer: labelled(new RegExp(`New dataset “${folder}”`)) },
      { kind: 'input', match: /Ask about sales\.csv/, answer: (o) => o.value },
    );
    const result = (await vscode.commands.executeCommand('teamData.analyzeFile', csv, [csv])) as AnalyzeResult | undefined;
    prompts().assertDone();
    assert.deepEqual(prompts().errors(), []);
    assert.ok(result, 'the command returns what it did');
    assert.equal(result.dataSourceIds.length, 1);
    assert.ok(result.sessionId);
    assert.equal(result.answer?.state, 'done', JSON.stringify(result.answer?.error));
    assert.ok(result.answer.jobId);
    shared.first = result;

    const client = await a.services.connection.client();
    const dataset = (await client.datasets.list({ keyword: folder })).records.find((d) => d.id === result.datasetId);
    assert.equal(dataset?.name, folder, 'the default dataset is named after the workspace folder');
    const ds = await client.dataSources.get(result.datasetId, result.dataSourceIds[0] as string);
    assert.equal(ds.status, 'synched');
    assert.equal(ds.fileName, 'sales.csv');
    const session = await client.sessions.get(result.sessionId);
    assert.ok(session.title.length > 0);
    const history = await client.sessions.history(result.sessionId, {});
    assert.equal(history.records[0]?.jobId, result.answer.jobId);

    // The answer has real content: blocks beyond an empty shell.
    const blocks = result.answer.groups.flatMap((g) => g.blocks);
    assert.ok(blocks.some((b) => b.type === 'MESSAGE' && b.content.length > 20), 'a written answer');

    // The panel: one per session, its webview did the ready handshake, and holds the turn.
    const panel = a.services.panels.get(result.sessionId);
    assert.ok(panel, 'a panel for the session');
    await waitFor('the webview ready handshake', () => panel.isReady);
    const turn = panel.conversation[panel.conversation.length - 1];
    assert.equal(turn?.question, 'Give me an overview of this data');
    assert.equal(turn?.answer.state, 'done');
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview && t.label === panel.panel.title);
    assert.ok(tab, 'the panel is an editor tab');

    // The trees show the dataset, the synched data source and the session.
    a.services.datasets.refresh();
    const roots = await a.services.datasets.getChildren();
    const dsNode = roots.find((n) => n.kind === 'dataset' && n.dataset.id === result.datasetId);
    assert.ok(dsNode);
    const children = await a.services.datasets.getChildren(dsNode);
    const source = children.find((n) => n.kind === 'dataSource' && n.dataSource.id === ds.id);
    assert.ok(source);
    assert.equal(a.services.datasets.getTreeItem(source).contextValue, 'dataSource.synched');
    assert.equal(a.services.datasets.getParent(source), dsNode);
    a.services.sessions.refresh();
    const sessions = await a.services.sessions.getChildren();
    assert.ok(sessions.some((n) => n.kind === 'session' && n.session.id === result.sessionId));
    assert.equal(a.services.jobs.list.length, 0, 'no job left running');
  });

  it('reuses the data source of the unchanged file instead of uploading it again', async () => {
    const a = await api();
    const first = shared.first;
    assert.ok(first, 'needs the first analysis');
    const csv = workspaceFile('sales.csv');
    // Touch the file: same bytes, newer mtime -> the content hash decides.
    const bytes = await vscode.workspace.fs.readFile(csv);
    await vscode.workspace.fs.writeFile(csv, bytes);
    prompts().expect(
      { kind: 'pick', match: /Add sales\.csv to which dataset/, answer: (items) => items.find((i) => (i.value as { kind: string; dataset?: { id: string } }).dataset?.id === first.datasetId) },
      { kind: 'input', match: /Ask about/, answer: () => 'Which region has the highest revenue?' },
    );
    const again = (await vscode.commands.executeCommand('teamData.analyzeFile', csv)) as AnalyzeResult | undefined;
    prompts().assertDone();
    assert.ok(again);
    assert.deepEqual(again.dataSourceIds, first.dataSourceIds, 'same data source');
    assert.equal(again.sessionId, first.sessionId, 'the dataset session is reused');
    assert.equal(again.answer?.state, 'done');
    const client = await a.services.connection.client();
    const page = await client.dataSources.list(first.datasetId, {});
    assert.equal(page.total, 1, 'no second upload');
    const panel = a.services.panels.get(first.sessionId as string);
    assert.equal(panel?.conversation.filter((t) => !t.fromHistory).length, 2, 'both questions in one conversation');
  });

  it('Ask a Question offers the last session and dataset first and answers in that session', async () => {
    const first = shared.first;
    assert.ok(first?.sessionId, 'needs the first analysis');
    const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
    prompts().expect(
      {
        kind: 'pick',
        match: /Ask in which session/,
        answer: (items, opts) => {
          const it = activeItem(items, opts);
          assert.equal((it?.value as { session?: { id: string } }).session?.id, first.sessionId, 'the last session is pre-selected');
          assert.equal(it?.description, 'last used');
          return it;
        },
      },
      {
        kind: 'pick',
        match: /Ask about which dataset/,
        answer: (items, opts) => {
          assert.ok(!items.some((i) => /New dataset/.test(i.label)), 'asking never creates datasets');
          const it = activeItem(items, opts);
          assert.equal((it?.value as { dataset?: { id: string } }).dataset?.id, first.datasetId, 'the last dataset is pre-selected');
          return it;
        },
      },
      { kind: 'input', match: new RegExp(`Ask about “${folder}”`), answer: () => 'How many rows are there?' },
    );
    const asked = (await vscode.commands.executeCommand('teamData.ask')) as AskResult | undefined;
    prompts().assertDone();
    assert.equal(asked?.sessionId, first.sessionId);
    assert.equal(asked?.answer.state, 'done', JSON.stringify(asked?.answer.error));
  });

  it('a reopened panel loads the history, and a follow-up uses the session\'s last dataset and files', async () => {
    const a = await api();
    const first = shared.first;
    const sessionId = first?.sessionId;
    assert.ok(first && sessionId, 'needs the first analysis');
    a.services.panels.closeSession(sessionId);
    await waitFor('the panel to close', () => a.services.panels.get(sessionId) === undefined);
    const panel = await a.services.panels.open(sessionId);
    await panel.historyLoaded;
    const history = panel.conversation;
    assert.equal(history.length, 3, 'three questions so far');
    assert.ok(history.every((t) => t.fromHistory && t.answer.state === 'done'));
    assert.equal(history[0]?.question, 'Give me an overview of this data', 'oldest first');
    // What the webview's input box does: ask without naming a scope.
    const answer = await panel.ask('What is the average revenue per order?');
    assert.equal(answer.state, 'done', JSON.stringify(answer.error));
    const sources = answer.groups.flatMap((g) => g.blocks).flatMap((b) => (b.type === 'SOURCES' ? b.content : []));
    assert.ok(sources.some((x) => x.datasourceId === first.dataSourceIds[0]), `the answer draws on sales.csv: ${JSON.stringify(sources)}`);
  });

  it('a file the service cannot process shows as failed, with the reason in the tooltip', async () => {
    const a = await api();
    const first = shared.first;
    assert.ok(first, 'needs the first analysis');
    const pdf = workspaceFile('report.pdf');
    await vscode.workspace.fs.writeFile(pdf, new TextEncoder().encode('%PDF-1.4\n% not really a pdf\n'));
    prompts().expect({ kind: 'pick', match: /Add report\.pdf to which dataset/, answer: (items) => items.find((i) => (i.value as { dataset?: { id: string } }).dataset?.id === first.datasetId) });
    const result = await vscode.commands.executeCommand('teamData.addToDataset', pdf, [pdf]);
    prompts().assertDone();
    assert.equal(result, undefined, 'nothing was added successfully');
    const error = prompts().errors().find((n) => n.message.startsWith('Could not add report.pdf'));
    assert.ok(error, JSON.stringify(prompts().notifications));
    a.services.datasets.refresh();
    const dsNode = (await a.services.datasets.getChildren()).find((n) => n.kind === 'dataset' && n.dataset.id === first.datasetId);
    assert.ok(dsNode);
    const failed = (await a.services.datasets.getChildren(dsNode)).find((n) => n.kind === 'dataSource' && n.dataSource.fileName === 'report.pdf');
    assert.ok(failed && failed.kind === 'dataSource' && failed.dataSource.error, 'the failed source is listed with its reason');
    const item = a.services.datasets.getTreeItem(failed);
    assert.equal(item.contextValue, 'dataSource.failed');
    assert.equal(item.description, 'failed');
    const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip);
    // The tooltip is markdown with the service's text escaped; unescaped it holds the reason verbatim.
    assert.ok(tooltip.replace(/\\(.)/g, '$1').includes(failed.dataSource.error), tooltip);
    await (await a.services.connection.client()).dataSources.delete(first.datasetId, failed.dataSource.id);
  });

  it('refuses unsupported files with a clear message and no upload', async () => {
    const a = await api();
    const exe = workspaceFile('notes.exe');
    await vscode.workspace.fs.writeFile(exe, new TextEncoder().encode('MZ'));
    const result = await vscode.commands.executeCommand('teamData.analyzeFile', exe, [exe]);
    assert.equal(result, undefined);
    const warn = prompts().notifications.find((n) => n.level === 'warning');
    assert.ok(warn && /Skipped notes\.exe/.test(warn.message), JSON.stringify(prompts().notifications));
    assert.equal(a.services.jobs.list.length, 0);
  });

  it('names the sample data\'s default dataset for what it is, not after a folder', async () => {
    // Defects: "New dataset “samples” — named after the workspace folder" while the folder was
    // another; then "samples", the shipped sample's folder (issue 24, point 17).
    let description: string | undefined;
    prompts().expect({
      kind: 'pick', match: /Add sales\.csv to which dataset/, answer: (items) => {
        // A new "Sample sales data" dataset, or the existing one when an earlier test created it.
        description = (items.find((i) => /New dataset “Sample sales data”/.test(i.label)) ?? items.find((i) => /\$\(database\) Sample sales data$/.test(i.label)))?.description;
        return undefined; // cancel: only the offer is checked
      },
    });
    await vscode.commands.executeCommand('teamData.analyzeSample');
    prompts().assertDone();
    assert.match(description ?? '', /^(the sample data that ships with the extension|the sample data)$/);
  });

  it('opens an answer table as CSV under the table\'s own name, not the cache file\'s', async () => {
    const first = shared.first;
    assert.ok(first?.sessionId, 'needs the first analysis');
    const a = await api();
    const panel = a.services.panels.get(first.sessionId);
    assert.ok(panel);
    const turn = panel.conversation.find((t) => t.answer.groups.some((g) => g.blocks.some((b) => b.type === 'TABLE')));
    const table = turn?.answer.groups.flatMap((g) => g.blocks).find((b) => b.type === 'TABLE');
    assert.ok(turn && table && table.type === 'TABLE', 'an answer with a table');
    await handleAction(a.services, panel, { type: 'openTableAsCsv', turnId: turn.id, fileKey: fileKeyOf(table) });
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.scheme, 'untitled', String(doc?.uri));
    assert.equal(doc?.uri.path.split('/').pop(), table.content.name);
    assert.ok(!/answer-files/.test(doc?.uri.toString() ?? ''));
    assert.ok((doc?.getText() ?? '').split('\n')[0]?.includes(','), 'the CSV text, header first');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('opens an answer\'s SQL in an editor named after the question, not after its first comment line', async () => {
    // Defect: the tab read "-- Runs in DuckDB from the folder that h" (issue 24, point 11).
    const first = shared.first;
    assert.ok(first?.sessionId, 'needs the first analysis');
    const a = await api();
    const panel = a.services.panels.get(first.sessionId);
    assert.ok(panel);
    const turn = panel.conversation.find((t) => t.answer.groups.some((g) => g.blocks.some((b) => b.type === 'CODE')));
    const code = turn?.answer.groups.flatMap((g) => g.blocks).find((b) => b.type === 'CODE');
    assert.ok(turn && code && code.type === 'CODE', 'an answer with SQL');
    await handleAction(a.services, panel, { type: 'openCode', code: code.content, language: 'sql', turnId: turn.id });
    const doc = vscode.window.activeTextEditor?.document;
    assert.equal(doc?.uri.scheme, 'untitled', String(doc?.uri));
    assert.equal(doc?.uri.path.split('/').pop(), codeFileName(turn.question, 'sql'));
    assert.match(doc?.uri.path ?? '', /\.sql$/);
    assert.equal(doc?.getText(), code.content);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a second file starts its own session in the same editor group; "add to this session" adds files to the open one', async () => {
    const a = await api();
    const first = shared.first;
    assert.ok(first?.sessionId, 'needs the first analysis');
    const client = await a.services.connection.client();
    const firstPanel = await a.services.panels.open(first.sessionId);
    const firstTitle = (await client.sessions.get(first.sessionId)).title;
    const column = firstPanel.panel.viewColumn;
    const groups = vscode.window.tabGroups.all.length;
    const targets = workspaceFile('targets.csv');
    await vscode.workspace.fs.writeFile(targets, new TextEncoder().encode('region,target\nEurope,1000\nAsia,800\nAfrica,300\n'));
    const byDataset = (items: ReadonlyArray<PickItem<unknown>>): PickItem<unknown> | undefined => items.find((i) => (i.value as { dataset?: { id: string } }).dataset?.id === first.datasetId);

    prompts().expect(
      { kind: 'pick', match: /Add targets\.csv to which dataset/, answer: byDataset },
      {
        kind: 'pick', match: /Analyze targets\.csv in which session/, answer: (items, opts) => {
          assert.deepEqual(items.map((i) => i.label), ['$(add) New session “Analyze targets.csv”', `$(comment-discussion) Add to “${firstTitle}”`]);
          return activeItem(items, opts);
        },
      },
      { kind: 'input', match: /Ask about targets\.csv/, answer: () => 'What is the total target?' },
    );
    const second = (await vscode.commands.executeCommand('teamData.analyzeFile', targets, [targets])) as AnalyzeResult | undefined;
    prompts().assertDone();
    assert.ok(second?.sessionId && second.sessionId !== first.sessionId, 'a new session');
    assert.equal(second.answer?.state, 'done', JSON.stringify(second.answer?.error));
    assert.equal((await client.sessions.get(second.sessionId)).title, 'Analyze targets.csv');
    assert.equal((await client.sessions.get(first.sessionId)).title, firstTitle, 'the first session keeps its title');
    const secondPanel = a.services.panels.get(second.sessionId);
    assert.equal(secondPanel?.panel.title, 'Analyze targets.csv', 'the panel says what is in it');
    assert.equal(secondPanel?.panel.viewColumn, column, 'opened where the other answer panel is');
    assert.equal(vscode.window.tabGroups.all.length, groups, 'no new editor group');

    // The same file again: its own session, no question asked about sessions.
    prompts().expect(
      { kind: 'pick', match: /Add targets\.csv to which dataset/, answer: byDataset },
      { kind: 'input', match: /Ask about targets\.csv/, answer: () => undefined },
    );
    const again = (await vscode.commands.executeCommand('teamData.analyzeFile', targets, [targets])) as AnalyzeResult | undefined;
    prompts().assertDone();
    assert.equal(again?.sessionId, second.sessionId);

    // "Add to" the open session: its questions use both files, and its title lists them.
    await a.services.panels.open(first.sessionId);
    await waitFor('the first panel to be the active one', () => a.services.panels.active?.sessionId === first.sessionId);
    const costs = workspaceFile('costs.csv');
    await vscode.workspace.fs.writeFile(costs, new TextEncoder().encode('region,cost\nEurope,400\nAsia,350\nAfrica,90\n'));
    prompts().expect(
      { kind: 'pick', match: /Add costs\.csv to which dataset/, answer: byDataset },
      { kind: 'pick', match: /Analyze costs\.csv in which session/, answer: labelled(/^\$\(comment-discussion\) Add to/) },
      { kind: 'input', match: /Ask about costs\.csv/, answer: () => 'What is the total cost?' },
    );
    const added = (await vscode.commands.executeCommand('teamData.analyzeFile', costs, [costs])) as AnalyzeResult | undefined;
    prompts().assertDone();
    assert.equal(added?.sessionId, first.sessionId, 'asked in the open session');
    assert.equal(added.answer?.state, 'done', JSON.stringify(added.answer?.error));
    const scope = a.services.panels.get(first.sessionId)?.dataScope;
    assert.deepEqual([...(scope?.datasourceIdList ?? [])].sort(), [...first.dataSourceIds, ...added.dataSourceIds].sort(), 'both files');
    if (firstTitle.startsWith('Analyze ')) {
      assert.equal((await client.sessions.get(first.sessionId)).title, 'Analyze sales.csv, costs.csv');
      assert.equal(a.services.panels.get(first.sessionId)?.panel.title, 'Analyze sales.csv, costs.csv');
    }
  });

  it('New Session asks which data to use, and the data can be changed for the next questions', async () => {
    const a = await api();
    const first = shared.first;
    assert.ok(first, 'needs the first analysis');
    prompts().expect(
      { kind: 'input', match: /New session/, answer: () => 'Data check' },
      { kind: 'pick', match: /New session: ask about which data/, answer: (items) => items.find((i) => (i.value as { dataset?: { id: string } }).dataset?.id === first.datasetId) },
      { kind: 'pickMany', match: /Files of .* to use/, answer: (items) => items.filter((i) => (i.value as DataSource).fileName === 'sales.csv') },
    );
    const id = (await vscode.commands.executeCommand('teamData.newSession')) as string | undefined;
    prompts().assertDone();
    assert.ok(id);
    const panel = a.services.panels.get(id);
    assert.ok(panel);
    assert.deepEqual(panel.dataScope, { datasetId: first.datasetId, datasourceIdList: first.dataSourceIds });
    const answer = await panel.ask('How many rows are there?');
    assert.equal(answer.state, 'done', JSON.stringify(answer.error));
    const sources = answer.groups.flatMap((g) => g.blocks).flatMap((b) => (b.type === 'SOURCES' ? b.content : []));
    assert.ok(sources.some((x) => x.datasourceId === first.dataSourceIds[0]), `answered from sales.csv: ${JSON.stringify(sources)}`);

    // The selector's button: another choice applies to the next questions and is remembered.
    prompts().expect({ kind: 'pick', match: /about which data/, answer: labelled(/No dataset/) });
    await panel.chooseData();
    prompts().assertDone();
    assert.deepEqual(panel.dataScope, {});
    assert.deepEqual(a.services.panels.scopeOf(id), {});
  });
});
