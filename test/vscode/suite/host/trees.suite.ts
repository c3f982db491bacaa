/**
 * The trees list what the real local service holds: datasets and their data sources, sessions
 * and their history, with "Load more…" paging and the keyword filter.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { DatasetsTreeNode, SessionsTreeNode } from '../../../../src/extension/trees/nodes';
import { api } from './helpers';

describe('sidebar trees against the local service', function () {
  this.timeout(120_000);

  it('Datasets lists every dataset of the service, paged with "Load more…"', async () => {
    const a = await api();
    const client = await a.services.connection.client();
    const tag = `tree-${Date.now()}`;
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await client.datasets.create({ name: `${tag}-${i}`, description: `paging test ${i}` })).id);
    const tree = a.services.datasets;
    const before = tree.pageSize.datasets;
    tree.pageSize.datasets = 2;
    try {
      tree.setKeyword(tag);
      let nodes: DatasetsTreeNode[] = await tree.getChildren();
      assert.equal(nodes.filter((n) => n.kind === 'dataset').length, 2);
      let more = nodes.find((n) => n.kind === 'more');
      assert.ok(more && more.kind === 'more' && more.remaining === 3, JSON.stringify(nodes.map((n) => n.kind)));
      const item = tree.getTreeItem(more);
      assert.equal(item.label, 'Load more…');
      await vscode.commands.executeCommand('teamData.loadMore', more);
      nodes = await tree.getChildren();
      more = nodes.find((n) => n.kind === 'more');
      assert.ok(more);
      await vscode.commands.executeCommand('teamData.loadMore', more);
      nodes = await tree.getChildren();
      assert.equal(nodes.find((n) => n.kind === 'more'), undefined);
      const listed = nodes.flatMap((n) => (n.kind === 'dataset' ? [n.dataset.id] : [])).sort();
      const onService: string[] = [];
      for await (const d of client.datasets.iterate({ keyword: tag })) onService.push(d.id);
      assert.deepEqual(listed, onService.sort());
      assert.deepEqual(listed, [...made].sort());
      const first = nodes[0];
      assert.ok(first && first.kind === 'dataset');
      assert.equal(tree.getTreeItem(first).contextValue, 'dataset');
      const empty = await tree.getChildren(first);
      assert.equal(empty.length, 1);
      assert.equal(empty[0]?.kind, 'message', 'an empty dataset says how to add files');
      tree.setKeyword('no-such-dataset-anywhere');
      nodes = await tree.getChildren();
      assert.equal(nodes.length, 1);
      assert.equal(nodes[0]?.kind, 'message');
    } finally {
      tree.pageSize.datasets = before;
      tree.setKeyword('');
      for (const id of made) await client.datasets.delete(id);
    }
  });

  it('Sessions lists sessions (a language other than the default in the description) and their history as jobs', async () => {
    const a = await api();
    const client = await a.services.connection.client();
    const { id } = await client.sessions.create({ title: `tree session ${Date.now()}`, languageType: 'EN', jobMode: 'AUTO' });
    try {
      await client.jobs.run({ sessionId: id, question: 'What can you do?' });
      const tree = a.services.sessions;
      tree.refresh();
      const roots: SessionsTreeNode[] = await tree.getChildren();
      const node = roots.find((n) => n.kind === 'session' && n.session.id === id);
      assert.ok(node && node.kind === 'session', 'the new session is listed');
      const item = tree.getTreeItem(node);
      // Only what differs from the defaults, in words: English, not "EN · auto" (issue 24, point 15).
      assert.equal(item.description, 'English');
      assert.equal(item.contextValue, 'session');
      // Named for a screen reader without VS Code's "title description" (a trailing space when the
      // description is empty: "Analyze sales.csv "; issue 24 walk).
      assert.equal(item.accessibilityInformation?.label, `${item.label as string}, English`);
      const jobs = await tree.getChildren(node);
      assert.equal(jobs.length, 1);
      const job = jobs[0];
      assert.ok(job && job.kind === 'job');
      assert.equal(job.question, 'What can you do?');
      assert.equal(tree.getParent(job), node, 'getParent enables reveal');
      const jobItem = tree.getTreeItem(job);
      assert.equal(jobItem.command?.command, 'teamData.openJob');
      // A screen reader names a row by its plain question and how it ended, not by the tooltip's
      // raw sentence with the engine's backticks and quotes (issue 24).
      assert.deepEqual(jobItem.accessibilityInformation, { label: 'What can you do?, done' });
      const chipQuestion = 'total `revenue` by month of `order_date` where `region` is "Asia"';
      const asRead = 'total revenue by month of order_date where region is Asia';
      const withState = (state?: 'cancelled' | 'error') => tree.getTreeItem({ ...job, question: chipQuestion, record: { ...job.record, answer: { ...job.record.answer, ...(state ? { state } : {}) } } });
      assert.equal(withState().accessibilityInformation?.label, `${asRead}, done`);
      assert.equal(withState('cancelled').accessibilityInformation?.label, `${asRead}, cancelled`);
      assert.equal(withState('error').accessibilityInformation?.label, `${asRead}, failed`);
    } finally {
      await client.sessions.delete(id);
    }
  });
});
