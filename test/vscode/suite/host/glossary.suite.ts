/**
 * The dataset glossary in the Datasets tree (issue 22, point 5): the words users gave a meaning are
 * listed under their dataset, and can be changed or forgotten there; the local service keeps the
 * change and later questions read the words that way.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { DatasetNode, DatasetsTreeNode, GlossaryEntryNode, GlossaryNode } from '../../../../src/extension/trees/nodes';
import { api, useScriptedPrompts } from './helpers';

describe('the dataset glossary in the Datasets tree', function () {
  this.timeout(120_000);
  const prompts = useScriptedPrompts();

  it('lists the meanings under the dataset, changes one and forgets one', async () => {
    const a = await api();
    const client = await a.services.connection.client();
    const { id } = await client.datasets.create({ name: `glossary-${Date.now()}`, description: 'glossary tree test' });
    try {
      await client.datasets.setGlossary(id, [{ phrase: 'oomph', column: 'hp' }, { phrase: 'heft', column: 'wt' }]);
      const tree = a.services.datasets;
      tree.refresh();
      const root = await tree.getChildren();
      const dataset = root.find((n): n is DatasetNode => n.kind === 'dataset' && n.dataset.id === id);
      assert.ok(dataset, 'the dataset is listed');
      const under: DatasetsTreeNode[] = await tree.getChildren(dataset);
      const glossary = under.find((n): n is GlossaryNode => n.kind === 'glossary');
      assert.ok(glossary, `a Glossary node under the dataset: ${under.map((n) => n.kind).join(', ')}`);
      assert.equal(tree.getTreeItem(glossary).description, '2 meanings');
      const entries = (await tree.getChildren(glossary)).filter((n): n is GlossaryEntryNode => n.kind === 'glossaryEntry');
      assert.deepEqual(entries.map((e) => `${String(tree.getTreeItem(e).label)} ${String(tree.getTreeItem(e).description)}`).sort(), ['"heft" → wt', '"oomph" → hp']);
      assert.equal(tree.getParent(entries[0] as GlossaryEntryNode)?.kind, 'glossary');

      const oomph = entries.find((e) => e.entry.phrase === 'oomph') as GlossaryEntryNode;
      prompts().expect(
        { kind: 'input', match: /Edit meaning \(1\/2\)/, answer: () => 'power' },
        { kind: 'input', match: /Edit meaning \(2\/2\)/, answer: (o) => o.value },
      );
      assert.equal(await vscode.commands.executeCommand('teamData.glossary.edit', oomph), true);
      const heft = entries.find((e) => e.entry.phrase === 'heft') as GlossaryEntryNode;
      prompts().expect({ kind: 'confirm', match: /Forget what “heft” means/, answer: true });
      assert.equal(await vscode.commands.executeCommand('teamData.glossary.remove', heft), true);
      prompts().assertDone();
      assert.deepEqual(await client.datasets.glossary(id), [{ phrase: 'power', column: 'hp' }]);
    } finally {
      await client.datasets.delete(id);
    }
  });
});
