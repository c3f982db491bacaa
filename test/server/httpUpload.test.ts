/**
 * Uploads and data source processing over HTTP: streamed multipart upload with its rejections,
 * sanitised storage, fileKey and url sources going invalid -> synching -> synched (or invalid with
 * an error), presigned download links, deletion.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import type { AddressInfo } from 'node:net';
import { bareDuck } from '../helpers/bareDuck';
import { eventually, multipart, startHarness, TEST_KEY, USER, type Harness } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;
const CSV = 'region,amount\nnorth,10\nsouth,20\neast,30\n';

describe('local service: uploads and data sources over HTTP', function () {
  let h: Harness;
  let files: Server;
  let filesUrl: string;
  let datasetId: string;

  before(async () => {
    // URL sources are served from 127.0.0.1, which needs the private-network opt-in.
    h = await startHarness({ maxUploadBytes: 64 * 1024, allowPrivateNetworks: true });
    files = createServer((req, res) => {
      if (req.url === '/data.csv') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end(CSV);
      } else if (req.url === '/hop') {
        res.writeHead(302, { location: '/data.csv' });
        res.end();
      } else if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' });
        res.end();
      } else if (req.url === '/big.csv') {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end(`a\n${'1\n'.repeat(40_000)}`);
      } else {
        res.writeHead(404);
        res.end('no');
      }
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    const d = await h.call('POST', '/v1/team/datasets', { name: 'Uploads', description: '' });
    datasetId = (d.json?.data as Rec)['id'] as string;
  });
  after(async () => {
    await h.stop();
    await new Promise((r) => files.close(r));
  });

  async function upload(name: string, contents: string | Buffer, path = '/v1/team/file/upload-datasource'): Promise<{ code: number; msg: string | null; data: Rec | null }> {
    const form = new FormData();
    form.append('file', new Blob([typeof contents === 'string' ? contents : new Uint8Array(contents)]), name);
    const res = await fetch(`${h.baseUrl}${path}?userId=${USER}`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY }, body: form });
    assert.ok(res.headers.get('x-pd-trace-id'));
    return (await res.json()) as { code: number; msg: string | null; data: Rec | null };
  }

  async function createSource(body: Rec): Promise<Rec> {
    const r = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { type: 'FILE', ...body });
    assert.equal(r.json?.code, 0, r.text);
    return r.json?.data as Rec;
  }

  async function settled(id: string): Promise<Rec> {
    return eventually(async () => {
      const r = await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${id}`);
      const s = r.json?.data as Rec;
      return s['status'] === 'synched' || (s['status'] === 'invalid' && s['error'] !== undefined) ? s : undefined;
    }, `data source ${id} to settle`);
  }

  async function leftovers(): Promise<string[]> {
    return (await readdir(join(h.dataDir, 'uploads'))).filter((n) => n.endsWith('.part'));
  }

  it('uploads a file, creates a source that starts invalid and ends synched', async () => {
    const up = await upload('sales.csv', CSV);
    assert.equal(up.code, 0);
    assert.equal(up.msg, null);
    const fileKey = up.data?.['fileKey'] as string;
    assert.match(fileKey, /^uploads\/[0-9a-f]{24}\.csv$/);
    const created = await createSource({ fileName: 'sales.csv', fileKey });
    assert.equal(created['status'], 'invalid');
    assert.equal(created['name'], 'sales.csv');
    assert.equal(created['datasetId'], datasetId);
    assert.equal(created['userId'], USER);
    const done = await settled(created['id'] as string);
    assert.equal(done['status'], 'synched', JSON.stringify(done));
    assert.equal(done['size'], CSV.length);
    const st = (await h.call('GET', `/v1/team/datasets/${datasetId}/status`)).json?.data as Rec;
    assert.ok((st['synched'] as number) >= 1);
    const synched = (await h.call('GET', `/v1/team/datasets/${datasetId}/datasources?status=synched`)).json?.data as Rec;
    assert.ok((synched['records'] as Rec[]).some((r) => r['id'] === created['id']));
    const invalidOnly = (await h.call('GET', `/v1/team/datasets/${datasetId}/datasources?status=invalid`)).json?.data as Rec;
    assert.ok(!(invalidOnly['records'] as Rec[]).some((r) => r['id'] === created['id']));
  });

  it('uploads a .parquet.gz and an .xlsx.gz and reads them; a gzip bomb past the inflate cap (the upload limit) ends invalid with the reason', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'up-gz-'));
    try {
      await bareDuck(tmp, `COPY (SELECT * FROM (VALUES ('north', 10), ('south', 20)) t(region, amount)) TO '${join(tmp, 'p.parquet')}' (FORMAT parquet)`);
      const wb = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['k', 'v'], ['x', 1]]), 'One');
      XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([['k', 'v'], ['y', 2], ['z', 3]]), 'Two');
      const files: Array<[string, Buffer]> = [
        ['sales.parquet.gz', gzipSync(await readFile(join(tmp, 'p.parquet')))],
        ['book.xlsx.gz', gzipSync(XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer)],
        ['bomb.parquet.gz', gzipSync(Buffer.alloc(10_000_000))],
      ];
      const done: Rec[] = [];
      for (const [name, bytes] of files) {
        const up = await upload(name, bytes);
        assert.equal(up.code, 0, `${name}: ${up.msg ?? ''}`);
        const created = await createSource({ fileName: name, fileKey: up.data?.['fileKey'] as string });
        done.push(await settled(created['id'] as string));
      }
      assert.equal(done[0]?.['status'], 'synched', JSON.stringify(done[0]));
      assert.equal(done[1]?.['status'], 'synched', JSON.stringify(done[1]));
      assert.equal(done[2]?.['status'], 'invalid');
      assert.match(String(done[2]?.['error']), /bomb\.parquet\.gz expands to more than .* when decompressed/);
      assert.deepEqual((await readdir(join(h.dataDir, 'ingest-tmp'))).filter((f) => /\.(parquet|xlsx)$/.test(f)), []);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it('accepts the prose upload paths too', async () => {
    for (const p of ['/v1/file/upload_datasource', '/v1/team/file/upload_datasource']) {
      const up = await upload('a.tsv', 'a\tb\n1\t2\n', p);
      assert.equal(up.code, 0, p);
    }
  });

  it('rejects bad extensions (300004), empty files (300005), missing file field and non-multipart (100)', async () => {
    const bad = await upload('tool.exe', 'MZ');
    assert.equal(bad.code, 300004);
    assert.match(bad.msg ?? '', /unsupported file extension/);
    const noExt = await upload('README', 'text');
    assert.equal(noExt.code, 300004);
    const empty = await upload('empty.csv', '');
    assert.equal(empty.code, 300005);
    const form = new FormData();
    form.append('other', new Blob(['x']), 'x.csv');
    const wrongField = await fetch(`${h.baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY }, body: form });
    const wf = (await wrongField.json()) as { code: number; msg: string };
    assert.equal(wf.code, 100);
    assert.match(wf.msg, /file: required/);
    const json = await h.call('POST', '/v1/team/file/upload-datasource', { file: 'x' });
    assert.equal(json.json?.code, 100);
    assert.match(json.json?.msg ?? '', /multipart/);
    assert.deepEqual(await leftovers(), []);
  });

  it('answers truncated or malformed multipart with an error envelope and keeps serving', async () => {
    for (const [name, field] of [['x.exe', 'file'], ['x.csv', 'other'], ['x.csv', 'file']] as const) {
      const { body, contentType } = multipart(field, name, 'a,b\n1,2\n');
      const cut = new Uint8Array(body.subarray(0, body.length - 12));
      const r = await fetch(`${h.baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY, 'content-type': contentType }, body: cut });
      const env = (await r.json()) as { code: number; msg: string };
      assert.ok(r.status < 500);
      assert.notEqual(env.code, 0, `${name} ${field}`);
    }
    const noBoundary = await fetch(`${h.baseUrl}/v1/team/file/upload-datasource`, { method: 'POST', headers: { 'x-pd-api-key': TEST_KEY, 'content-type': 'multipart/form-data' }, body: 'x' });
    assert.equal(((await noBoundary.json()) as { code: number }).code, 100);
    assert.deepEqual(await leftovers(), []);
    assert.equal((await h.call('GET', '/v1/team/datasets')).json?.code, 0);
  });

  it('refuses uploads over maxUploadBytes and deletes the partial file', async () => {
    const big = await upload('big.csv', `a\n${'1\n'.repeat(40_000)}`);
    assert.equal(big.code, 300006);
    assert.match(big.msg ?? '', /upload limit/);
    assert.deepEqual(await leftovers(), []);
    assert.equal((await h.call('GET', '/v1/team/datasets')).json?.code, 0);
  });

  it('cleans up after an upload the client aborts mid-body', async () => {
    const { body, contentType } = multipart('file', 'cut.csv', 'x,y\n'.repeat(10_000));
    const port = Number(new URL(h.baseUrl).port);
    await new Promise<void>((resolve, reject) => {
      const sock = connect(port, '127.0.0.1', () => {
        sock.write(
          `POST /v1/team/file/upload-datasource HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-pd-api-key: ${TEST_KEY}\r\n` +
            `Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
        sock.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => {
          sock.destroy();
          resolve();
        }, 100));
      });
      sock.on('error', reject);
    });
    await eventually(async () => ((await leftovers()).length === 0 ? true : undefined), 'partial upload to be removed');
    assert.equal((await h.call('GET', '/v1/team/datasets')).json?.code, 0);
  });

  it('never uses the client file name as a path', async () => {
    const up = await upload('../../../escape.csv', CSV);
    assert.equal(up.code, 0);
    const names = await readdir(join(h.dataDir, 'uploads'));
    assert.ok(names.every((n) => /^[0-9a-f]{24}$/.test(n)), names.join(','));
    assert.ok(!(await readdir(h.dataDir)).includes('escape.csv'));
    assert.ok(!(await readdir(join(h.dataDir, '..'))).includes('escape.csv'));
  });

  it('downloads url sources (following redirects) and marks failures invalid with an error', async () => {
    const ok = await createSource({ fileName: 'remote.csv', url: `${filesUrl}/hop` });
    assert.equal(ok['status'], 'invalid');
    const okDone = await settled(ok['id'] as string);
    assert.equal(okDone['status'], 'synched', JSON.stringify(okDone));
    assert.equal(okDone['size'], CSV.length);
    const missing = await settled((await createSource({ fileName: 'missing.csv', url: `${filesUrl}/missing.csv` }))['id'] as string);
    assert.equal(missing['status'], 'invalid');
    assert.equal(missing['error'], 'download failed: the server answered HTTP 404');
    const loop = await settled((await createSource({ fileName: 'loop.csv', url: `${filesUrl}/loop` }))['id'] as string);
    assert.match(loop['error'] as string, /redirects/);
    const big = await settled((await createSource({ fileName: 'big.csv', url: `${filesUrl}/big.csv` }))['id'] as string);
    assert.match(big['error'] as string, /larger than/);
    const refused = await settled((await createSource({ fileName: 'r.csv', url: 'http://127.0.0.1:1/r.csv' }))['id'] as string);
    assert.match(refused['error'] as string, /^download failed: could not connect/);
  });

  it('creates sources without a dataset in one default dataset', async () => {
    const up = await upload('d.csv', CSV);
    const a = await h.call('POST', '/v1/team/datasources', { fileName: 'd.csv', type: 'FILE', fileKey: up.data?.['fileKey'] });
    const b = await h.call('POST', '/v1/team/datasources', { fileName: 'e.csv', type: 'FILE', fileKey: up.data?.['fileKey'] });
    const da = a.json?.data as Rec;
    assert.equal(a.json?.code, 0);
    assert.ok(typeof da['datasetId'] === 'string' && da['datasetId'] !== datasetId);
    assert.equal((b.json?.data as Rec)['datasetId'], da['datasetId']);
  });

  it('presigns a download of the original file and deletes sources', async () => {
    const up = await upload('orig.csv', CSV);
    const s = await createSource({ fileName: 'orig.csv', name: 'Original', fileKey: up.data?.['fileKey'] });
    const id = s['id'] as string;
    assert.equal(s['name'], 'Original');
    const p = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources/${id}/presign`);
    assert.equal(p.json?.code, 0);
    const link = p.json?.data as Rec;
    assert.ok(Date.parse(link['expiredAt'] as string) > Date.now());
    const got = await fetch(link['url'] as string);
    assert.equal(got.status, 200);
    assert.equal(await got.text(), CSV);
    assert.match(got.headers.get('content-disposition') ?? '', /filename="orig.csv"/);
    assert.match(got.headers.get('content-type') ?? '', /^text\/csv/);
    await settled(id);
    assert.equal((await h.call('DELETE', `/v1/team/datasets/${datasetId}/datasources/${id}?userId=${USER}`)).json?.code, 0);
    assert.equal((await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${id}`)).json?.code, 300003);
    assert.equal((await fetch(link['url'] as string)).status, 404);
    assert.ok(!(await readdir(join(h.dataDir, 'sources'))).some((n) => n.startsWith(id)));
  });
});
