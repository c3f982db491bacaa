/**
 * The loopback bridge to a VS Code language model (extension/model/modelBridge.ts), in plain Node
 * with a scripted `send`: the per-start token is required and checked, other paths and methods
 * are refused, the body and the model's output are capped, a client that goes away cancels the
 * model request, errors never echo the token, and the service's own model client reads its replies.
 */
import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import { chat } from '../../../../src/server/model/llmClient';
import { startModelBridge, tokenMatches, type BridgeMessage, type BridgeOptions, type ModelBridge } from '../../../../src/extension/model/modelBridge';

interface Reply {
  status: number;
  json: { error?: { message?: string }; choices?: Array<{ message?: { role?: string; content?: string }; finish_reason?: string }> };
  text: string;
}

async function call(b: ModelBridge, o: { method?: string; path?: string; token?: string | null; body?: string } = {}): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = o.token === undefined ? b.token : o.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const res = await fetch(`http://127.0.0.1:${b.port}${o.path ?? '/v1/chat/completions'}`, {
    method: o.method ?? 'POST',
    headers,
    ...(o.body !== undefined ? { body: o.body } : (o.method ?? 'POST') === 'POST' ? { body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) } : {}),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as Reply['json'], text };
}

describe('language model bridge (loopback, token, caps, cancel)', function () {
  this.timeout(30_000);
  const open: ModelBridge[] = [];
  const seen: BridgeMessage[][] = [];

  async function bridge(extra: Partial<BridgeOptions> = {}): Promise<ModelBridge> {
    const b = await startModelBridge({
      send: (messages) => {
        seen.push(messages);
        return Promise.resolve(`answer to ${messages.length} messages`);
      },
      ...extra,
    });
    open.push(b);
    return b;
  }

  afterEach(async () => {
    seen.length = 0;
    for (const b of open.splice(0)) await b.close();
  });

  it('listens on 127.0.0.1 only, with a fresh long token per start', async () => {
    const a = await bridge();
    const b = await bridge();
    assert.match(a.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.notEqual(a.token, b.token);
    assert.ok(a.token.length >= 40);
  });

  it('answers in the OpenAI shape with the right token, passing roles and text parts through', async () => {
    const b = await bridge();
    const body = JSON.stringify({ model: 'gpt-4o', temperature: 0, messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, { role: 'assistant', content: 'ok' }] });
    const r = await call(b, { body });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.choices?.[0]?.message, { role: 'assistant', content: 'answer to 3 messages' });
    assert.equal(r.json.choices?.[0]?.finish_reason, 'stop');
    assert.deepEqual(seen[0], [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'ab' }, { role: 'assistant', content: 'ok' }]);
  });

  it('refuses a missing or wrong token with 401 before anything else, without echoing it', async () => {
    const b = await bridge();
    const wrong = `${b.token.slice(0, -1)}${b.token.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [null, wrong, '', `${b.token}x`]) {
      const r = await call(b, { token });
      assert.equal(r.status, 401, `token ${token === null ? 'none' : 'wrong'}`);
      assert.ok(!r.text.includes(b.token));
      if (token) assert.ok(!r.text.includes(token));
    }
    assert.equal((await call(b, { token: null, path: '/elsewhere' })).status, 401, 'no path is told without the token');
    assert.equal(seen.length, 0, 'the model was never asked');
    assert.equal(tokenMatches(`Bearer ${b.token}`, b.token), true);
    assert.equal(tokenMatches(`Basic ${b.token}`, b.token), false);
    assert.equal(tokenMatches(undefined, b.token), false);
  });

  it('answers 404 on other paths and 405 on other methods', async () => {
    const b = await bridge();
    assert.equal((await call(b, { path: '/v1/models', method: 'GET' })).status, 404);
    assert.equal((await call(b, { path: '/v1/completions' })).status, 404);
    const r = await call(b, { method: 'GET' });
    assert.equal(r.status, 405);
    assert.equal(seen.length, 0);
  });

  it('refuses malformed bodies with a clear 400 and streaming it does not serve', async () => {
    const b = await bridge();
    for (const [body, why] of [['not json', /not JSON/], ['[]', /JSON object/], ['{"messages":[]}', /messages/], ['{"messages":[{"role":"tool","content":"x"}]}', /role/], ['{"messages":[{"role":"user","content":5}]}', /content/], ['{"stream":true,"messages":[{"role":"user","content":"x"}]}', /stream/]] as const) {
      const r = await call(b, { body });
      assert.equal(r.status, 400, body);
      assert.match(r.json.error?.message ?? '', why);
    }
    assert.equal(seen.length, 0);
  });

  it('caps the request body (413), declared or streamed', async () => {
    const b = await bridge({ maxBodyBytes: 1000 });
    const big = JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(2000) }] });
    const r = await call(b, { body: big });
    assert.equal(r.status, 413);
    // Chunked, no content-length: cut off while reading.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: b.port, path: '/v1/chat/completions', method: 'POST', headers: { authorization: `Bearer ${b.token}`, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 5; i++) req.write('x'.repeat(400));
      req.end();
    });
    assert.equal(status, 413);
    assert.equal(seen.length, 0);
    const ok = await call(b, { body: JSON.stringify({ messages: [{ role: 'user', content: 'small' }] }) });
    assert.equal(ok.status, 200, 'a body under the cap is served');
  });

  it('cuts an oversized model output at the cap, saying so (finish_reason length)', async () => {
    const b = await bridge({ maxOutputChars: 100, send: () => Promise.resolve('y'.repeat(10_000)) });
    const r = await call(b);
    assert.equal(r.status, 200);
    assert.equal(r.json.choices?.[0]?.message?.content?.length, 100);
    assert.equal(r.json.choices?.[0]?.finish_reason, 'length');
  });

  it('a client that goes away aborts the send function\'s signal (the model request stops)', async () => {
    let aborted: () => void = () => undefined;
    const wasAborted = new Promise<void>((r) => { aborted = r; });
    let started: () => void = () => undefined;
    const didStart = new Promise<void>((r) => { started = r; });
    const b = await bridge({
      send: (_m, signal) => new Promise<string>((_resolve, reject) => {
        started();
        signal.addEventListener('abort', () => {
          aborted();
          reject(new Error('cancelled'));
        });
      }),
    });
    const ac = new AbortController();
    const viaFetch = fetch(`${b.baseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${b.token}` }, body: JSON.stringify({ messages: [{ role: 'user', content: 'q' }] }), signal: ac.signal }).catch(() => undefined);
    await didStart;
    ac.abort();
    await viaFetch;
    await Promise.race([wasAborted, new Promise((_r, reject) => setTimeout(() => reject(new Error('the model request was not cancelled')), 3000))]);
  });

  it('a model failure is a 502 whose text never holds the token', async () => {
    let token = '';
    const lines: string[] = [];
    const b = await bridge({ send: () => Promise.reject(new Error(`upstream refused (Authorization: Bearer ${token})\nsecond line`)), log: (_l, m) => lines.push(m) });
    token = b.token;
    const r = await call(b);
    assert.equal(r.status, 502);
    assert.match(r.json.error?.message ?? '', /upstream refused/);
    assert.ok(!r.text.includes(b.token), 'the token was echoed');
    assert.ok(lines.some((l) => l.includes('upstream refused')), 'the failure is logged');
    assert.ok(!lines.some((l) => l.includes(b.token)), 'the token reached the log');
  });

  it('the service\'s own model client reads the bridge like any OpenAI-compatible endpoint', async () => {
    const b = await bridge({ send: (m) => Promise.resolve(`{"plan":"ok","n":${m.length}}`) });
    const text = await chat({ baseUrl: b.baseUrl, model: 'copilot-gpt-4o', apiKey: b.token }, [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }], new AbortController().signal);
    assert.equal(text, '{"plan":"ok","n":2}');
    await assert.rejects(chat({ baseUrl: b.baseUrl, model: 'x', apiKey: 'wrong' }, [{ role: 'user', content: 'u' }], new AbortController().signal), /401/);
  });
});
