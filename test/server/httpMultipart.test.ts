/**
 * v2 multipart upload against the real local service: init decides the parts and signs one URL
 * per part; parts are PUT in parallel without the API key and answered with an ETag; complete
 * joins them into a file a data source is made from. Refusals: an expired URL, a URL of another
 * part or upload, a tampered one, a wrong-size part, a wrong ETag. A part that fails once then
 * succeeds, and a cancelled or abandoned upload, leave nothing behind.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { eventually, rawRequest, startHarness, USER, type Harness } from '../helpers/serverHarness';
import { waitSynched } from '../helpers/v2Wire';

type Rec = Record<string, unknown>;
interface Part { number: number; size: number; upload_url: string }
interface Plan { upload_id: string; file_object_key: string; part_items: Part[] }

const PART = 64 * 1024;
/** About 330 KB of invented rows: six parts, the last one shorter. */
const BIG = `id,city,amount\n${Array.from({ length: 20_000 }, (_, i) => `${i},city-${i % 37},${(i * 7) % 1000}`).join('\n')}\n`;
const BYTES = Buffer.from(BIG);

const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');
const slice = (p: Part): Buffer => BYTES.subarray((p.number - 1) * PART, (p.number - 1) * PART + p.size);

async function init(h: Harness, fileName = 'big.csv', size = BYTES.length): Promise<Plan> {
  const r = await h.call('POST', '/v2/team/file/init-multipart-upload', { file_name: fileName, file_size: size, user_id: USER });
  assert.equal(r.json?.code, 0, r.text);
  return r.json?.data as Plan;
}

async function put(url: string, body: Buffer): Promise<Response> {
  // No API key: a presigned URL is its own credential.
  return fetch(url, { method: 'PUT', body: new Uint8Array(body), headers: { 'content-type': 'application/octet-stream' } });
}

async function complete(h: Harness, plan: Plan, etags: Array<{ number: number; etag: string }>): Promise<{ code: number; msg: string | null; data: unknown; status: number }> {
  const r = await h.call('POST', '/v2/team/file/complete-multipart-upload', { file_object_key: plan.file_object_key, upload_id: plan.upload_id, part_etags: etags, user_id: USER });
  return { ...(r.json ?? { code: -1, msg: r.text, data: null }), status: r.status };
}

/** Sends `sent` bytes of a part that announces `announced`, then drops the connection. */
function abortedPut(url: string, announced: number, sent: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const req = httpRequest({ host: u.hostname, port: u.port, method: 'PUT', path: `${u.pathname}${u.search}`, headers: { 'content-length': String(announced) } });
    req.on('error', () => resolve());
    req.write(sent, () => setTimeout(() => {
      req.destroy();
      resolve();
    }, 50));
  });
}

async function filesIn(dir: string): Promise<string[]> {
  return readdir(dir, { recursive: true }).catch(() => [] as string[]);
}

