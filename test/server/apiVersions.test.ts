/**
 * A local service serving one API version behaves like a service that dropped the other: the
 * dropped version's paths answer 404 with the envelope, the served one works. (The extension's
 * Sign In uses such a service to show it names the version to pick.)
 */
import { strict as assert } from 'node:assert';
import { parseCli } from '../../src/cli/args';
import { startHarness } from '../helpers/serverHarness';

describe('local service: the API versions it serves', function () {
  this.timeout(60_000);

  it('serving only v2, v1 paths answer "not found" and v2 paths work', async () => {
    const h = await startHarness({ apiVersions: ['v2'] });
    try {
      const v1 = await h.call('GET', '/v1/team/sessions?userId=u1');
      assert.equal(v1.status, 404);
      assert.equal(typeof v1.json?.code, 'number');
      const v2 = await h.call('GET', '/v2/team/sessions?user_id=u1');
      assert.equal(v2.status, 200, v2.text);
      assert.equal(v2.json?.code, 0);
      const init = await h.call('POST', '/v1/team/file/init-multipart-upload', { file_name: 'a.csv', file_size: 10, user_id: 'u1' });
      assert.equal(init.status, 404);
    } finally {
      await h.stop();
    }
  });

  it('serve takes --api-versions and refuses anything but v1 and v2', () => {
    const args = parseCli(['serve', '--api-versions', 'v2'], {});
    assert.deepEqual(args.command === 'serve' ? args.apiVersions : undefined, ['v2']);
    assert.throws(() => parseCli(['serve', '--api-versions', 'v3'], {}), /--api-versions takes v1, v2 or v1,v2/);
  });
});
