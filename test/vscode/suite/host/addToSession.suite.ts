/**
 * Adding a file to the open session (issue 24 item 16): "Ask about targets.xlsx" after adding it
 * to a session that has sales.csv profiled sales.csv again too. The question is about the file
 * added; the session keeps both files for its follow-ups. Runs after analyze.suite.
 */
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AnalyzeResult } from '../../../../src/extension/flows/analyze';
import { shared } from './analyze.suite';
import { api, extension, useScriptedPrompts, waitFor, workspaceFile } from './helpers';

describe('adding a file to the open session', function () {
  this.timeout(180_000);
  const prompts = useScriptedPrompts();

  it('"Ask about targets.xlsx" covers targets.xlsx; the session keeps sales.csv too', async () => {
    const a = await api();
    const first = shared.first;
    assert.ok(first?.sessionId, 'needs the session of the first analysis');
    const panel = await a.services.panels.open(first.sessionId);
    await panel.historyLoaded;
    // The session asks about sales.csv (earlier suites may have changed its data).
    panel.setScope({ datasetId: first.datasetId, datasourceIdList: first.dataSourceIds });
    await waitFor('the session\'s panel to be the active one', () => a.services.panels.active === panel);
    const xlsx = workspaceFile('targets.xlsx');
    await vscode.workspace.fs.copy(vscode.Uri.file(join(extension().extensionPath, 'samples', 'targets.xlsx')), xlsx, { overwrite: true });
    prompts().expect(
      { kind: 'pick', match: /Add targets\.xlsx to which dataset/, answer: (items) => items.find((i) => (i.value as { dataset?: { id: string } }).dataset?.id === first.datasetId) },
      { kind: 'pick', match: /Analyze targets\.xlsx in which session/, answer: (items) => items.find((i) => i.value === 'add') },
      { kind: 'input', match: /Ask about targets\.xlsx/, answer: (o) => o.value },
    );
    const result = (await vscode.commands.executeCommand('teamData.analyzeFile', xlsx, [xlsx])) as AnalyzeResult | undefined;
    prompts().assertDone();
    assert.equal(result?.sessionId, first.sessionId);
    assert.equal(result.answer?.state, 'done', JSON.stringify(result.answer?.error));
    const steps = result.answer.groups.filter((g) => g.stage === 'Analyze').map((g) => g.name);
    assert.ok(steps.some((n) => n.startsWith('Profile targets.xlsx')), JSON.stringify(steps));
    assert.ok(!steps.some((n) => /sales\.csv/.test(n)), `only the file asked about is profiled: ${JSON.stringify(steps)}`);
    const sources = result.answer.groups.flatMap((g) => g.blocks).flatMap((b) => (b.type === 'SOURCES' ? b.content.map((x) => x.source) : []));
    assert.deepEqual(sources, ['targets.xlsx']);
    // Follow-ups in the session use both files.
    const scope = panel.dataScope.datasourceIdList ?? [];
    assert.ok(first.dataSourceIds.every((id) => scope.includes(id)) && result.dataSourceIds.every((id) => scope.includes(id)), JSON.stringify(scope));
  });
});
