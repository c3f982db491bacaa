/**
 * Delete flows through the tree actions: each asks for confirmation (answered by the script),
 * a "no" keeps the resource, a "yes" removes it from the service and the tree. Plus rename and
 * the session limit's way out (delete the oldest sessions, then create).
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { DatasetNode, DataSourceNode, SessionNode } from '../../../../src/extension/trees/nodes';
import { shared } from './analyze.suite';
import { api, labelled, useScriptedPrompts } from './helpers';

/** The service's "not found" (an instance check would fail: the extension bundles its own error class). */
function notFound(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 300003;
}

describe('delete, rename and the session limit', function () {
  this.timeout(180_000);
  const prompts = useScriptedPrompts();

  it('deletes a dataset only after confirmation', async () => {
    const a = await api();
    const client = await a.services.connection.client();
    const { id } = await client.datasets.create({ name: `to delete ${Date.now()}`, description: 'x' });
    a.services.datasets.refresh();
    const node = (await a.services.datasets.getChildren()).find((n): n is DatasetNode => n.kind === 'dataset' && n.dataset.id === id);
    assert.ok(node);
    prompts().expect({ kind: 'confirm', match: /Delete the dataset/, answer: false });
    assert.equal(await vscode.commands.executeCommand('teamData.datasets.delete', node), false);
    assert.ok((await client.datasets.list({ pageSize: 100 })).records.some((d) => d.id === id), 'kept after "no"');
    prompts().expect({ kind: 'confirm', match: /Delete the dataset .*0 files/, answer: true });
    assert.equal(await vscode.commands.executeCommand('teamData.datasets.delete', node), true);
    prompts().assertDone();
    assert.ok(!(await client.datasets.list({ pageSize: 100 })).records.some((d) => d.id === id), 'gone after "yes"');
    assert.ok(!(await a.services.datasets.getChildren()).some((n) => n.kind === 'dataset' && n.dataset.id === id), 'gone from the tree');
  });

  it('renames a session and deletes it (closing its panel)', async () => {
    const a = await api();
    const client = await a.services.connection.client();
    const { id } = await client.sessions.create({ title: 'before rename' });
    a.services.sessions.refresh();
    const node = (await a.services.sessions.getChildren()).find((n): n is SessionNode => n.kind === 'session' && n.session.id === id);
    assert.ok(node);
    prompts().expect({ kind: 'input', match: /Rename session/, answer: () => 'after rename' });
    await vscode.commands.executeCommand('teamData.sessions.rename', node);
    assert.equal((await client.sessions.get(id)).title, 'after rename');
    await a.services.panels.open(id);
    assert.ok(a.services.panels.get(id));
    prompts().expect({ kind: 'confirm', match: /Delete the session “after rename”/, answer: true });
    assert.equal(await vscode.commands.executeCommand('teamData.sessions.delete', node), true);
    prompts().assertDone();
    await assert.rejects(client.sessions.get(id), notFound);
    assert.equal(a.services.panels.get(id), undefined, 'its panel is closed');
  });

  it('deletes the analyzed data source and forgets it for reuse', async () => {
    const a = await api();
    const first = shared.first;
    assert.ok(first, 'needs the analysis suite');
    const client = await a.services.connection.client();
    const dsId = first.dataSourceIds[0] as string;
    const node = await a.services.datasets.findDataSource(first.datasetId, dsId);
    assert.ok(node);
    prompts().expect({ kind: 'confirm', match: /Delete the data source “sales\.csv”/, answer: true });
    assert.equal(await vscode.commands.executeCommand('teamData.dataSources.delete', node as DataSourceNode), true);
    prompts().assertDone();
    await assert.rejects(client.dataSources.get(first.datasetId, dsId), notFound);
    const children = await a.services.datasets.getChildren(a.services.datasets.getParent(node as DataSourceNode));
    assert.ok(!children.some((n) => n.kind === 'dataSource' && n.dataSource.id === dsId), 'gone from the tree');
  });

  it('at the session limit, offers to delete the oldest sessions and then creates the new one', async () => {
    const a = await api();
    const client = await a.services.connection.client();
    let total = (await client.sessions.list({ pageSize: 1 })).total;
    while (total < 150) {
      await client.sessions.create({ title: `filler ${total}` });
      total++;
    }
    const all: string[] = [];
    for await (const x of client.sessions.iterate({ pageSize: 100 })) all.push(x.id);
    const expectedGone = all.slice(-5);
    prompts().expect(
      { kind: 'input', match: /New session/, answer: () => 'after the limit' },
      { kind: 'pick', match: /New session: ask about which data/, answer: labelled(/No dataset/) },
      { kind: 'choose', match: /maximum number of sessions/, answer: 'Choose Sessions to Delete…' },
      { kind: 'pickMany', match: /oldest first/, answer: (items) => items.filter((i) => i.picked) },
      { kind: 'confirm', match: /Delete 5 sessions/, answer: true },
    );
    const id = (await vscode.commands.executeCommand('teamData.newSession')) as string | undefined;
    prompts().assertDone();
    assert.ok(id, JSON.stringify(prompts().notifications));
    assert.equal((await client.sessions.get(id)).title, 'after the limit');
    for (const gone of expectedGone) await assert.rejects(client.sessions.get(gone), notFound);
    assert.equal((await client.sessions.list({ pageSize: 1 })).total, 146);
  });
});
