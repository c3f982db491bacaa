/**
 * The columns of a table as its read's statistics describe them (the ingest's scan of a file read
 * in place), for the overview of a large file answered without the question index: names, types,
 * ranges, missing values, and every value of the text columns the statistics list in full.
 */
import type { IngestedTable } from '../engine';
import type { TableStats } from '../duckdb/scanStats';
import { quoteIdent } from '../duckdb/sqlText';
import { kindOf, nameTokens } from './columnNaming';
import type { ColumnMeta } from './types';
import { MAX_INDEXED_VALUES } from './valueIndex';

/**
 * Column metadata from scan statistics. Distinct counts are known only for text columns listed
 * completely; the others count as many (never unique: that needs an exact count).
 */
export function columnsFromStats(t: IngestedTable, stats: TableStats): ColumnMeta[] {
  return t.columns.map((c) => {
    const s = stats.columns.find((x) => x.name === c.name);
    const kind = kindOf(c.type);
    const nonNull = s?.nonNull ?? 0;
    const listed = s?.complete === true ? s.values : undefined;
    // Cut values are for showing: a question naming one is read by the full index instead.
    const matchable = listed !== undefined && s?.cut !== true;
    const meta: ColumnMeta = {
      name: c.name, type: c.type, kind, expr: quoteIdent(c.name), converted: false, tokens: nameTokens(c.name), nonNull,
      distinct: listed !== undefined ? listed.length : Math.max(nonNull, MAX_INDEXED_VALUES + 1), unique: false,
    };
    if (listed !== undefined && matchable && kind === 'text') meta.values = [...listed].sort();
    const lo = s?.min ?? null;
    const hi = s?.max ?? null;
    if (lo !== null && hi !== null) {
      meta.min = kind === 'numeric' ? Number(lo) : lo;
      meta.max = kind === 'numeric' ? Number(hi) : hi;
    }
    return meta;
  });
}
