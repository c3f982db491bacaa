/**
 * SQL written by a language model is hostile input (issue 12). A scripted model on 127.0.0.1
 * answers each question with one escape attempt: files outside the data folder, the service's own
 * state inside it, another dataset's table, the catalog, settings, ATTACH/COPY, table functions,
 * CTE scoping tricks, comments and quoting. An escape is any answer that shows a secret planted in
 * one of those places. Prints payloads / escapes (target 0).
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { CSV, payloads, plantSecrets, SECRETS } from './hostilePayloads';
import { startRig, type EngineRig } from './engineHarness';

describe('SQL guard against a hostile model (issue 12)', function () {
  this.timeout(120_000);
  let server: Server;
  let rig: EngineRig;
  let replies: string[] = [];
  const sockets = new Set<Socket>();

  const reply = (res: ServerResponse, content: string): void => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
  };

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => reply(res, replies.shift() ?? 'The numbers are in the table.'));
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    rig = await startRig({ 'sales.csv': CSV, 'other.csv': `secret\n${SECRETS[2] as string}\n` }, { llm: { baseUrl, model: 'hostile', apiKey: 'k-123456789', timeoutMs: 3000 } });
  });
  after(async () => {
    await rig?.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('lets no model-written statement show a file, state or table outside the question\'s data', async () => {
    const { outside, state, other } = await plantSecrets(rig);
    const list = payloads(outside, state, other);
    const escapes: string[] = [];
    for (const sql of list) {
      replies = [JSON.stringify({ sql }), 'The numbers are in the table.'];
      const a = await rig.ask('total revenue by region', ['sales.csv']);
      const seen = JSON.stringify(a.events);
      const leaked = SECRETS.filter((s) => seen.includes(s));
      if (leaked.length > 0) escapes.push(`${sql} -> ${leaked.join(', ')}`);
    }
    console.log(`      SQL guard: ${list.length} escape attempts by a scripted model / ${escapes.length} escapes (target 0)`);
    assert.ok(list.length >= 50);
    assert.deepEqual(escapes, []);
  });
});
