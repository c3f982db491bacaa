import { strict as assert } from 'node:assert';
import { formatBytes } from '../../src/shared/byteSize';

describe('formatBytes', () => {
  it('shows bytes below one kB as whole bytes', () => {
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(999), '999 B');
  });

  it('uses decimal steps, as its labels mean (issue 24: a 299.75 MB file was labelled "286 MB")', () => {
    assert.equal(formatBytes(299_750_000), '300 MB');
    assert.equal(formatBytes(150_000_000), '150 MB');
    assert.equal(formatBytes(1000), '1.0 kB');
    assert.equal(formatBytes(1500), '1.5 kB');
    assert.equal(formatBytes(87_000), '87 kB');
    assert.equal(formatBytes(1_000_000), '1.0 MB');
    assert.equal(formatBytes(1024 ** 3), '1.1 GB');
    assert.equal(formatBytes(5e12), '5.0 TB');
  });

  it('never prints "10.0" or "1000": a value that rounds up takes the next width or unit', () => {
    assert.equal(formatBytes(9960), '10 kB');
    assert.equal(formatBytes(9940), '9.9 kB');
    assert.equal(formatBytes(999_600), '1.0 MB');
    assert.equal(formatBytes(999_400), '999 kB');
  });

  it('stays in TB for sizes past the last unit and marks nonsense as unknown', () => {
    assert.equal(formatBytes(2048e12), '2048 TB');
    assert.equal(formatBytes(-1), '? B');
    assert.equal(formatBytes(Number.NaN), '? B');
  });
});