describe('local service: v2 multipart upload', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ multipartPartBytes: PART });
  });
  after(async () => {
    await h.stop();
  });

  it('splits the file into the parts it decides, with one signed URL each', async () => {
    const plan = await init(h);
    assert.match(plan.file_object_key, /\.csv$/);
    assert.deepEqual(plan.part_items.map((p) => p.number), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(plan.part_items.map((p) => p.size), [PART, PART, PART, PART, PART, BYTES.length - 5 * PART]);
    assert.equal(new Set(plan.part_items.map((p) => p.upload_url)).size, 6);
    for (const p of plan.part_items) assert.ok(p.upload_url.startsWith(h.baseUrl), p.upload_url);
  });

  it('takes parts in parallel and out of order, answers ETags, joins them into a data source with the exact bytes', async () => {
    const plan = await init(h);
    const order = [...plan.part_items].reverse();
    const answers = await Promise.all(order.map(async (p) => ({ p, r: await put(p.upload_url, slice(p)) })));
    const etags = answers.map(({ p, r }) => {
      assert.equal(r.status, 200);
      const etag = r.headers.get('etag') ?? '';
      assert.equal(etag, `"${md5(slice(p))}"`);
      assert.equal(r.headers.get('access-control-expose-headers'), 'ETag');
      // As the official clients do: quotes stripped, listed by `number`.
      return { number: p.number, etag: etag.replace(/"/g, '') };
    });
    const done = await complete(h, plan, etags.sort((a, b) => a.number - b.number));
    assert.equal(done.code, 0, String(done.msg));
    assert.deepEqual(done.data, { file_object_key: plan.file_object_key });
    assert.ok(!(await filesIn(join(h.dataDir, 'multipart'))).some((f) => f.startsWith(plan.upload_id)));
    const ds = ((await h.call('POST', '/v2/team/datasets', { name: 'big', user_id: USER })).json?.data as Rec)['id'] as string;
    const src = await h.call('POST', `/v2/team/datasets/${ds}/datasources`, { name: 'big.csv', type: 'FILE', file_object_key: plan.file_object_key, user_id: USER });
    assert.equal(src.json?.code, 0, src.text);
    const id = (src.json?.data as Rec)['id'] as string;
    assert.equal((await waitSynched(h, ds, id))['size'], BYTES.length);
    const link = (await h.call('POST', `/v2/team/datasets/${ds}/datasources/${id}/presign`, { user_id: USER })).json?.data as Rec;
    const back = Buffer.from(await (await fetch(link['presigned_url'] as string)).arrayBuffer());
    assert.ok(back.equals(BYTES));
    // The upload is finished: completing again finds nothing.
    assert.equal((await complete(h, plan, etags)).status, 404);
  });

  it('takes a part that failed once (dropped mid-send, then too short) when it is sent again', async () => {
    const plan = await init(h);
    const p2 = plan.part_items[1] as Part;
    await abortedPut(p2.upload_url, p2.size, slice(p2).subarray(0, 1000));
    const uploadDir = join(h.dataDir, 'multipart', plan.upload_id);
    await eventually(async () => ((await filesIn(uploadDir)).length === 0 ? true : undefined), 'the partial part to be removed');
    const short = await put(p2.upload_url, slice(p2).subarray(0, 100));
    assert.equal(short.status, 400);
    assert.match(((await short.json()) as { msg: string }).msg, /part 2: 100 bytes received, the part is 65536 bytes/);
    const tooLong = await put(p2.upload_url, Buffer.concat([slice(p2), Buffer.from('x')]));
    assert.equal(tooLong.status, 400);
    assert.match(((await tooLong.json()) as { msg: string }).msg, /part 2: 65537 bytes sent, the part is 65536 bytes/);
    const etags: Array<{ number: number; etag: string }> = [];
    for (const p of plan.part_items) {
      const r = await put(p.upload_url, slice(p));
      assert.equal(r.status, 200);
      etags.push({ number: p.number, etag: (r.headers.get('etag') ?? '').replace(/"/g, '') });
    }
    assert.deepEqual((await filesIn(uploadDir)).sort(), ['1.part', '2.part', '3.part', '4.part', '5.part', '6.part']);
    assert.equal((await complete(h, plan, etags)).code, 0);
  });

  it('answers a part that runs past its size without announcing it (chunked) with a 400, not a reset', async () => {
    const plan = await init(h);
    const p1 = plan.part_items[0] as Part;
    const body = Buffer.concat([slice(p1), Buffer.alloc(32 * 1024 * 1024, 120)]);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < body.length; i += 16_384) c.enqueue(new Uint8Array(body.subarray(i, i + 16_384)));
        c.close();
      },
    });
    const r = await fetch(p1.upload_url, { method: 'PUT', body: stream, duplex: 'half' } as RequestInit & { duplex: 'half' });
    assert.equal(r.status, 400);
    assert.match(((await r.json()) as { msg: string }).msg, /part 1: more than its 65536 bytes/);
    // The part can still be sent right afterwards.
    assert.equal((await put(p1.upload_url, slice(p1))).status, 200);
  });

  it('refuses a complete with a missing part, a wrong ETag or another upload\'s key, naming the part', async () => {
    const plan = await init(h);
    const etags: Array<{ number: number; etag: string }> = [];
    for (const p of plan.part_items.slice(0, 5)) etags.push({ number: p.number, etag: md5(slice(p)) });
    for (const p of plan.part_items.slice(0, 5)) assert.equal((await put(p.upload_url, slice(p))).status, 200);
    const missing = await complete(h, plan, etags);
    assert.equal(missing.status, 400);
    assert.equal(missing.code, 300001);
    assert.match(String(missing.msg), /5 of 6 parts listed/);
    const last = plan.part_items[5] as Part;
    assert.equal((await put(last.upload_url, slice(last))).status, 200);
    const wrong = await complete(h, plan, [...etags, { number: 6, etag: 'ffff' }]);
    assert.match(String(wrong.msg), /ETag of part 6 does not match/);
    const other = await complete(h, { ...plan, file_object_key: 'uploads/elsewhere.csv' }, [...etags, { number: 6, etag: md5(slice(last)) }]);
    assert.match(String(other.msg), /file_object_key/);
    assert.equal((await complete(h, plan, [...etags, { number: 6, etag: `"${md5(slice(last))}"` }])).code, 0);
  });

  it('refuses a part PUT to a URL of another part or upload, or a tampered or unsigned one (403, envelope)', async () => {
    const a = await init(h);
    const b = await init(h);
    const a1 = new URL((a.part_items[0] as Part).upload_url);
    const b1 = new URL((b.part_items[0] as Part).upload_url);
    const forged = [
      `${h.baseUrl}${a1.pathname.replace(/\/1$/, '/2')}${a1.search}`,
      `${h.baseUrl}${a1.pathname}${b1.search}`,
      `${h.baseUrl}${a1.pathname}?expires=${Number(a1.searchParams.get('expires')) + 1}&signature=${a1.searchParams.get('signature') ?? ''}`,
      `${h.baseUrl}${a1.pathname}`,
    ];
    for (const url of forged) {
      const r = await put(url, BYTES.subarray(0, PART));
      assert.equal(r.status, 403, url);
      const body = (await r.json()) as { code: number; msg: string };
      assert.equal(body.code, 300002);
      assert.match(body.msg, /not valid/);
    }
    assert.deepEqual(await filesIn(join(h.dataDir, 'multipart', a.upload_id)), []);
    // Parts are PUT only; the part route names the method it takes.
    const get = await rawRequest(h.baseUrl, 'GET', `${a1.pathname}${a1.search}`, {});
    assert.equal(get.status, 405);
    assert.equal(get.headers['allow'], 'PUT');
  });

  it('answers a browser preflight for part URLs (and only for them) with CORS that exposes ETag', async () => {
    const plan = await init(h);
    const u = new URL((plan.part_items[0] as Part).upload_url);
    const pre = await rawRequest(h.baseUrl, 'OPTIONS', `${u.pathname}${u.search}`, { origin: 'http://localhost:3000', 'access-control-request-method': 'PUT' });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers['access-control-allow-origin'], '*');
    assert.equal(pre.headers['access-control-expose-headers'], 'ETag');
    const api = await rawRequest(h.baseUrl, 'OPTIONS', '/v2/team/file/init-multipart-upload', { origin: 'http://localhost:3000' });
    assert.equal(api.headers['access-control-allow-origin'], undefined);
  });

  it('refuses files it cannot take at init: unsupported extension, empty, over the limit', async () => {
    const cases: Array<[Rec, number]> = [
      [{ file_name: 'x.exe', file_size: 10 }, 300004],
      [{ file_name: 'x.csv', file_size: 0 }, 300005],
      [{ file_name: 'x.csv', file_size: 1e15 }, 300006],
      [{ file_name: 'x.csv' }, 300001],
    ];
    for (const [body, code] of cases) assert.equal((await h.call('POST', '/v2/team/file/init-multipart-upload', { ...body, user_id: USER })).json?.code, code, JSON.stringify(body));
  });
});

