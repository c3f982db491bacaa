/**
 * A few thousand seeded random and malformed requests (bad JSON, wrong types, huge values, unicode,
 * path traversal, bad methods and headers, garbage multipart) must never produce a 5xx, a 9999 or
 * an error in the log, and the service must stay up and consistent.
 */
import { strict as assert } from 'node:assert';
import { Agent, request as httpRequest } from 'node:http';
import { rawRequest, startHarness, TEST_KEY, type Harness } from '../helpers/serverHarness';
import { seededRandom } from '../helpers/seededRandom';

const prng = seededRandom;

const SEED = Number(process.env['FUZZ_SEED'] ?? 20260521);
const COUNT = 3000;

describe('local service: robustness against malformed requests', function () {
  this.timeout(120_000);
  let h: Harness;
  let port: number;
  let datasetId: string;
  let sessionId: string;
  const sessions: string[] = [];

  before(async () => {
    h = await startHarness({ maxUploadBytes: 256 * 1024 });
    port = Number(new URL(h.baseUrl).port);
    datasetId = ((await h.call('POST', '/v1/team/datasets', { name: 'fuzz', description: '' })).json?.data as { id: string }).id;
    for (let i = 0; i < 30; i++) sessions.push(((await h.call('POST', '/v1/team/sessions', { userId: 'fuzz' })).json?.data as { id: string }).id);
    sessionId = sessions[0] as string;
  });
  after(async () => {
    await h.stop();
  });

  it(`survives ${COUNT} random requests (seed ${SEED}) without a 5xx`, async () => {
    const rnd = prng(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const int = (n: number): number => Math.floor(rnd() * n);
    const weird = [
      '', ' ', '..', '../..', '%2e%2e%2f%2e%2e', '%00', '%zz', '%E0%A4%A', 'ünïcødé', '😀', '\u202e', 'a'.repeat(300),
      'null', '0', '-1', '1e309', '__proto__', 'constructor', '<script>', "' OR 1=1 --", '/etc/passwd', 'C:\\Windows',
    ];
    const id = (): string => pick([datasetId, sessionId, 'nope', encodeURIComponent(pick(weird)), pick(weird).replace(/[\s/?#]/g, '')]);
    const paths = [
      () => '/v1/team/datasets', () => `/v1/team/datasets/${id()}`, () => `/v1/team/datasets/${id()}/status`,
      () => `/v1/team/datasets/${id()}/overview`, () => `/v1/team/datasets/${id()}/datasources`,
      () => `/v1/team/datasets/${id()}/datasources/${id()}`, () => `/v1/team/datasets/${id()}/datasources/${id()}/presign`,
      () => '/v1/team/datasources', () => '/v1/team/file/upload-datasource', () => '/v1/file/upload_datasource',
      () => '/v1/team/file/upload-datasource', () => '/v1/team/jobs',
      () => '/v1/team/sessions', () => `/v1/team/sessions/${id()}`, () => `/v1/team/sessions/${id()}/history`,
      () => '/v1/team/jobs', () => '/v1/job', () => `/files/${pick(['f', 's', 'x'])}/${id()}/${id()}`,
      () => `/${pick(weird).replace(/[\s?#]/g, '')}`, () => '//double//slashes', () => '/v1/team/datasets/../../../etc/passwd',
      () => `/v1/${'a/'.repeat(int(50))}`,
    ];
    const scalar = (): unknown => pick([
      null, true, false, 0, -1, 1.5, 1e308, -0, 11, 6001, '', 'x', pick(weird), 'a'.repeat(int(3) === 0 ? 7000 : 50),
      'FILE', 'AUTO', 'ZH-CN', 'DATA_ANALYTICS', 'synched', 'http://127.0.0.1:1/x.csv', 'ftp://127.0.0.1/x.csv', 'uploads/x.csv',
      datasetId, sessionId,
    ]);
    const value = (depth = 0): unknown => {
      const r = rnd();
      if (depth > 2 || r < 0.6) return scalar();
      if (r < 0.8) return Array.from({ length: int(4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: int(4) }, () => [pick(fields), value(depth + 1)]));
    };
    const fields = [
      'name', 'description', 'title', 'languageType', 'jobMode', 'maxMessagesInContext', 'agentId', 'userId', 'fileName',
      'type', 'url', 'fileKey', 'sessionId', 'question', 'stream', 'datasetId', 'datasourceIdList', '__proto__', 'constructor',
    ];
    const body = (forUpload: boolean): string | Buffer | undefined => {
      const r = forUpload && rnd() < 0.7 ? 0.85 : rnd();
      if (r < 0.15) return undefined;
      if (r < 0.55) return JSON.stringify(Object.fromEntries(Array.from({ length: int(6) }, () => [pick(fields), value()])));
      if (r < 0.65) return JSON.stringify(value());
      if (r < 0.72) return pick(['{', '{"name":', '[1,2', 'nul', '\u0000\u0001', '{"a":1}{"b":2}', '"\\ud800"', '{"name":"x"']);
      if (r < 0.76) return '['.repeat(20_000 + int(20_000));
      if (r < 0.8) return Buffer.from(Array.from({ length: int(2000) }, () => int(256)));
      if (r < 0.9) {
        const boundary = pick(['xyz', 'xyz', '', 'a'.repeat(80)]);
        return `--${boundary}\r\nContent-Disposition: form-data; name="${pick(['file', 'x', ''])}"; filename="${pick(weird)}.${pick(['csv', 'exe', ''])}"\r\n\r\n${'a,b\n'.repeat(int(100))}${rnd() < 0.5 ? `\r\n--${boundary}--\r\n` : ''}`;
      }
      return JSON.stringify({ sessionId: pick(sessions), question: pick(['hi', 'x'.repeat(6001), '']), stream: rnd() < 0.5, datasetId: pick([datasetId, 'nope']), datasourceIdList: pick([[], ['nope'], 'x']) });
    };
    const methods = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS', 'POST', 'GET'];

    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const failures: string[] = [];
    const codes = new Map<string, number>();
    let next = 0;
    const one = async (): Promise<void> => {
      const method = pick(methods);
      let path = pick(paths)();
      if (rnd() < 0.5) {
        const q = Array.from({ length: int(5) }, () => `${pick(['pageNumber', 'pageSize', 'name', 'title', 'status', 'userId', 'x', '%zz'])}=${encodeURIComponent(String(scalar()))}`);
        path += `?${q.join('&')}`;
      }
      // Node's client refuses raw characters outside 0x21-0xff; send those percent-encoded.
      path = path.replace(/[^\u0021-\u00ff]/gu, (c) => encodeURIComponent(c));
      const headers: Record<string, string> = {};
      const hr = rnd();
      if (hr < 0.85) headers['x-pd-api-key'] = TEST_KEY;
      else if (hr < 0.92) headers['x-pd-api-key'] = pick(['wrong', '', 'ünï'.normalize('NFD').replace(/[^\x20-\x7e]/g, '?')]);
      if (rnd() < 0.1) headers['host'] = pick(['evil.example', `127.0.0.1:${port + 1}`, `localhost:${port}`, '[::1]', '']);
      if (rnd() < 0.1) headers['x-pd-external-trace-id'] = 'x'.repeat(pick([0, 128, 129, 5000]));
      const forUpload = path.includes('upload');
      const b = method === 'GET' || method === 'HEAD' ? (rnd() < 0.1 ? body(false) : undefined) : body(forUpload);
      const multipartBody = typeof b === 'string' && b.startsWith('--');
      const ct = multipartBody && rnd() < 0.8 ? 'multipart/form-data; boundary=xyz' : pick(['application/json', 'text/plain', 'multipart/form-data; boundary=xyz', 'multipart/form-data', '', 'application/json; charset=latin1']);
      if (ct) headers['content-type'] = ct;
      const r = await new Promise<{ status: number; trace: string | undefined; text: string }>((resolve) => {
        const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: b !== undefined ? { ...headers, 'content-length': String(Buffer.byteLength(b)) } : headers, agent, setHost: headers['host'] === undefined }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, trace: res.headers['x-pd-trace-id'] as string | undefined, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', () => resolve({ status: -1, trace: undefined, text: '' }));
        });
        req.on('error', (e) => resolve({ status: -2, trace: undefined, text: String(e) }));
        if (b !== undefined) req.write(b);
        req.end();
      });
      const label = `${method} ${path.slice(0, 120)}`;
      const code = /^\{"code":(\d+)/.exec(r.text)?.[1];
      if (code !== undefined) codes.set(code, (codes.get(code) ?? 0) + 1);
      if (r.status >= 500) failures.push(`${label} -> ${r.status} ${r.text.slice(0, 200)}`);
      if (r.status === -1) failures.push(`${label} -> response error`);
      if (r.status > 0 && !r.trace) failures.push(`${label} -> ${r.status} without x-pd-trace-id`);
      if (r.text.includes('"code":9999')) failures.push(`${label} -> 9999 ${r.text.slice(0, 200)}`);
      if (r.text.includes(TEST_KEY)) failures.push(`${label} -> response contains the key`);
    };
    const worker = async (): Promise<void> => {
      while (next < COUNT) {
        next++;
        await one();
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    agent.destroy();
    assert.deepEqual(failures.slice(0, 20), []);
    // The generator reached past the gate: successes and each family of rejection occurred.
    for (const c of ['0', '100', '1004', '1003', '300003', '300004', '210022']) assert.ok((codes.get(c) ?? 0) > 0, `code ${c} seen: ${JSON.stringify([...codes])}`);
    assert.deepEqual(h.logs.filter((l) => l.startsWith('[error]')), []);
    // Still up and consistent.
    const after = await rawRequest(h.baseUrl, 'GET', '/v1/team/datasets?pageSize=1', { 'x-pd-api-key': TEST_KEY });
    assert.equal(after.status, 200);
    assert.equal((JSON.parse(after.body) as { code: number }).code, 0);
    // And what it accepted is on disk: a restart shows the same resources.
    const counts = async (): Promise<unknown[]> => Promise.all(['/v1/team/datasets?pageSize=1', '/v1/team/sessions?pageSize=1'].map(async (p) => (((await h.call('GET', p)).json?.data) as { total: number }).total));
    const before = await counts();
    await h.restart();
    assert.deepEqual(await counts(), before);
  });
});
