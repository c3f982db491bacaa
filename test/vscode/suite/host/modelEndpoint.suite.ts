/**
 * The answer panel through an OpenAI-compatible endpoint (issue 26, `endpoint` mode): a loopback
 * server in the test stands for Ollama or llama.cpp. The endpoint is chosen with "Choose Language
 * Model…" (URL, model, consent), its key set with "Set Model Endpoint Key…" (SecretStorage, never
 * the settings), and a question in the panel reaches it with the key, is answered with both
 * readings agreeing, and after "Clear Model Endpoint Key" is sent without one.
 */
import { strict as assert } from 'node:assert';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ModelStatus } from '../../../../src/extension/model/modelChoice';
import { api, useScriptedPrompts } from './helpers';
import { chooseModel, hasTable, ModelSession, reply, resetModelSettings, show, stepsOf, sumBy, textOf } from './modelSession';

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; messages?: Array<{ role: string; content: string }>; stream?: boolean };
}

/** A chat-completions server on 127.0.0.1 answering from a queue. */
async function startEndpoint(): Promise<{ url: string; host: string; seen: Seen[]; replies: string[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const replies: string[] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString('utf8')));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(data) as Seen['body'] });
      const text = replies.shift();
      if (text === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'no reply scripted' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`, host: `127.0.0.1:${port}`, seen, replies,
    close: () => new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
  };
}

describe('the answer panel through an OpenAI-compatible endpoint', function () {
  this.timeout(120_000);
  const prompts = useScriptedPrompts();
  let endpoint: Awaited<ReturnType<typeof startEndpoint>> | undefined;
  let session: ModelSession | undefined;

  before(async () => {
    await api();
    endpoint = await startEndpoint();
    session = await ModelSession.open('through an endpoint');
  });

  after(async () => {
    await resetModelSettings();
    await session?.close();
    await endpoint?.close();
  });

  it('is chosen with its URL and model after consent, its key kept in SecretStorage; a question reaches it with the key and is answered', async () => {
    const a = await api();
    assert.ok(endpoint && session);
    const label = `tiny-planner at ${endpoint.host}`;
    const status = await chooseModel(prompts(), /OpenAI-compatible endpoint/, { inputs: [endpoint.url, 'tiny-planner'], consent: true });
    assert.deepEqual(status, { kind: 'active', label });
    assert.ok(a.services.model.statusText.includes(label), a.services.model.statusText);
    assert.equal(a.services.model.model?.baseUrl, endpoint.url, 'the service calls the endpoint itself (no bridge)');
    assert.equal(a.services.model.model?.apiKey, undefined);

    const key = `sk-endpoint-${Date.now()}`;
    prompts().expect({ kind: 'input', match: new RegExp(`Key for the model endpoint ${endpoint.host.replace(/\./g, '\\.')}`), answer: () => key });
    const withKey = (await vscode.commands.executeCommand('teamData.setModelEndpointKey')) as ModelStatus;
    prompts().assertDone();
    assert.deepEqual(withKey, status, 'no second consent for a key');
    assert.equal(a.services.model.model?.apiKey, key);
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('teamData')).includes(key), 'the key is not in the settings');

    endpoint.replies.push(reply(sumBy('revenue', 'region')));
    const answer = await session.ask('total revenue by region');
    assert.equal(answer.state, 'done', show(answer));
    assert.ok(hasTable(answer), show(answer));
    assert.ok(stepsOf(answer).includes(`Check the reading with ${label}: it reads the question the same way`), show(answer));
    assert.match(textOf(answer), /read the question the same way/);
    assert.ok(!JSON.stringify(answer).includes(key), 'the key never reaches the answer');
    assert.equal(endpoint.seen.length, 1);
    const [req] = endpoint.seen;
    assert.ok(req);
    assert.equal(req.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, `Bearer ${key}`);
    assert.equal(req.body.model, 'tiny-planner');
    assert.equal(req.body.stream, false);
    assert.ok(req.body.messages?.some((m) => m.content.includes('Question: "total revenue by region"')), JSON.stringify(req.body.messages));

    // The key cleared: the next question is sent without it.
    assert.deepEqual(await vscode.commands.executeCommand('teamData.clearModelEndpointKey'), status);
    assert.equal(a.services.model.model?.apiKey, undefined);
    endpoint.replies.push(reply(sumBy('revenue', 'channel')));
    const again = await session.ask('total revenue by channel');
    assert.equal(again.state, 'done', show(again));
    assert.equal(endpoint.seen.length, 2);
    assert.equal(endpoint.seen[1]?.headers.authorization, undefined);

    assert.deepEqual(await chooseModel(prompts(), /Off \(built-in engine only\)/), { kind: 'off' });
    await session.ask('total revenue by region');
    assert.equal(endpoint.seen.length, 2, 'off: the endpoint is not asked');
  });
});
