/**
 * Cancelling "add a file" late (issue 12): once the upload is done, a cancel while the data source
 * is being created or processed removes it again, instead of leaving it "ready" in the tree.
 * The extension's own helper (free of vscode) against the real local service.
 */
import { strict as assert } from 'node:assert';
import { TeamDataClient, type TeamDataError } from '../../src/api/index';
import { createSourceUndoable } from '../../src/extension/flows/sourceCreation';
import { startHarness, TEST_KEY, uploadText, USER, type Harness } from '../helpers/serverHarness';

const CSV = `id,value\n${Array.from({ length: 20_000 }, (_, i) => `${i},${(i * 7) % 1000}`).join('\n')}\n`;

describe('adding a file: a late cancel removes what was created (issue 12)', function () {
  this.timeout(60_000);
  let h: Harness;
  let client: TeamDataClient;
  before(async () => {
    h = await startHarness();
    client = new TeamDataClient({ baseUrl: h.baseUrl, apiKey: TEST_KEY, userId: USER });
  });
  after(async () => h.stop());

  async function uploaded(): Promise<{ datasetId: string; fileKey: string }> {
    const { id: datasetId } = await client.datasets.create({ name: 'cancel', description: '' });
    return { datasetId, fileKey: await uploadText(h.baseUrl, 'big.csv', CSV) };
  }

  const sources = async (datasetId: string): Promise<number> => (await client.dataSources.list(datasetId)).total;

  for (const when of ['while the data source is created', 'while it is processed'] as const) {
    it(`cancel ${when}: no data source is left behind`, async () => {
      const { datasetId, fileKey } = await uploaded();
      const ac = new AbortController();
      let created = false;
      const pending = createSourceUndoable(client, datasetId, { name: 'big.csv', fileName: 'big.csv', fileKey }, {
        signal: ac.signal,
        wait: { intervalMs: 20, onStatus: () => ac.abort() },
        onCreated: () => {
          created = true;
        },
      });
      // The create request is on its way: the cancel arrives while the service is creating the source.
      if (when === 'while the data source is created') ac.abort();
      const outcome = await pending.then(() => 'finished', (e: unknown) => (e as TeamDataError).code);
      assert.equal(outcome, 'ABORTED');
      assert.equal(created, when === 'while it is processed', 'a source is announced only when the cancel came after it was created');
      assert.equal(await sources(datasetId), 0);
    });
  }

  it('without a cancel, the source is created and processed', async () => {
    const { datasetId, fileKey } = await uploaded();
    const ds = await createSourceUndoable(client, datasetId, { name: 'big.csv', fileName: 'big.csv', fileKey }, { signal: new AbortController().signal, wait: { intervalMs: 20 } });
    assert.equal(ds.status, 'synched');
    assert.equal(await sources(datasetId), 1);
  });
});
