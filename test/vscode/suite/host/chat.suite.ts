/**
 * Chat and agent mode in the real extension host, against the embedded local service: the
 * language-model tools invoked through `vscode.lm.invokeTool` (right numbers, the confirmation
 * that says no file leaves the machine, cancellation), and the `@teamdata` participant's handler
 * driven with a chat request and a recording response stream.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { api, workspaceFile } from './helpers';

type Part = { kind: string; value: string };

/** A ChatResponseStream that records what the participant sends, in order. */
function recorder(onProgress?: () => void): { stream: vscode.ChatResponseStream; parts: Part[] } {
  const parts: Part[] = [];
  const text = (v: string | vscode.MarkdownString): string => (typeof v === 'string' ? v : v.value);
  const stream = {
    markdown: (v: string | vscode.MarkdownString) => void parts.push({ kind: 'markdown', value: text(v) }),
    progress: (v: string) => {
      parts.push({ kind: 'progress', value: v });
      onProgress?.();
    },
    reference: (v: vscode.Uri | vscode.Location) => void parts.push({ kind: 'reference', value: v instanceof vscode.Uri ? v.toString() : v.uri.toString() }),
    button: (c: vscode.Command) => void parts.push({ kind: 'button', value: c.title }),
    anchor: (v: vscode.Uri | vscode.Location, title?: string) => void parts.push({ kind: 'anchor', value: title ?? String(v) }),
    filetree: () => void parts.push({ kind: 'filetree', value: '' }),
    push: () => void parts.push({ kind: 'push', value: '' }),
  };
  return { stream: stream as unknown as vscode.ChatResponseStream, parts };
}

function chatRequest(prompt: string, command: string | undefined, files: vscode.Uri[]): vscode.ChatRequest {
  return {
    prompt, command, references: files.map((f) => ({ id: 'vscode.file', value: f })), toolReferences: [], toolInvocationToken: undefined,
  } as unknown as vscode.ChatRequest;
}

const EMPTY_CONTEXT = { history: [] } as unknown as vscode.ChatContext;

function resultText(r: vscode.LanguageModelToolResult): string {
  return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('chat participant and language-model tools', function () {
  this.timeout(180_000);

  it('registers the tools with VS Code', async () => {
    await api();
    const names = vscode.lm.tools.map((t) => t.name);
    for (const n of ['teamData_analyzeFiles', 'teamData_askDataset', 'teamData_listDatasets']) assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
  });

  it('analyzes a workspace file through vscode.lm.invokeTool with the right numbers', async () => {
    const r = await vscode.lm.invokeTool('teamData_analyzeFiles', { input: { paths: ['sales.csv'], question: 'total revenue by region' }, toolInvocationToken: undefined });
    const text = resultText(r);
    assert.match(text, /Europe.*32,?985\.92/, text);
    assert.match(text, /\| region \| total_revenue \|/);
    assert.match(text, /```sql[\s\S]*GROUP BY/);
    const list = resultText(await vscode.lm.invokeTool('teamData_listDatasets', { input: {}, toolInvocationToken: undefined }));
    assert.match(list, /sales\.csv \(synched\)/);
  });

  it('keeps working after the local service restarts (new port and key)', async () => {
    await vscode.lm.invokeTool('teamData_listDatasets', { input: {}, toolInvocationToken: undefined });
    await vscode.commands.executeCommand('teamData.restartLocalService');
    const list = resultText(await vscode.lm.invokeTool('teamData_listDatasets', { input: {}, toolInvocationToken: undefined }));
    assert.match(list, /sales\.csv \(synched\)/);
  });

  it('asks for confirmation saying that no file leaves the machine on the local service', async () => {
    const a = await api();
    const token = new vscode.CancellationTokenSource().token;
    const prepared = await a.chat.tools.analyzeFiles.prepareInvocation?.({ input: { paths: ['data/sales.csv'], question: 'q' } }, token);
    const message = prepared?.confirmationMessages?.message;
    assert.match(typeof message === 'string' ? message : message?.value ?? '', /`data\/sales\.csv` on this machine.*No file leaves the machine/);
    assert.equal(prepared?.invocationMessage, 'Analyzing sales.csv…');
    const list = await a.chat.tools.listDatasets.prepareInvocation?.({ input: {} }, token);
    assert.equal(list?.confirmationMessages, undefined, 'a read-only tool needs no confirmation');
  });

  it('a cancelled tool call stops with a cancellation', async () => {
    const cts = new vscode.CancellationTokenSource();
    cts.cancel();
    await assert.rejects(
      Promise.resolve(vscode.lm.invokeTool('teamData_analyzeFiles', { input: { paths: ['sales.csv'], question: 'total revenue by region' }, toolInvocationToken: undefined }, cts.token)),
      (err: Error) => /cancel/i.test(`${err.name} ${err.message}`),
    );
  });

  it('@teamdata /analyze streams progress, text, SQL, a table, references, buttons and follow-ups', async () => {
    const a = await api();
    const { stream, parts } = recorder();
    const token = new vscode.CancellationTokenSource().token;
    const result = await a.chat.handler(chatRequest('total revenue by region', 'analyze', [workspaceFile('sales.csv')]), EMPTY_CONTEXT, stream, token);
    assert.equal(result?.errorDetails, undefined, JSON.stringify(result?.errorDetails));
    const kinds = parts.map((p) => p.kind);
    assert.equal(kinds[0], 'progress', 'progress first');
    const md = parts.filter((p) => p.kind === 'markdown').map((p) => p.value).join('');
    assert.match(md, /Europe.*32,?985\.92/);
    assert.match(md, /```sql[\s\S]*GROUP BY[\s\S]*```/);
    assert.match(md, /\| region \| total_revenue \|/);
    const firstText = kinds.indexOf('markdown');
    const tableButton = parts.findIndex((p) => p.kind === 'button' && p.value === 'Open the Full Table');
    assert.ok(firstText > 0 && tableButton > firstText, `order: ${kinds.join(', ')}`);
    assert.ok(parts.some((p) => p.kind === 'reference' && p.value === workspaceFile('sales.csv').toString()), 'the file as a reference');
    assert.equal(parts[parts.length - 1]?.value, 'Open in the Answer Panel');
    const meta = result?.metadata as { sessionId?: string; questions?: string[] };
    assert.ok(meta.sessionId);
    const followups = await a.chat.followups.provideFollowups(result ?? {}, EMPTY_CONTEXT, token);
    assert.ok((followups ?? []).length > 0, 'suggested questions as follow-ups');

    // /ask about the current dataset: the dataset just analyzed.
    const second = recorder();
    const asked = await a.chat.handler(chatRequest('How many rows are there?', 'ask', []), EMPTY_CONTEXT, second.stream, token);
    assert.equal(asked?.errorDetails, undefined, JSON.stringify(asked?.errorDetails));
    assert.match(second.parts.filter((p) => p.kind === 'markdown').map((p) => p.value).join(''), /\d/);
  });

  it('cancelling in chat stops the work', async () => {
    const a = await api();
    const cts = new vscode.CancellationTokenSource();
    const { stream, parts } = recorder(() => cts.cancel());
    const result = await a.chat.handler(chatRequest('total revenue by region', 'analyze', [workspaceFile('sales.csv')]), EMPTY_CONTEXT, stream, cts.token);
    assert.equal(result?.errorDetails, undefined);
    assert.ok(!parts.some((p) => p.kind === 'button'), `nothing after the cancel: ${parts.map((p) => p.kind).join(', ')}`);
  });
});
