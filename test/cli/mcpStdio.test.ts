/**
 * The stdio transport of `team-data mcp` (issue 25, item 7): a message over the limit is skipped
 * as it streams by and answered with a JSON-RPC error carrying its id (at the start or the end of
 * the message), a line that is not JSON-RPC gets its error too, and messages before and after
 * arrive untouched, whatever the chunk boundaries.
 */
import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineStdioTransport, sniffId, sniffRequest } from '../../src/cli/mcpStdio';

/** Feeds `text` to a transport in chunks of random sizes; returns what it passed on and answered. */
async function run(text: string, max: number, seed: number): Promise<{ messages: JSONRPCMessage[]; replies: Array<Record<string, unknown>>; notes: string[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  const notes: string[] = [];
  const t = new LineStdioTransport(input, output, { maxMessageBytes: max, note: (l) => notes.push(l) });
  const messages: JSONRPCMessage[] = [];
  t.onmessage = (m) => messages.push(m);
  t.onerror = () => undefined;
  let closed = false;
  t.onclose = () => {
    closed = true;
  };
  await t.start();
  const bytes = Buffer.from(text);
  let x = seed;
  for (let at = 0; at < bytes.length;) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const n = 1 + (x % 700);
    input.write(bytes.subarray(at, at + n));
    at += n;
  }
  await new Promise((r) => setImmediate(r));
  assert.equal(closed, false, 'the transport stays open');
  await t.close();
  const out = (output.read() as Buffer | null)?.toString('utf8') ?? '';
  const replies = out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { messages, replies, notes };
}

describe('team-data mcp stdio transport', () => {
  const ping = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;
  const big = (id: number | string, bytes: number, idFirst: boolean): string => {
    const params = { name: 'teamData_askDataset', arguments: { question: 'x'.repeat(bytes) } };
    return `${JSON.stringify(idFirst ? { jsonrpc: '2.0', id, method: 'tools/call', params } : { method: 'tools/call', params, jsonrpc: '2.0', id })}\n`;
  };

  for (const seed of [1, 7, 42]) {
    it(`answers an oversized message with an error carrying its id and keeps reading (chunks of seed ${seed})`, async () => {
      const text = ping(1) + big(2, 5000, false) + ping(3) + big('req-4', 5000, true) + 'not json\r\n' + '{"jsonrpc":"2.0","id":6,"method":7}\n' + ping(7);
      const { messages, replies, notes } = await run(text, 2000, seed);
      assert.deepEqual(messages.map((m) => ('id' in m ? m.id : undefined)), [1, 3, 7]);
      assert.deepEqual(replies.map((r) => [r['id'], (r['error'] as { code: number }).code]), [[2, -32600], ['req-4', -32600], [undefined, -32700], [6, -32600]]);
      assert.match(String((replies[0]?.['error'] as { message: string }).message), /^message too large: \d\.\d kB is over this server's limit of 2\.0 kB per message; it was not read$/);
      assert.equal(notes.length, 2);
      assert.equal(notes[0], `team-data mcp: refused a ${Buffer.byteLength(big(2, 5000, false)) - 1}-byte message (request 2): over the 2000-byte limit; still serving`);
    });
  }

  for (const seed of [3, 11]) {
    it(`never answers a client's oversized or invalid response or notification, only logs it (chunks of seed ${seed}; security review of issue 25, item 6)`, async () => {
      const x = 'x'.repeat(5000);
      const text = [
        JSON.stringify({ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: x }] } }), // the client's answer to our request 5
        JSON.stringify({ jsonrpc: '2.0', id: 6, error: { code: -1, message: x } }),
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: x } }),
        JSON.stringify({ result: { nested: { method: 'm', id: 8 }, text: x }, jsonrpc: '2.0', id: 9 }), // "method" inside the result is not the message's
        JSON.stringify({ jsonrpc: '2.0', params: { q: x }, method: 'tools/call', id: 10 }), // a request, its method after its params
        '{"jsonrpc":"2.0","id":11}', // no result, error or method
        '{"jsonrpc":"2.0","id":12,"result":', // cut-off response: a parse error, without its id
      ].join('\n') + '\n' + ping(13);
      const { messages, replies, notes } = await run(text, 2000, seed);
      assert.deepEqual(messages.map((m) => ('id' in m ? m.id : undefined)), [13]);
      assert.deepEqual(replies.map((r) => [r['id'], (r['error'] as { code: number }).code]), [[10, -32600], [undefined, -32700]]);
      assert.equal(notes.filter((n) => /dropped a \d+-byte message that is no request \(a response or notification\): over the 2000-byte limit; not answered; still serving$/.test(n)).length, 4);
      assert.equal(notes.filter((n) => /refused a \d+-byte message \(request 10\)/.test(n)).length, 1);
      assert.equal(notes.filter((n) => /dropped a message that is no valid JSON-RPC 2\.0 request, response or notification; not answered$/.test(n)).length, 1);
    });
  }

  it('tells a request from a response or notification at the edges of a message', () => {
    assert.equal(sniffRequest('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"q":"', 'x"}}'), 1);
    assert.equal(sniffRequest('{"method":"tools/call","params":{"q":"', 'x"}},"jsonrpc":"2.0","id":"a"}'), 'a');
    assert.equal(sniffRequest('{"jsonrpc":"2.0","params":{"q":"', 'x"},"method":"tools/call","id":2}'), 2);
    assert.equal(sniffRequest('{"jsonrpc":"2.0","id":3,"result":{"method":"m","t":"', 'x"}}'), undefined);
    assert.equal(sniffRequest('{"result":{"t":"', 'x","method":"m"},"jsonrpc":"2.0","id":4}'), undefined);
    assert.equal(sniffRequest('{"jsonrpc":"2.0","method":"notifications/x","params":{"q":"', 'x"}}'), undefined);
  });

  it('finds the id at the start or the end of what it kept, and nowhere else', () => {
    assert.equal(sniffId('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"x":"', ''), 12);
    assert.equal(sniffId('{"method":"tools/call","params":{"q":"', 'xx"}},"jsonrpc":"2.0","id":"abc"}'), 'abc');
    // An "id" inside the params is not the message's.
    assert.equal(sniffId('{"method":"tools/call","params":{"id":3,"q":"', 'xx","id":4}}'), undefined);
    assert.equal(sniffId('{"method":"n","params":{"q":"', 'xx\\",\\"id\\":5}"}}'), undefined);
  });
});
