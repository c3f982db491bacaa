/** Cells of DuckDB result rows (numbers may arrive as strings when they exceed 2^53) as plain values. */
export const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : 0);
export const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
