/**
 * Dates written 2/1/1980, 3/1/1980, ...: DuckDB's sniffer reads slashed dates day-first when every
 * value fits both orders, so a monthly series became the first twelve days of January. When the
 * sniffer chose day-first and every date column's values fit both orders, the field that never
 * changes is the day of the month (a monthly series is dated on the 1st): month-first is said to
 * DuckDB (`dateformat`), and the shown SQL says it too. When neither field is constant the sniffer's
 * choice stands, since nothing in the file tells them apart.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdent, quoteLiteral } from './sqlText';

const SAMPLE = 2000;

/** The month-first format to give DuckDB for this file, or undefined to keep what it sniffed. */
export async function monthFirstFormat(conn: DuckDBConnection, path: string, options: readonly string[]): Promise<string | undefined> {
  const args = [quoteLiteral(path), ...options].join(', ');
  const sniffed = String((await conn.runAndReadAll(`SELECT DateFormat FROM sniff_csv(${quoteLiteral(path)}${options.some((o) => o.startsWith('delim')) ? `, delim = '\\t'` : ''})`)).getRows()[0]?.[0] ?? '');
  const m = /^%d([/.-])%m\1%Y$/.exec(sniffed);
  if (m === null) return undefined;
  const sep = m[1] as string;
  const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_csv(${args})`)).getRows();
  const dates = described.filter((r) => String(r[1]) === 'DATE').map((r) => String(r[0]));
  if (dates.length === 0) return undefined;
  const raw = (await conn.runAndReadAll(`SELECT ${dates.map((d) => `CAST(${quoteIdent(d)} AS VARCHAR)`).join(', ')} FROM read_csv(${[quoteLiteral(path), ...options, 'all_varchar = true'].join(', ')}) LIMIT ${SAMPLE}`)).getRows();
  let monthFirst = false;
  for (let i = 0; i < dates.length; i++) {
    const firsts = new Set<string>();
    const seconds = new Set<string>();
    for (const row of raw) {
      const parts = String(row[i] ?? '').trim().split(sep);
      if (parts.length !== 3) continue;
      const [a, b] = [Number(parts[0]), Number(parts[1])];
      if (!(a >= 1 && a <= 12 && b >= 1 && b <= 12)) return undefined;
      firsts.add(String(a));
      seconds.add(String(b));
    }
    // A constant first field with a varying second one says day-first: leave the sniffer's choice.
    if (firsts.size === 1 && seconds.size > 1) return undefined;
    if (seconds.size === 1 && firsts.size > 1) monthFirst = true;
  }
  return monthFirst ? `%m${sep}%d${sep}%Y` : undefined;
}
