/**
 * `team-data convert FILE --out FILE.csv`: one file to CSV with DuckDB. Progress goes to stdout as
 * one JSON object per line (`{"phase":"converting","fraction":0.42}`, then `{"done":true,"rows":N}`),
 * so the extension can show it and a script can ignore it; failures end as one line on stderr.
 */
import type { Writable } from 'node:stream';
import { convertToCsv, type ConvertPhase } from '../server/duckdb/csvConvert';
import type { ConvertArgs } from './args';

/** One progress line as the extension reads it back (src/extension/flows/csvConversion.ts). */
export type ConvertLine = { phase: ConvertPhase; fraction?: number } | { done: true; rows: number };

export async function convert(args: ConvertArgs, out: Writable, signal: AbortSignal): Promise<number> {
  const write = (line: ConvertLine): void => {
    out.write(`${JSON.stringify(line)}\n`);
  };
  let last = -1;
  const { rows } = await convertToCsv(args.input, args.out, {
    signal,
    onProgress: (phase, fraction) => {
      // Whole percents only: DuckDB's progress ticks every 250 ms, the reader needs no more.
      const pct = fraction === undefined ? -1 : Math.floor(fraction * 100);
      if (pct === last) return;
      last = pct;
      write(fraction === undefined ? { phase } : { phase, fraction: pct / 100 });
    },
  });
  write({ done: true, rows });
  return 0;
}
