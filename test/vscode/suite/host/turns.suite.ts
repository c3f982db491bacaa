/**
 * Turns in the answer panel against the real local service (issue 24): a follow-up chip of an
 * earlier turn adds a turn that names the turn it refines; a reopened panel shows every step of
 * its past turns; a cancelled job is marked in the Sessions tree and its Retry asks it again.
 * Runs after analyze.suite, in the session Analyze This File made.
 */
import { strict as assert } from 'node:assert';
import type { AnswerPanel } from '../../../../src/extension/panel/answerPanel';
import type { Answer } from '../../../../src/shared/domain';
import type { JobNode } from '../../../../src/extension/trees/nodes';
import { shared } from './analyze.suite';
import { api, waitFor } from './helpers';
import * as vscode from 'vscode';

const stepsOf = (a: Answer): string[] => a.groups.filter((g) => g.stage === 'Analyze').map((g) => g.name);

async function sessionPanel(): Promise<{ panel: AnswerPanel; sessionId: string }> {
  const a = await api();
  const sessionId = shared.first?.sessionId;
  assert.ok(sessionId, 'needs the session of the first analysis');
  const panel = await a.services.panels.open(sessionId);
  await panel.historyLoaded;
  await waitFor('the webview ready handshake', () => panel.isReady);
  return { panel, sessionId };
}

describe('turns of a session', function () {
  this.timeout(180_000);

  it('a follow-up chip of an earlier turn adds a turn that names the turn it refines', async () => {
    // Defect: the webview sent fromTurnId and the host ignored it; nothing tied the new turn to the chip.
    const { panel } = await sessionPanel();
    if (panel.conversation.length < 2) await panel.ask('How many rows are there?');
    const earlier = panel.conversation[0];
    assert.ok(earlier && panel.conversation.length > 1, 'the chip is on an earlier turn, not the last one');
    const before = panel.conversation.length;
    // What the webview posts when that turn's chip is clicked.
    await panel.receive({ type: 'askFollowUp', question: 'total revenue by region', fromTurnId: earlier.id });
    const added = await waitFor('the follow-up turn', () => panel.conversation.length > before && panel.conversation[panel.conversation.length - 1]);
    assert.equal(added.question, 'total revenue by region');
    assert.deepEqual(added.refines, { turnId: earlier.id, question: earlier.question });
    await waitFor('the follow-up answer', () => added.answer.state !== 'streaming' && added.answer, 60_000);
    assert.equal(added.answer.state, 'done', JSON.stringify(added.answer.error));
    // A question typed in the box refines nothing.
    await panel.receive({ type: 'ask', question: 'How many rows are there?' });
    const typed = await waitFor('the typed turn', () => panel.conversation.length > before + 1 && panel.conversation[panel.conversation.length - 1]);
    assert.equal(typed.refines, undefined);
    await waitFor('the typed answer', () => typed.answer.state !== 'streaming', 60_000);
  });

  it('a reopened panel shows every step of its past turns, "Read the question as: …" included', async () => {
    // Defect: after a reload "3 steps" became "1 step" and the reading of the question was gone.
    const a = await api();
    const { panel, sessionId } = await sessionPanel();
    const live = await panel.ask('total revenue by channel');
    assert.equal(live.state, 'done', JSON.stringify(live.error));
    assert.ok(stepsOf(live).some((n) => n.startsWith('Read the question as:')), JSON.stringify(stepsOf(live)));
    a.services.panels.closeSession(sessionId);
    await waitFor('the panel to close', () => a.services.panels.get(sessionId) === undefined);
    const reopened = await sessionPanel();
    const restored = reopened.panel.conversation.find((t) => t.answer.jobId === live.jobId);
    assert.ok(restored?.fromHistory, 'the job is a turn of the history');
    assert.deepEqual(stepsOf(restored.answer), stepsOf(live));
  });

  it('a cancelled job is marked as cancelled in the Sessions tree, and its Retry asks it again', async () => {
    // How the service records a cancelled job is the local service's test (httpJobs: "history
    // records it as cancelled"); a local job is over too fast to cancel reliably here, so the
    // session's last job is given the state the service reports for a cancelled one.
    const a = await api();
    const { sessionId } = await sessionPanel();
    const tree = a.services.sessions;
    tree.refresh();
    const sessionNode = (await tree.getChildren()).find((n) => n.kind === 'session' && n.session.id === sessionId);
    assert.ok(sessionNode);
    const done = (await tree.getChildren(sessionNode)).find((n): n is JobNode => n.kind === 'job');
    assert.ok(done, 'the session lists its jobs');
    assert.equal(tree.getTreeItem(done).contextValue, 'job', 'a finished job offers no Retry');
    const cancelled: JobNode = { ...done, record: { ...done.record, answer: { ...done.record.answer, state: 'cancelled' } } };
    const item = tree.getTreeItem(cancelled);
    assert.equal(item.description, 'cancelled');
    assert.equal(item.contextValue, 'job.cancelled', 'the context value that shows Retry');
    assert.match(String(item.tooltip), /Cancelled/);
    const retried = (await vscode.commands.executeCommand('teamData.retryJob', cancelled)) as Answer | undefined;
    assert.equal(retried?.state, 'done', JSON.stringify(retried?.error));
    assert.notEqual(retried.jobId, done.jobId, 'asked again: a new job');
    const turn = a.services.panels.get(sessionId)?.conversation.find((t) => t.answer.jobId === retried.jobId);
    assert.equal(turn?.question, done.question);
  });
});
