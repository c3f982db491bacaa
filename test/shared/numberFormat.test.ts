import { strict as assert } from 'node:assert';
import { columnStyle, formatAs, formatNumber, formatPercent, isRounded, numberKind, styleFor } from '../../src/shared/numberFormat';

/** A column's values as shown, `≈` marking the rounded ones. */
function shown(name: string, values: number[]): string[] {
  const style = columnStyle(name, values);
  return values.map((v) => `${isRounded(v, style) ? '≈' : ''}${formatAs(v, style)}`);
}

describe('one number format for prose, tables and profiles', () => {
  it('chooses the kind from the column name and values', () => {
    assert.equal(numberKind('year', [2023, 2024]), 'year');
    assert.equal(numberKind('order_date_year', [2023]), 'year');
    assert.equal(numberKind('year', [1, 2]), 'amount', 'a "year" column that holds no years is counted');
    assert.equal(numberKind('order_id', [1120]), 'id');
    assert.equal(numberKind('customerId', [7]), 'id');
    assert.equal(numberKind('id_count', [7]), 'amount', 'the last word says what a value is');
    assert.equal(numberKind('valid', [1]), 'amount', '"valid" ends in letters "id" but is not an id');
    // The engine's measure columns: a count of ids or a sum of years is an amount; a minimum year is a year.
    assert.equal(numberKind('distinct_customer_id', [1234]), 'amount');
    assert.equal(numberKind('year_count', [3]), 'amount');
    assert.equal(numberKind('total_year', [4047]), 'amount');
    assert.equal(numberKind('min_year', [2023]), 'year');
    assert.equal(numberKind('max_order_id', [1199]), 'id');
    assert.equal(numberKind('missing_pct', [12.5]), 'share');
    assert.equal(numberKind('pct_of_total', [12.5]), 'share');
    assert.equal(numberKind('total_revenue', [250128206.98]), 'amount');
    assert.equal(numberKind('temp_mean', [60.77015000000014]), 'measurement');
    assert.equal(numberKind('temp_max', [12.5, 13.25]), 'amount', 'values with cents at most read as amounts');
  });

  it('shows amounts with thousands separators and the column\'s decimals, trailing zeros kept', () => {
    assert.deepEqual(shown('total_revenue', [250128206.98, 10060.3, 99]), ['250,128,206.98', '10,060.30', '99.00']);
    assert.deepEqual(shown('orders', [1200, 31]), ['1,200', '31']);
    assert.deepEqual(shown('revenue', [14.99000000000008, 17832.749999999993]), ['14.99', '17,832.75'], 'float noise is not a rounding');
  });

  it('never shows a rounded value as exact: the mark tells', () => {
    const style = columnStyle('total', [250128206.98, 1.5]);
    assert.equal(isRounded(250128206.98, style), false);
    // Issue 24: 250,128,206.98 was shown as "250128207.0", rounded to ten digits without a sign.
    assert.equal(isRounded(250128206.98, styleFor('amount', [1.5])), false);
    assert.equal(isRounded(250128206.987, style), true);
  });

  it('keeps years and ids as written, without thousands separators', () => {
    assert.deepEqual(shown('year', [2023, 2024]), ['2023', '2024']);
    assert.equal(formatAs(2023.5, styleFor('year', [2023.5])), '2023.5');
    assert.deepEqual(shown('order_id', [1120, 100226]), ['1120', '100226']);
  });

  it('shows measurements and shares to four significant digits, percents to one decimal', () => {
    assert.deepEqual(shown('temp_mean', [60.77015000000014, 12.3]), ['≈60.77', '12.30']);
    assert.deepEqual(shown('correlation', [0.039388794567062804, 0.051]), ['≈0.03939', '0.05100']);
    assert.deepEqual(shown('missing_pct', [12.5, 0, 33.3333333]), ['12.5', '0.0', '≈33.3']);
    assert.deepEqual(shown('v', [-0.0001, 12.3]), ['≈0.00', '12.30'], 'no "-0.00"');
  });

  it('formats a number on its own in prose as an amount column would', () => {
    assert.equal(formatNumber(10060.3), '10,060.30', 'as the table shows it (the issue: prose had "10,060.3")');
    assert.equal(formatNumber(1204), '1,204');
    assert.equal(formatNumber(2514.4092037999903), '2,514.41');
    assert.equal(formatNumber(0.039388794567062804), '0.03939');
    assert.equal(formatNumber(0.5), '0.5');
    assert.equal(formatNumber(Number.NaN), 'NaN');
    assert.equal(formatPercent(45.53), '45.5%');
    assert.equal(formatPercent(12), '12%');
  });
});
