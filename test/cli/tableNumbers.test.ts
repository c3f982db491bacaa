/**
 * The CLI prints a result table's numbers as the panel shows them (issue 24, points 1 and 2): per
 * column, amounts with thousands separators and the column's decimals, years and ids as written,
 * measurements to four significant digits with a mark when rounded. It printed the CSV's raw
 * floats ("60.77015000000014", "250128206.98"). The saved file keeps the exact values.
 */
import { strict as assert } from 'node:assert';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { AnswerPrinter } from '../../src/cli/answerPrinter';
import { shownTable } from '../../src/cli/tableCells';

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

const CSV = [
  'region,year,order_id,revenue,share_pct,temp_mean',
  'Europe,2023,1120,250128206.98,45.51,60.77015000000014',
  'Asia,2024,1121,1200,3.2,58.1',
  'Americas,2024,1122,17832.749999999993,51.29,61.5',
].join('\n');

describe('CLI: result tables show numbers as the panel does', () => {
  it('names a missing group key "(missing)" as the text and chart do, not a blank cell (issue 24 walk)', () => {
    const { rows } = shownTable([['channel', 'avg_discount'], ['partner', '0.04804'], ['', '0.03889'], ['online', '']]);
    assert.deepEqual(rows.slice(1).map((r) => r[0]), ['partner', '(missing)', 'online']);
    assert.equal(rows[3]?.[1], '(missing)');
    // A profile's blanks mean "does not apply" (no minimum of a text column): they stay blank.
    const profile = shownTable([['column_name', 'column_type', 'min_value', 'max_value', 'mean_value', 'top_values'], ['region', 'VARCHAR', '', '', '', 'Asia (2)']]);
    assert.deepEqual(profile.rows[1], ['region', 'VARCHAR', '', '', '', 'Asia (2)']);
  });

  it('formats each column by its kind and marks the rounded values', () => {
    const { rows, rounded } = shownTable(CSV.split('\n').map((l) => l.split(',')));
    assert.deepEqual(rows, [
      ['region', 'year', 'order_id', 'revenue', 'share_pct', 'temp_mean'],
      ['Europe', '2023', '1120', '250,128,206.98', '≈45.5', '≈60.77'],
      ['Asia', '2024', '1121', '1,200.00', '3.2', '58.10'],
      ['Americas', '2024', '1122', '17,832.75', '≈51.3', '61.50'],
    ]);
    assert.equal(rounded, true);
    // A profile table styles each row's figures by the column it describes (year 2023 to 2024, mean 2023.5).
    const profile = shownTable([['column_name', 'min_value', 'max_value', 'mean_value'], ['year', '2023', '2024', '2023.5'], ['revenue', '25', '10060.3', '3500.123456']]);
    assert.deepEqual(profile.rows.slice(1), [['year', '2023', '2024', '2023.5'], ['revenue', '25.00', '10,060.30', '≈3,500.12']]);
    // Text and mixed columns stay as written.
    assert.deepEqual(shownTable([['code', 'n'], ['02134', 'x'], ['7', '3']]).rows.slice(1), [['02134', 'x'], ['7', '3']]);
  });

  describe('the printer', () => {
    let server: Server;
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'td-table-'));
      server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.end(CSV);
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
    });
    after(async () => {
      server.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('prints the table formatted and aligned, says what is rounded, and saves the exact values', async () => {
      const out = new Sink();
      const printer = new AnswerPrinter({ out, err: new Sink(), saveDir: dir });
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/revenue.csv`;
      printer.handle({ kind: 'BLOCK', block: { type: 'TABLE', content: { url, name: 'revenue.csv' }, groupId: '1', stage: 'Respond' } });
      await printer.flush();
      const lines = out.text.split('\n');
      assert.match(lines[0] ?? '', /^Table: revenue\.csv \(3 rows, saved to /);
      assert.equal(lines[1], 'region    year  order_id         revenue  share_pct  temp_mean');
      assert.equal(lines[3], 'Europe    2023      1120  250,128,206.98      ≈45.5     ≈60.77');
      assert.equal(lines[4], 'Asia      2024      1121        1,200.00        3.2      58.10');
      assert.equal(lines[5], 'Americas  2024      1122       17,832.75      ≈51.3      61.50');
      assert.equal(lines[6], '(≈ rounded as shown; the saved file has the exact values)');
      assert.doesNotMatch(out.text, /60\.77015|250128206\.98/);
      assert.equal(printer.saved.length, 1);
      assert.equal(await readFile(printer.saved[0] ?? '', 'utf8'), CSV);
    });
  });
});
