/**
 * The retrieval index keeps each document indexed: a repeated question does not read the text
 * again, a changed document (other length) is read and indexed anew, and headings are kept for
 * follow-up questions.
 */
import { strict as assert } from 'node:assert';
import { RetrievalIndex } from '../../src/server/engine/retrieval';
import type { DataSource } from '../../src/shared/domain';

const source: DataSource = { id: 'doc-1', datasetId: 'set', name: 'guide.md', fileName: 'guide.md', type: 'FILE', status: 'synched' };

describe('retrieval index', () => {
  it('reads a document once, re-reads it when it changed, and finds passages and headings', async () => {
    const index = new RetrievalIndex();
    let reads = 0;
    const v1 = '# Refunds\n\nRefunds are paid within 14 days of the return.\n\n## Shipping costs\n\nShipping is free above 50 euros.\n';
    const read = (text: string) => async (): Promise<string> => {
      reads++;
      return text;
    };
    const first = await index.document(source, v1.length, read(v1));
    const again = await index.document(source, v1.length, read(v1));
    assert.equal(reads, 1, 'the second question must not read the text again');
    assert.deepEqual(again?.headings, ['Refunds', 'Shipping costs']);
    assert.match(index.search('when are refunds paid', [first!])[0]?.text ?? '', /within 14 days/);

    const v2 = '# Refunds\n\nRefunds are paid within 30 days.\n';
    const changed = await index.document(source, v2.length, read(v2));
    assert.equal(reads, 2);
    assert.deepEqual(changed?.headings, ['Refunds']);
    assert.match(index.search('when are refunds paid', [changed!])[0]?.text ?? '', /30 days/);
    assert.equal(await index.document({ ...source, id: 'gone' }, 5, async () => undefined), undefined);
  });
});
