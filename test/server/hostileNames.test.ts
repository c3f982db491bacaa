/**
 * File names from clients (issue 12): a path in `fileName` is cut to its last component before it
 * is stored or sent in Content-Disposition, and names with control characters (CR/LF, NUL) or
 * invisible text-direction marks are refused at create time with a clear error.
 */
import { strict as assert } from 'node:assert';
import { eventually, startHarness, uploadText, USER, type Harness } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;

const upload = (h: Harness): Promise<string> => uploadText(h.baseUrl, 'plain.csv', 'a,b\n1,2\n');

describe('local service: client file names (issue 12)', function () {
  this.timeout(60_000);
  let h: Harness;
  let datasetId: string;
  before(async () => {
    h = await startHarness();
    datasetId = ((await h.call('POST', '/v1/team/datasets', { name: 'names', description: '' })).json?.data as Rec)['id'] as string;
  });
  after(async () => h.stop());

  it('stores and serves only the last path component of a fileName', async () => {
    const fileKey = await upload(h);
    const r = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: '../../../../tmp/x.csv', type: 'FILE', fileKey });
    assert.equal(r.json?.code, 0, r.text);
    const id = (r.json?.data as Rec)['id'] as string;
    assert.equal((r.json?.data as Rec)['fileName'], 'x.csv');
    await eventually(async () => (((await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${id}`)).json?.data as Rec)['status'] === 'synched' ? true : undefined), 'synched');
    const link = ((await h.call('POST', `/v1/team/datasets/${datasetId}/datasources/${id}/presign`)).json?.data as Rec)['url'] as string;
    const res = await fetch(link);
    assert.equal(res.status, 200);
    const cd = res.headers.get('content-disposition') ?? '';
    assert.match(cd, /filename="x\.csv"; filename\*=UTF-8''x\.csv$/);
    assert.ok(!cd.includes('..') && !cd.includes('/'), cd);
  });

  it('refuses names with line breaks, NUL or text-direction marks, saying why', async () => {
    for (const bad of ['a\r\nSet-Cookie: x=1.csv', 'a\u0000b.csv', 'report\u202Evsc.exe.csv', 'tab\tname.csv', 'x\u2066y.csv']) {
      const fileKey = await upload(h);
      const r = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: bad, type: 'FILE', fileKey });
      assert.equal(r.json?.code, 100, `${JSON.stringify(bad)}: ${r.text}`);
      assert.match(r.json?.msg ?? '', /fileName: must not contain control characters/);
    }
    const fileKey = await upload(h);
    const named = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: 'ok.csv', name: 'evil\u202Etxt', type: 'FILE', fileKey });
    assert.match(named.json?.msg ?? '', /name: must not contain/);
  });
});
