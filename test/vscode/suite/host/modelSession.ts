/**
 * What the language-model suites (issue 26) share: a small CSV in its own dataset and session,
 * with the session's answer panel open, questions asked as the user asks them (the box, a chip),
 * the model chosen through "Choose Language Model…", and readers of an answer's parts.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ModelStatus } from '../../../../src/extension/model/modelChoice';
import type { AnswerPanel } from '../../../../src/extension/panel/answerPanel';
import type { Answer } from '../../../../src/shared/domain';
import { api, labelled, waitFor, type ScriptedPrompts } from './helpers';

export const CSV = 'order_id,region,channel,revenue\n101,Europe,online,10\n102,Europe,retail,20\n103,Asia,online,5\n104,Asia,retail,7\n105,Africa,online,3\n';

type Plan = Record<string, unknown>;
/** A model's reply proposing `plan` (the format of src/server/model/planSchema.ts). */
export const reply = (plan: Plan, bindings: Array<{ word: string; column: string; value?: string }> = []): string => JSON.stringify({ answer: 'plan', plan, bindings });
export const sumBy = (column: string, by: string): Plan => ({ kind: 'aggregate', measures: [{ agg: 'sum', column }], groupBy: [{ column: by }] });

export const stepsOf = (a: Answer): string[] => a.groups.filter((g) => g.stage === 'Analyze').map((g) => g.name);
export const stepStatus = (a: Answer, re: RegExp): string | undefined => a.groups.find((g) => g.stage === 'Analyze' && re.test(g.name))?.status;
export const textOf = (a: Answer): string => a.groups.flatMap((g) => g.blocks).map((b) => (b.type === 'MESSAGE' ? b.content : '')).join('\n');
export const chipsOf = (a: Answer): string[] => a.groups.flatMap((g) => g.blocks).flatMap((b) => (b.type === 'QUESTIONS' ? b.content : []));
export const hasTable = (a: Answer): boolean => a.groups.flatMap((g) => g.blocks).some((b) => b.type === 'TABLE');
export const show = (a: Answer): string => JSON.stringify({ state: a.state, error: a.error, steps: stepsOf(a), text: textOf(a), chips: chipsOf(a) }, null, 1);

/** "Team Data: Choose Language Model…" with scripted prompts: picks the item, fills `inputs`, answers consent if asked. */
export async function chooseModel(prompts: ScriptedPrompts, item: RegExp, o: { consent?: boolean; inputs?: string[] } = {}): Promise<ModelStatus> {
  prompts.expect({ kind: 'pick', match: /Which language model helps answer questions/, answer: labelled(item) });
  for (const [i, value] of (o.inputs ?? []).entries()) prompts.expect({ kind: 'input', match: new RegExp(`\\(${i + 1}/`), answer: () => value });
  if (o.consent !== undefined) prompts.expect({ kind: 'confirm', match: /^Let .* help answer your questions\?[\s\S]*the question[\s\S]*schema[\s\S]*sample values[\s\S]*result rows/, answer: o.consent });
  const status = (await vscode.commands.executeCommand('teamData.chooseModel')) as ModelStatus;
  prompts.assertDone();
  return status;
}

/** The model settings back to their defaults (off), applied. */
export async function resetModelSettings(): Promise<void> {
  const c = vscode.workspace.getConfiguration('teamData');
  for (const key of ['localModelTimeoutSeconds', 'localModelEndpointUrl', 'localModelEndpointModel', 'localModelId', 'localModel']) {
    if (c.inspect(key)?.globalValue !== undefined) await c.update(key, undefined, vscode.ConfigurationTarget.Global);
  }
  await (await api()).services.model.apply({ mayAsk: false });
}

export class ModelSession {
  private constructor(readonly dir: string, readonly datasetId: string, readonly sessionId: string, readonly panel: AnswerPanel) {}

  /** orders.csv (5 rows) in a new dataset, a new session asking about it, its panel open. */
  static async open(title: string): Promise<ModelSession> {
    const a = await api();
    const client = await a.services.connection.client();
    const dir = mkdtempSync(join(tmpdir(), 'td-model-'));
    const file = join(dir, 'orders.csv');
    writeFileSync(file, CSV);
    const datasetId = (await client.datasets.create({ name: `${title}-${Date.now()}`, description: 'issue 26 model suite' })).id;
    const { fileKey } = await client.files.upload(file);
    const created = await client.dataSources.create(datasetId, { fileName: 'orders.csv', fileKey });
    const ds = await client.dataSources.waitUntilSynched(datasetId, created.id, { intervalMs: 200 });
    assert.equal(ds.status, 'synched');
    const sessionId = (await client.sessions.create({ title })).id;
    const panel = await a.services.panels.open(sessionId);
    await panel.historyLoaded;
    await waitFor('the webview ready handshake', () => panel.isReady);
    panel.setScope({ datasetId, datasourceIdList: [ds.id] });
    return new ModelSession(dir, datasetId, sessionId, panel);
  }

  /** A question typed in the panel's box, or a chip of the turn `fromTurnId`; resolves with its answer. */
  async ask(question: string, fromTurnId?: string): Promise<Answer> {
    const p = this.panel;
    const before = p.conversation.length;
    await p.receive(fromTurnId === undefined ? { type: 'ask', question } : { type: 'askFollowUp', question, fromTurnId });
    const turn = await waitFor(`the turn "${question}"`, () => p.conversation.length > before && p.conversation[p.conversation.length - 1]);
    assert.equal(turn.question, question);
    return waitFor(`the answer to "${question}"`, () => turn.answer.state !== 'streaming' && turn.answer, 90_000);
  }

  lastTurnId(): string {
    const t = this.panel.conversation[this.panel.conversation.length - 1];
    assert.ok(t, 'a turn was asked');
    return t.id;
  }

  async close(): Promise<void> {
    const a = await api();
    const client = await a.services.connection.client();
    a.services.panels.closeSession(this.sessionId);
    await client.sessions.delete(this.sessionId).catch(() => undefined);
    await client.datasets.delete(this.datasetId).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
