/**
 * "No dataset – a general question" on the local service (issue 24 item 14): its engine answers
 * only from data, and it used to answer "Add a file to a dataset" while datasets existed. Chosen
 * in the panel's data selector, a session that asked about data before continues with that data;
 * a new session's answer names the datasets to choose. Runs after analyze.suite.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { AnswerPanel } from '../../../../src/extension/panel/answerPanel';
import type { Answer } from '../../../../src/shared/domain';
import { shared } from './analyze.suite';
import { api, labelled, useScriptedPrompts, waitFor } from './helpers';

const textOf = (a: Answer): string => a.groups.flatMap((g) => g.blocks).map((b) => (b.type === 'MESSAGE' ? b.content : '')).join('\n');
const stepsOf = (a: Answer): string[] => a.groups.filter((g) => g.stage === 'Analyze').map((g) => g.name);

/** What the user does: Change… beside "Data:", "No dataset", then a question typed in the box. */
async function askWithoutData(panel: AnswerPanel, prompts: ReturnType<ReturnType<typeof useScriptedPrompts>>, question: string): Promise<Answer> {
  prompts.expect({ kind: 'pick', match: /about which data/, answer: labelled(/No dataset/) });
  await panel.receive({ type: 'chooseData' });
  prompts.assertDone();
  assert.equal(panel.dataScope.datasetId, undefined);
  const before = panel.conversation.length;
  await panel.receive({ type: 'ask', question });
  const turn = await waitFor('the new turn', () => panel.conversation.length > before && panel.conversation[panel.conversation.length - 1]);
  return waitFor('its answer', () => turn.answer.state !== 'streaming' && turn.answer, 60_000);
}

describe('a question with no dataset on the local service', function () {
  this.timeout(120_000);
  const prompts = useScriptedPrompts();

  it('in a session that asked about data, answers from that data and says so', async () => {
    const a = await api();
    const sessionId = shared.first?.sessionId;
    assert.ok(sessionId, 'needs the session of the first analysis');
    const panel = await a.services.panels.open(sessionId);
    await panel.historyLoaded;
    const answer = await askWithoutData(panel, prompts(), 'total revenue by region');
    assert.equal(answer.state, 'done', JSON.stringify(answer.error));
    assert.doesNotMatch(textOf(answer), /Add a file/);
    assert.ok(stepsOf(answer).some((n) => n.startsWith("Use the data of this session's earlier questions: sales.csv")), JSON.stringify(stepsOf(answer)));
    assert.match(textOf(answer), /Europe/, 'an answer with the numbers');
  });

  it('in a new session, names the datasets to choose instead of saying to add files', async () => {
    const a = await api();
    const client = await a.services.connection.client();
    const session = await client.sessions.create({ title: 'no data yet' });
    const panel = await a.services.panels.open(session.id);
    await panel.historyLoaded;
    const answer = await askWithoutData(panel, prompts(), 'total revenue by region');
    const text = textOf(answer);
    assert.doesNotMatch(text, /Add a file/, text);
    const folder = vscode.workspace.workspaceFolders?.[0]?.name ?? '';
    assert.ok(text.includes(`**${folder}**`), `the workspace's dataset is named: ${text}`);
    a.services.panels.closeSession(session.id);
    await client.sessions.delete(session.id);
  });
});
