/**
 * The real files as plain records, read here in the test with its own small parsers (not the
 * engine's), so expected answers are computed independently of what the engine reads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Rec = Record<string, string>;
export type JsonRec = Record<string, unknown>;

/** RFC 4180 records: quoted fields, doubled quotes, CRLF or LF. Header names are trimmed of quotes. */
export function parseDelimited(text: string, delim = ','): Rec[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delim) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  const [header = [], ...data] = rows.filter((r) => r.length > 1 || (r[0] ?? '') !== '');
  return data.map((r) => Object.fromEntries(header.map((h, i) => [h.trim(), r[i] ?? ''])));
}

/** A cell as a number, or null when blank or not a number. */
export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  return Number(t);
}

export class RealFiles {
  private readonly cache = new Map<string, unknown>();

  constructor(readonly dir: string) {}

  csv(file: string, delim = ','): Rec[] {
    const hit = this.cache.get(file);
    if (hit !== undefined) return hit as Rec[];
    const recs = parseDelimited(readFileSync(join(this.dir, file), 'utf-8'), delim);
    this.cache.set(file, recs);
    return recs;
  }

  json(file: string): JsonRec[] {
    const hit = this.cache.get(file);
    if (hit !== undefined) return hit as JsonRec[];
    const parsed: unknown = JSON.parse(readFileSync(join(this.dir, file), 'utf-8'));
    const recs = (Array.isArray(parsed) ? parsed : [parsed]) as JsonRec[];
    this.cache.set(file, recs);
    return recs;
  }
}
