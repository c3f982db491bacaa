import { strict as assert } from 'node:assert';
import { formatBytes } from '../../src/shared/byteSize';

describe('formatBytes', () => {
  it('shows bytes below one KB as whole bytes', () => {
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(1023), '1023 B');
  });

  it('uses binary steps with one decimal below ten and none from ten up', () => {
    assert.equal(formatBytes(1024), '1.0 KB');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(87 * 1024), '87 KB');
    assert.equal(formatBytes(1024 * 1024), '1.0 MB');
    assert.equal(formatBytes(1074318614), '1.0 GB');
    assert.equal(formatBytes(5 * 1024 ** 4), '5.0 TB');
  });

  it('never prints "10.0": a value that rounds up to ten loses its decimal', () => {
    assert.equal(formatBytes(9.96 * 1024), '10 KB');
    assert.equal(formatBytes(9.94 * 1024), '9.9 KB');
  });

  it('stays in TB for sizes past the last unit and marks nonsense as unknown', () => {
    assert.equal(formatBytes(2048 * 1024 ** 4), '2048 TB');
    assert.equal(formatBytes(-1), '? B');
    assert.equal(formatBytes(Number.NaN), '? B');
  });
});
