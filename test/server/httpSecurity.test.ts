/**
 * Security and protocol hygiene of the local service at the wire level: key on every API route,
 * loopback Host only, no CORS, trace ids on every response, bounded bodies and sane answers for
 * unknown routes and wrong methods.
 */
import { strict as assert } from 'node:assert';
import { connect } from 'node:net';
import { rawRequest, startHarness, TEST_KEY, type Harness } from '../helpers/serverHarness';

describe('local service: security over HTTP', function () {
  let h: Harness;
  let port: string;
  before(async () => {
    h = await startHarness();
    port = new URL(h.baseUrl).port;
  });
  after(async () => {
    await h.stop();
  });

  const routes: Array<[string, string]> = [
    ['GET', '/v1/team/datasets'], ['POST', '/v1/team/datasets'], ['POST', '/v1/team/datasets/x'],
    ['DELETE', '/v1/team/datasets/x'], ['GET', '/v1/team/datasets/x/status'], ['GET', '/v1/team/datasets/x/overview'],
    ['POST', '/v1/team/datasets/x/datasources'], ['GET', '/v1/team/datasets/x/datasources'],
    ['GET', '/v1/team/datasets/x/datasources/y'], ['DELETE', '/v1/team/datasets/x/datasources/y'],
    ['POST', '/v1/team/datasets/x/datasources/y/presign'], ['POST', '/v1/team/datasources'],
    ['POST', '/v1/team/file/upload-datasource'], ['POST', '/v1/file/upload_datasource'], ['POST', '/v1/team/file/upload_datasource'],
    ['POST', '/v1/team/sessions'], ['GET', '/v1/team/sessions'], ['GET', '/v1/team/sessions/x'], ['POST', '/v1/team/sessions/x'],
    ['DELETE', '/v1/team/sessions/x'], ['GET', '/v1/team/sessions/x/history'], ['POST', '/v1/team/jobs'], ['POST', '/v1/job'],
  ];

  it('requires the key on every API route: HTTP 403 with code 1004, never echoing the key', async () => {
    for (const [method, path] of routes) {
      for (const headers of [{} as Record<string, string>, { 'x-pd-api-key': 'wrong-key-that-is-long' }, { 'x-pd-api-key': `${TEST_KEY}x` }, { 'x-pd-api-key': '' }]) {
        const r = await rawRequest(h.baseUrl, method, path, { ...headers, 'content-type': 'application/json' }, '{}');
        assert.equal(r.status, 403, `${method} ${path}`);
        const body = JSON.parse(r.body) as { code: number; msg: string; data: unknown };
        assert.equal(body.code, 1004);
        assert.equal(body.data, null);
        assert.ok(!r.body.includes('wrong-key') && !r.body.includes(TEST_KEY));
        assert.ok(r.headers['x-pd-trace-id']);
      }
    }
  });

  it('rejects non-loopback Host headers with 403 and an envelope, accepts loopback ones', async () => {
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost:${Number(port) + 1}`, `10.0.0.1:${port}`, '', '[::2]']) {
      const r = await rawRequest(h.baseUrl, 'GET', '/v1/team/datasets', { host, 'x-pd-api-key': TEST_KEY });
      assert.equal(r.status, 403, `host ${host}`);
      assert.equal((JSON.parse(r.body) as { code: number }).code, 1003);
      assert.ok(r.headers['x-pd-trace-id']);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `127.9.8.7:${port}`, `[::1]:${port}`, 'localhost']) {
      const r = await rawRequest(h.baseUrl, 'GET', '/v1/team/datasets', { host, 'x-pd-api-key': TEST_KEY });
      assert.equal(r.status, 200, `host ${host}`);
    }
  });

  it('sends no CORS headers, also not to preflights', async () => {
    const pre = await rawRequest(h.baseUrl, 'OPTIONS', '/v1/team/datasets', {
      origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-pd-api-key',
    });
    assert.equal(pre.status, 204);
    assert.ok(pre.headers['x-pd-trace-id']);
    const ok = await rawRequest(h.baseUrl, 'GET', '/v1/team/datasets', { origin: 'https://evil.example', 'x-pd-api-key': TEST_KEY });
    for (const r of [pre, ok]) {
      assert.deepEqual(Object.keys(r.headers).filter((k) => k.startsWith('access-control-')), []);
    }
  });

  it('puts a fresh x-pd-trace-id on every response', async () => {
    const seen = new Set<string>();
    for (const [method, path] of [['GET', '/v1/team/datasets'], ['GET', '/nowhere'], ['PUT', '/v1/team/datasets'], ['GET', '/files/f/x/y']]) {
      const r = await h.call(method as string, path as string);
      const id = r.headers.get('x-pd-trace-id');
      assert.ok(id && /^[0-9a-f]{32}$/.test(id), `${method} ${path}`);
      seen.add(id);
    }
    assert.equal(seen.size, 4);
  });

  it('bounds x-pd-external-trace-id to 128 characters (code 100)', async () => {
    const ok = await h.call('GET', '/v1/team/datasets', undefined, { 'x-pd-external-trace-id': 'a'.repeat(128) });
    assert.equal(ok.json?.code, 0);
    const bad = await h.call('GET', '/v1/team/datasets', undefined, { 'x-pd-external-trace-id': 'a'.repeat(129) });
    assert.equal(bad.json?.code, 100);
    assert.match(bad.json?.msg ?? '', /x-pd-external-trace-id/);
  });

  it('answers unknown routes with HTTP 404 + 300003 and wrong methods with HTTP 405 + Allow, in both versions, naming what was wrong', async () => {
    for (const v of ['v1', 'v2']) {
      const unknown = await h.call('GET', `/${v}/team/unicorns`);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.json?.code, 300003);
      assert.equal(unknown.json?.data, null);
      assert.match(unknown.json?.msg ?? '', new RegExp(`no endpoint GET /${v}/team/unicorns`));
      const wrong = await h.call('PUT', `/${v}/team/sessions`);
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get('allow'), 'POST, GET');
      assert.equal(wrong.json?.code, v === 'v1' ? 100 : 300001);
      assert.match(wrong.json?.msg ?? '', /method PUT not allowed/);
    }
    // A v1 client pointed at a path that only exists in v2 (and the other way round) gets 404.
    assert.equal((await h.call('POST', '/v1/team/file/init-multipart-upload', {})).status, 404);
    assert.equal((await h.call('GET', '/v3/team/datasets')).status, 404);
    const traversal = await rawRequest(h.baseUrl, 'GET', '/v1/team/datasets/../../etc/passwd', { 'x-pd-api-key': TEST_KEY });
    assert.equal((JSON.parse(traversal.body) as { code: number }).code, 300003);
    const badPct = await rawRequest(h.baseUrl, 'GET', '/v1/team/sessions/%E0%A4%A', { 'x-pd-api-key': TEST_KEY });
    assert.equal((JSON.parse(badPct.body) as { code: number }).code, 100);
  });

  it('answers requests the HTTP parser rejects with an envelope and a trace id', async () => {
    const port = Number(new URL(h.baseUrl).port);
    for (const raw of ['BREW /pot HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`, 'GET /\u0000 HTTP/1.1\r\n\r\n']) {
      const answer = await new Promise<string>((resolve, reject) => {
        const sock = connect(port, '127.0.0.1', () => sock.write(raw));
        let got = '';
        sock.on('data', (c: Buffer) => {
          got += c.toString();
        });
        sock.on('close', () => resolve(got));
        sock.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 4(00|31) /);
      assert.match(answer, /\r\nx-pd-trace-id: [0-9a-f]{32}\r\n/);
      assert.match(answer, /\{"code":100,"msg":"[^"]+","data":null\}$/);
    }
  });

  it('refuses JSON bodies over 1 MB with code 100 and stays usable', async () => {
    const big = JSON.stringify({ name: 'x', description: 'y'.repeat(1024 * 1024 + 10) });
    const r = await h.call('POST', '/v1/team/datasets', big);
    assert.equal(r.json?.code, 100);
    assert.match(r.json?.msg ?? '', /body: larger than/);
    // Also when the size is not announced up front (chunked).
    const chunked = await fetch(`${h.baseUrl}/v1/team/datasets`, {
      method: 'POST',
      headers: { 'x-pd-api-key': TEST_KEY },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 3; i++) c.enqueue(new TextEncoder().encode('x'.repeat(512 * 1024)));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    assert.equal(((await chunked.json()) as { code: number }).code, 100);
    const after = await h.call('GET', '/v1/team/datasets');
    assert.equal(after.json?.code, 0);
  });

  it('file links need no key but a valid token', async () => {
    const forged = await h.call('GET', '/files/f/0123456789abcdef01234567/x.csv?expires=99999999999999&token=abc', undefined, { 'x-pd-api-key': '' });
    assert.equal(forged.status, 403);
    assert.equal(forged.json?.code, 300002);
    const none = await h.call('GET', '/files/f/0123456789abcdef01234567/x.csv', undefined, { 'x-pd-api-key': '' });
    assert.equal(none.status, 403);
    const kind = await h.call('GET', '/files/z/0123456789abcdef01234567/x.csv', undefined, { 'x-pd-api-key': '' });
    assert.equal(kind.status, 404);
  });
});
