/**
 * Streamed multipart upload against a fault server that parses the multipart body and hashes the
 * file as it arrives: bytes intact, progress monotone to the total, abortable, and local refusals
 * (extension, empty file, missing user id) that never reach the server.
 */
import { strict as assert } from 'node:assert';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, truncateSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TeamDataClient, TeamDataError } from '../../src/api/index';
import { FaultServer, ok, sendEnvelope } from '../helpers/faultServer';
import { API_KEY, rejection, USER_ID } from './support';

function asClientError(err: unknown): TeamDataError {
  assert.ok(err instanceof TeamDataError, `expected a TeamDataError, got ${String(err)}`);
  return err;
}

describe('api/files.upload', function () {
  let server: FaultServer;
  let client: TeamDataClient;
  let dir: string;
  let big: string;
  let bigHash: string;
  const BIG = 12 * 1024 * 1024 + 12345;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'team-data-upload-'));
    big = join(dir, 'données 2024 📈.CSV');
    const bytes = randomBytes(BIG);
    bigHash = createHash('sha256').update(bytes).digest('hex');
    await writeFile(big, bytes);
    await writeFile(join(dir, 'tool.exe'), 'MZ');
    await writeFile(join(dir, 'empty.csv'), '');
    await writeFile(join(dir, 'noext'), 'a,b\n1,2\n');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  beforeEach(async () => {
    server = await FaultServer.start();
    client = new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY, userId: USER_ID, retry: { baseDelayMs: 1 } });
  });
  afterEach(() => server.close());

  it('streams the file intact with progress that grows monotonically to the file size', async () => {
    server.enqueue(ok({ fileKey: 'uploads/user-42/abc.csv' }));
    const progress: Array<[number, number]> = [];
    const result = await client.files.upload(big, { onProgress: (sent, total) => progress.push([sent, total]) });
    assert.deepEqual(result, { fileKey: 'uploads/user-42/abc.csv' });
    const req = server.requests[0];
    assert.equal(req?.method, 'POST');
    assert.equal(req?.path, '/v1/team/file/upload-datasource');
    assert.equal(req?.query.get('userId'), USER_ID);
    assert.equal(req?.headers['x-pd-api-key'], API_KEY);
    // Letters only (no digits), so a boundary search over CSV data skips ahead far.
    assert.match(String(req?.headers['content-type']), /^multipart\/form-data; boundary=----TeamDataBoundary[A-Za-z]{24}$/);
    assert.equal(req?.files.length, 1);
    assert.deepEqual(req?.files[0], { field: 'file', fileName: 'données 2024 📈.CSV', mimeType: 'text/csv', bytes: BIG, sha256: bigHash });
    assert.ok(progress.length > 10, `only ${progress.length} progress calls`);
    for (let i = 1; i < progress.length; i++) assert.ok((progress[i]?.[0] ?? 0) > (progress[i - 1]?.[0] ?? 0), 'monotone');
    assert.ok(progress.every(([, total]) => total === BIG));
    assert.deepEqual(progress[progress.length - 1], [BIG, BIG]);
    assert.ok(Number(req?.headers['content-length']) > BIG, 'a known Content-Length, not chunked');
  });

  it('re-sends the whole file after a rate limit, keeping progress monotone', async () => {
    server.enqueue((_req, res) => sendEnvelope(res, 429, 201, null, null, { 'retry-after': '0' }), ok({ fileKey: 'k2' }));
    const sent: number[] = [];
    const result = await client.files.upload(big, { onProgress: (s) => sent.push(s) });
    assert.equal(result.fileKey, 'k2');
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1]?.files[0]?.sha256, bigHash);
    for (let i = 1; i < sent.length; i++) assert.ok((sent[i] ?? 0) > (sent[i - 1] ?? 0));
  });

  it('aborts mid-upload with ABORTED and stops sending', async () => {
    const ac = new AbortController();
    server.enqueue(ok({ fileKey: 'never' }));
    let calls = 0;
    const err = asClientError(
      await rejection(
        client.files.upload(big, {
          signal: ac.signal,
          onProgress: () => {
            if (++calls === 2) ac.abort();
          },
        }),
      ),
    );
    assert.equal(err.code, 'ABORTED');
    assert.equal(calls, 2, 'no progress after the abort');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(server.requests[0]?.files.length ?? 0, 0, 'the server never received a whole file');
  });

  it('fails with FILE_UNREADABLE, sending no whole file, when the file grows or shrinks mid-upload', async () => {
    for (const change of ['grow', 'shrink'] as const) {
      const path = join(dir, `changing-${change}.csv`);
      await writeFile(path, randomBytes(8 * 1024 * 1024));
      server.enqueue(ok({ fileKey: 'never' }));
      let changed = false;
      const err = asClientError(
        await rejection(
          client.files.upload(path, {
            onProgress: () => {
              if (changed) return;
              changed = true;
              if (change === 'grow') appendFileSync(path, 'one more row\n');
              else truncateSync(path, 3 * 1024 * 1024);
            },
          }),
        ),
      );
      assert.equal(err.code, 'FILE_UNREADABLE', change);
      assert.match(err.message, /changed while it was being uploaded/, change);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(server.requests.at(-1)?.files.length ?? 0, 0, `${change}: the server never received a whole file`);
    }
  });

  it('refuses unsupported extensions, empty files, missing files and a missing user id before sending', async () => {
    const cases: Array<[() => Promise<unknown>, string]> = [
      [() => client.files.upload(join(dir, 'tool.exe')), 'UNSUPPORTED_FILE'],
      [() => client.files.upload(join(dir, 'noext')), 'UNSUPPORTED_FILE'],
      [() => client.files.upload(join(dir, 'empty.csv')), 'EMPTY_FILE'],
      [() => client.files.upload(join(dir, 'missing.csv')), 'FILE_UNREADABLE'],
      [() => client.files.upload(dir + '/'), 'UNSUPPORTED_FILE'],
      [() => new TeamDataClient({ baseUrl: server.baseUrl, apiKey: API_KEY }).files.upload(big), 'INVALID_ARGUMENT'],
    ];
    for (const [call, code] of cases) assert.equal(asClientError(await rejection(call())).code, code);
    assert.match(asClientError(await rejection(client.files.upload(join(dir, 'tool.exe')))).message, /unsupported file type "\.exe"/);
    assert.equal(server.requests.length, 0, 'nothing reached the server');
  });

  it('refuses a directory that looks like a supported file', async () => {
    const fake = join(dir, 'folder.csv');
    await mkdir(fake, { recursive: true });
    assert.equal(asClientError(await rejection(client.files.upload(fake))).code, 'FILE_UNREADABLE');
    assert.equal(server.requests.length, 0);
  });

  it('lets the call name the file and the user', async () => {
    server.enqueue(ok({ fileKey: 'k3' }));
    await client.files.upload(big, { fileName: 'sales.csv', userId: 'someone-else' });
    assert.equal(server.requests[0]?.files[0]?.fileName, 'sales.csv');
    assert.equal(server.requests[0]?.query.get('userId'), 'someone-else');
  });

  it('reports a service refusal (300004) with its message', async () => {
    server.enqueue((_req, res) => sendEnvelope(res, 200, 300004, null, 'bad extension'));
    const err = asClientError(await rejection(client.files.upload(big)));
    assert.equal(err.code, 300004);
    assert.equal(err.message, 'unsupported file extension');
  });
});
