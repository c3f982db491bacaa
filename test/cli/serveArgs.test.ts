/**
 * The shared service's command line: the extension's machine setting
 * teamData.localService.readHardLinks reaches `serve --shared` as `--read-hard-links`, and nothing
 * else adds it. Without it, in-place files with other hard links (DVC's cache) were always refused
 * while the refusal told the user to pass the flag. A stand-in CLI records its argv, so no service
 * is built or started.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveArgs } from '../../src/cli/serviceAttach';
import { LocalServiceSupervisor } from '../../src/extension/localService/supervisor';

describe('the shared service\'s command line (--read-hard-links)', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'td-serve-args-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('adds --read-hard-links only when asked', () => {
    const o = { cliPath: '/x/cli.js', dataDir: '/d' };
    assert.deepEqual(serveArgs(o, ['/w']), ['/x/cli.js', 'serve', '--shared', '--data-dir', '/d', '--read-root', '/w']);
    assert.deepEqual(serveArgs({ ...o, readHardLinks: false }, []), ['/x/cli.js', 'serve', '--shared', '--data-dir', '/d']);
    assert.deepEqual(serveArgs({ ...o, readHardLinks: true }, ['/w']), ['/x/cli.js', 'serve', '--shared', '--data-dir', '/d', '--read-root', '/w', '--read-hard-links']);
  });

  for (const on of [true, false]) {
    it(`the supervisor starts the service ${on ? 'with' : 'without'} it as its setting says`, async () => {
      // Records its argv and exits: the start fails, which is all this needs.
      const argvFile = join(dir, `argv-${String(on)}.json`);
      const fakeCli = join(dir, `recordingCli-${String(on)}.js`);
      writeFileSync(fakeCli, `require('node:fs').writeFileSync(${JSON.stringify(argvFile)}, JSON.stringify(process.argv.slice(2))); process.exit(1);\n`);
      const s = new LocalServiceSupervisor({
        cliPath: fakeCli, dataDir: () => join(dir, `data-${String(on)}`), version: 'test', nodePath: process.execPath,
        readRoots: () => ['/w'], readHardLinks: () => on, log: () => undefined,
        healthCheck: async () => undefined, backoff: { baseMs: 50, maxMs: 200 }, maxConsecutiveFailures: 1,
      });
      try {
        await assert.rejects(s.ensureStarted());
      } finally {
        await s.stop();
      }
      const argv = JSON.parse(readFileSync(argvFile, 'utf8')) as string[];
      assert.deepEqual(argv.slice(0, 2), ['serve', '--shared']);
      assert.equal(argv.includes('--read-hard-links'), on, JSON.stringify(argv));
    });
  }
});
