import { strict as assert } from 'node:assert';
import { profileFigures } from '../../src/server/profile/profileFigures';
import { tableSection, type ColumnProfile } from '../../src/server/profile/profileSummary';

function numeric(name: string, min: string, max: string, mean: string): ColumnProfile {
  return { name, type: 'DOUBLE', cls: 'numeric', nonNull: 200, nulls: 0, distinct: 150, min, max, mean, top: null };
}

describe('profile figures read like the rest of the answer (issue 24)', () => {
  it('says years and ids as written, amounts with separators and cents, readings without float noise', () => {
    const text = tableSection({
      label: 'sales.csv', rowCount: 200, columnCount: 4, duplicateRows: 0,
      columns: [
        numeric('year', '2023', '2024', '2023.5'),
        numeric('order_id', '1000', '100199', '50599.5'),
        numeric('revenue', '0.3', '10060.3', '2514.4092037999903'),
        numeric('temp_max', '0.039388794567062804', '60.77015000000014', '30.1'),
      ],
    });
    assert.ok(text.includes('`year`: 2023 to 2024, mean 2023.5'), text);
    assert.ok(text.includes('`order_id`: 1000 to 100199, mean 50599.5'), text);
    assert.ok(text.includes('`revenue`: 0.30 to 10,060.30, mean 2,514.41'), text);
    assert.ok(text.includes('`temp_max`: 0.04 to 60.77, mean 30.10'), text);
  });

  it('keeps what is not a plain number as DuckDB wrote it', () => {
    assert.deepEqual(profileFigures({ name: 'big', min: '12345678901234567890', max: '12345678901234567891', mean: null }), { min: '12345678901234567890', max: '12345678901234567891', mean: '' });
    assert.deepEqual(profileFigures({ name: 'x', min: 'inf', max: '-1.5e3', mean: '1.5' }), { min: 'inf', max: '-1,500', mean: '1.50' });
  });
});