describe('local service: v2 multipart upload, expiry', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ multipartPartBytes: PART, multipartUrlTtlMs: 1500 });
  });
  after(async () => {
    await h.stop();
  });

  it('refuses a part PUT to an expired URL, and an abandoned upload (one part in, one cancelled mid-send) leaves nothing behind', async () => {
    const plan = await init(h);
    const [p1, p2] = plan.part_items as [Part, Part];
    assert.equal((await put(p1.upload_url, slice(p1))).status, 200);
    await abortedPut(p2.upload_url, p2.size, slice(p2).subarray(0, 5000));
    const dir = join(h.dataDir, 'multipart');
    // The cancelled part's bytes go as soon as the service notices the dropped connection.
    await eventually(async () => ((await filesIn(join(dir, plan.upload_id))).join() === '1.part' ? true : undefined), 'only part 1 to remain');
    await eventually(async () => (Date.now() > Number(new URL(p2.upload_url).searchParams.get('expires')) ? true : undefined), 'the URLs to expire');
    const late = await put(p2.upload_url, slice(p2));
    assert.equal(late.status, 403);
    assert.match(((await late.json()) as { msg: string }).msg, /expired/);
    await eventually(async () => ((await filesIn(dir)).length === 0 ? true : undefined), 'the abandoned upload to be removed');
    const done = await complete(h, plan, [{ number: 1, etag: md5(slice(p1)) }]);
    assert.equal(done.status, 404);
    assert.equal(done.code, 300003);
  });

  it('starts with no unfinished uploads after a restart', async () => {
    const plan = await init(h);
    const p1 = plan.part_items[0] as Part;
    assert.equal((await put(p1.upload_url, slice(p1))).status, 200);
    await h.restart({ multipartPartBytes: PART });
    assert.deepEqual(await filesIn(join(h.dataDir, 'multipart')), []);
    assert.equal((await complete(h, plan, [{ number: 1, etag: md5(slice(p1)) }])).status, 404);
  });
});
