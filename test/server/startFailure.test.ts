/**
 * The words a failed start of the shared service gives every client (daemon/startFailure.ts): the
 * cause and the fix, for each kind of failure a user can meet (some cannot be made for real here:
 * the tests run as root, whom permissions do not stop).
 */
import { strict as assert } from 'node:assert';
import { causeInLog, CANNOT_START, startFailureText } from '../../src/server/daemon/startFailure';

const errno = (code: string, path: string, message = `${code}: failed`): NodeJS.ErrnoException => Object.assign(new Error(message), { code, path });

describe('why a shared service could not start, in words', () => {
  it('names the program holding the data folder, with its pid and user, and the way out', () => {
    const text = startFailureText(new Error('the database /d/analysis.duckdb is in use by another process (is another local service running on this data directory?); DuckDB says: Conflicting lock is held in /usr/bin/python3.11 (PID 4242) by user ann. See also https://duckdb.org/docs/'), '/d');
    assert.match(text, /^the data folder \/d is in use by another program \(\/usr\/bin\/python3\.11, pid 4242, user ann\)/);
    assert.match(text, /Close that program, or choose another data folder \(the VS Code setting teamData\.localDataFolder, or --data-dir\)/);
  });

  it('says a full disk, missing permissions and a read-only disk plainly, with the path', () => {
    assert.match(startFailureText(errno('ENOSPC', '/d/meta/state.json'), '/d'), /^the disk holding \/d\/meta\/state\.json is full\. Free some space, or choose another data folder/);
    assert.match(startFailureText(errno('EACCES', '/d/service'), '/d'), /^permission denied on \/d\/service: this user may not write there\. Fix the folder's permissions, or choose/);
    assert.match(startFailureText(errno('EROFS', '/d'), '/d'), /^\/d is on a read-only file system\. Choose another data folder/);
    assert.match(startFailureText(new Error('IO Error: No space left on device'), '/d'), /^the disk holding \/d is full/);
  });

  it('finds the last cause a start printed in its log', () => {
    const log = `earlier\n${CANNOT_START}old cause\n2026 [info] starting\n${CANNOT_START}the disk holding /d is full.\n`;
    assert.equal(causeInLog(log), 'the disk holding /d is full.');
    assert.equal(causeInLog('nothing here\n'), undefined);
  });
});
