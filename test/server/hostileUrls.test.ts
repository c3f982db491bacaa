/**
 * `url` data sources never reach this machine, link-local (cloud metadata) or private addresses
 * without the opt-in: in any spelling, through DNS, or through a redirect; credentials in the URL
 * are never sent. A server on 127.0.0.1 counts what actually reached it. Prints targets tried /
 * fetched (target 0 without the opt-in).
 */
import { strict as assert } from 'node:assert';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { refusal } from '../../src/server/ingest/urlPolicy';
import { eventually, startHarness, USER, type Harness } from '../helpers/serverHarness';

type Rec = Record<string, unknown>;

async function settle(h: Harness, url: string): Promise<Rec> {
  const datasetId = ((await h.call('POST', '/v1/team/datasets', { name: 'urls', description: '' })).json?.data as Rec)['id'] as string;
  const created = await h.call('POST', `/v1/team/datasets/${datasetId}/datasources?userId=${USER}`, { fileName: 'data.csv', type: 'FILE', url });
  assert.equal(created.json?.code, 0, created.text);
  const id = (created.json?.data as Rec)['id'] as string;
  return eventually(async () => {
    const s = (await h.call('GET', `/v1/team/datasets/${datasetId}/datasources/${id}`)).json?.data as Rec;
    return s['status'] === 'synched' || (s['status'] === 'invalid' && s['error'] !== undefined) ? s : undefined;
  }, `the source from ${url} to settle`);
}

describe('local service: url data sources and SSRF (issue 12)', function () {
  this.timeout(120_000);
  let server: Server;
  let port: number;
  const hits: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

  before(async () => {
    server = createServer((req, res) => {
      hits.push({ url: req.url ?? '', headers: req.headers });
      if (req.url === '/redirect-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/csv' }).end('a,b\n1,2\n3,4\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('refuses loopback in every spelling, link-local, private and multicast targets without the opt-in', async () => {
    const h = await startHarness();
    try {
      const targets = [
        `http://127.0.0.1:${port}/a.csv`, `http://localhost:${port}/a.csv`, `http://127.1:${port}/a.csv`, `http://0x7f000001:${port}/a.csv`,
        `http://2130706433:${port}/a.csv`, `http://017700000001:${port}/a.csv`, `http://[::1]:${port}/a.csv`, `http://[::ffff:127.0.0.1]:${port}/a.csv`,
        `http://0.0.0.0:${port}/a.csv`, `http://user:secret@127.0.0.1:${port}/a.csv`, `http://localhost.:${port}/a.csv`,
        'http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/a.csv', 'http://10.0.0.1/a.csv', 'http://192.168.1.1/a.csv',
        'http://172.16.0.1/a.csv', 'http://[fd00::1]/a.csv', 'http://224.0.0.1/a.csv', 'http://100.64.0.1/a.csv',
        `http://[::ffff:0:127.0.0.1]:${port}/a.csv`, `http://[64:ff9b::127.0.0.1]:${port}/a.csv`, 'http://[::ffff:0:169.254.169.254]/a.csv',
      ];
      let fetched = 0;
      for (const t of targets) {
        const before = hits.length;
        const s = await settle(h, t);
        if (s['status'] === 'synched' || hits.length > before) fetched++;
        assert.equal(s['status'], 'invalid', t);
        // `localhost.` may not resolve at all here; everything else is refused by address.
        assert.match(String(s['error']), /not fetched: .*(this machine or a private network|link-local)|ENOTFOUND/, `${t}: ${String(s['error'])}`);
      }
      console.log(`      SSRF: ${targets.length} targets tried / ${fetched} fetched (target 0)`);
      assert.equal(fetched, 0);
      assert.equal(hits.length, 0, 'nothing reached the server on 127.0.0.1');
    } finally {
      await h.stop();
    }
  });

  it('with private networks allowed: fetches, never sends URL credentials, and still refuses a redirect to link-local', async () => {
    const h = await startHarness({ allowPrivateNetworks: true });
    try {
      hits.length = 0;
      const ok = await settle(h, `http://user:secret@127.0.0.1:${port}/a.csv`);
      assert.equal(ok['status'], 'synched', JSON.stringify(ok));
      assert.equal(hits.length, 1);
      assert.equal(hits[0]?.headers.authorization, undefined, 'credentials were not forwarded');
      const meta = await settle(h, `http://127.0.0.1:${port}/redirect-metadata`);
      assert.match(String(meta['error']), /not fetched: 169\.254\.169\.254 is a link-local/);
      const stored = await readFile(join(h.dataDir, 'meta', 'state.json'), 'utf8');
      assert.ok(stored.includes(`127.0.0.1:${port}/a.csv`) && !stored.includes('secret'), 'the URL is stored without its password');
    } finally {
      await h.stop();
    }
  });
});

describe('URL policy: IPv4 carried in IPv6 (issue 25, item 9)', () => {
  const strict = { allowPrivateNetworks: false };
  const open = { allowPrivateNetworks: true };

  it('classifies an IPv6 address by the IPv4 address it carries, in every embedding', () => {
    const loopback = [
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::127.0.0.1', // mapped, compatible
      '::ffff:0:127.0.0.1', '::ffff:0:7f00:1', '0:0:0:0:ffff:0:127.0.0.1', // translated (SIIT)
      '64:ff9b::127.0.0.1', '64:ff9b::7f00:1', // NAT64
      '2002:7f00:1::1', // 6to4
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 stored inverted
      '2001:0:c0a8:101::f7f7:f7f7', // Teredo, server 192.168.1.1 (client 8.8.8.8)
    ];
    for (const a of loopback) {
      assert.match(refusal(a, strict) ?? 'fetched', /on this machine or a private network/, a);
      assert.equal(refusal(a, open), undefined, `${a} with private networks allowed`);
    }
    for (const a of ['::ffff:0:169.254.169.254', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::', '::ffff:0:0.0.0.0', '::ffff:0:224.0.0.1']) {
      assert.match(refusal(a, open) ?? 'fetched', /link-local, multicast or reserved/, a);
    }
    for (const a of ['64:ff9b:1::1', 'fec0::1']) assert.match(refusal(a, strict) ?? 'fetched', /private network/, a);
    // Public addresses stay fetchable, in each embedding too.
    for (const a of ['2606:4700::1111', '::ffff:0:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '8.8.8.8']) assert.equal(refusal(a, strict), undefined, a);
  });
});
