/**
 * Reads a Parquet file's footer (its Thrift-encoded table of contents) far enough to learn how many
 * schema elements, row groups and column chunks it declares, before DuckDB reads it. DuckDB's Thrift
 * reader sizes a list from its declared length before reading a single element: a footer of 866 KB
 * that declares 50,000,000 schema elements took 21 GB. As the ZIP check does for workbooks, the
 * declared sizes are checked against the bytes that could hold them and against fixed limits.
 *
 * No Thrift library ships with the service, and only list headers matter here, so this is a small
 * reader of Thrift's compact protocol that skips every value it does not need. It is bounded: each
 * step consumes at least one byte of a footer of bounded size, and nesting is capped.
 */
import { open } from 'node:fs/promises';
import { IngestError } from '../engine';
import { formatBytes } from '../../shared/byteSize';

/** Footer bytes read at most (a footer this big is beyond any table this service is meant for). */
export const MAX_PARQUET_FOOTER_BYTES = 64 * 1024 * 1024;
/** Schema elements (columns, plus the root and nested groups). */
export const MAX_PARQUET_SCHEMA_ELEMENTS = 100_000;
/** Column chunks over all row groups (columns x row groups); each costs DuckDB about 770 bytes. */
export const MAX_PARQUET_COLUMN_CHUNKS = 100_000;
/** Row groups; each costs DuckDB about 100 bytes, and with one column chunk about 900. */
export const MAX_PARQUET_ROW_GROUPS = 100_000;
/**
 * What reading the footer may cost DuckDB, estimated from every list it declares: DuckDB's Thrift
 * reader allocates each list whole from its declared length, so the entries, not the footer's
 * bytes, decide its memory. A footer within every count above could still add its lists up (and
 * nested lists of its own), so they share one budget: with DuckDB's own ~90 MB, about 250 MB.
 */
export const MAX_PARQUET_FOOTER_COST = 160 * 1024 * 1024;
/** Entries of any other list in the footer (key-value pairs, encodings, paths, ...). */
const MAX_LIST_ENTRIES = 1_000_000;
/** Nesting depth of structs, lists and maps; the format's own nest about ten deep. */
const MAX_DEPTH = 32;

/**
 * Bytes DuckDB 1.5 allocates per declared entry (peak RSS over 1,000,000 entries, rounded up):
 * schema element 445, row group 105, column chunk 765; of the other lists, key-value pairs 85 (the
 * largest struct), paths 35 (strings), encodings 7 (numbers). A list of lists holds vectors (24).
 */
const COST = { schemaElement: 480, rowGroup: 128, columnChunk: 800, struct: 96, binary: 40, list: 32, scalar: 8 } as const;
/** The footer's own bytes: a 50 MB footer of one string took DuckDB 144 MB (read, buffered, copied out). */
const FOOTER_BYTE_COST = 3;

export interface ParquetFooterSummary {
  footerBytes: number;
  schemaElements: number;
  rowGroups: number;
  columnChunks: number;
  /** DuckDB's estimated memory for reading the footer, in bytes (see MAX_PARQUET_FOOTER_COST). */
  cost: number;
}

/** Why a footer is refused: the words the ingest error uses. */
class FooterProblem extends Error {}

// Compact protocol types (the low nibble of a field header or list header).
const T_TRUE = 1;
const T_FALSE = 2;
const T_BYTE = 3;
const T_I16 = 4;
const T_I32 = 5;
const T_I64 = 6;
const T_DOUBLE = 7;
const T_BINARY = 8;
const T_LIST = 9;
const T_SET = 10;
const T_MAP = 11;
const T_STRUCT = 12;

/** Where a struct sits in the file's metadata: only these two have lists that are counted. */
type StructRole = 'file' | 'rowGroup' | 'other';

class CompactReader {
  private pos = 0;
  readonly summary: ParquetFooterSummary;

  constructor(private readonly buf: Buffer) {
    this.summary = { footerBytes: buf.length, schemaElements: 0, rowGroups: 0, columnChunks: 0, cost: buf.length * FOOTER_BYTE_COST };
  }

  private byte(): number {
    if (this.pos >= this.buf.length) throw new FooterProblem('its table of contents ends in the middle of an entry');
    return this.buf[this.pos++] as number;
  }

  /** An unsigned varint of at most 10 bytes (values past 2^53 lose precision, which is fine here). */
  private varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return value;
      scale *= 128;
    }
    throw new FooterProblem('its table of contents holds a number longer than ten bytes');
  }

  private skipBytes(n: number): void {
    if (n > this.buf.length - this.pos) throw new FooterProblem(`its table of contents declares a ${n}-byte value where ${this.buf.length - this.pos} bytes are left`);
    this.pos += n;
  }

  /** A list or set header: element type and declared count, checked against the bytes left. */
  private listHeader(): { type: number; count: number } {
    const h = this.byte();
    const count = h >> 4 === 15 ? this.varint() : h >> 4;
    // Every element takes at least one byte, so a larger count is a lie whatever the element type.
    if (count > this.buf.length - this.pos) throw new FooterProblem(`its table of contents declares a list of ${count.toLocaleString('en-US')} entries in ${(this.buf.length - this.pos).toLocaleString('en-US')} bytes`);
    return { type: h & 0x0f, count };
  }

  private skip(type: number, depth: number, role: StructRole = 'other'): void {
    switch (type) {
      case T_TRUE:
      case T_FALSE:
        return;
      case T_BYTE:
        this.skipBytes(1);
        return;
      case T_I16:
      case T_I32:
      case T_I64:
        this.varint();
        return;
      case T_DOUBLE:
        this.skipBytes(8);
        return;
      case T_BINARY:
        this.skipBytes(this.varint());
        return;
      case T_LIST:
      case T_SET:
        this.list(depth, () => undefined);
        return;
      case T_MAP: {
        const count = this.varint();
        if (count === 0) return;
        this.deeper(depth + 1);
        if (count * 2 > this.buf.length - this.pos) throw new FooterProblem(`its table of contents declares a map of ${count.toLocaleString('en-US')} entries in ${(this.buf.length - this.pos).toLocaleString('en-US')} bytes`);
        if (count > MAX_LIST_ENTRIES) throw new FooterProblem(`its table of contents declares a map of ${count.toLocaleString('en-US')} entries (at most ${MAX_LIST_ENTRIES.toLocaleString('en-US')})`);
        const kv = this.byte();
        this.spend(count * (costOf(kv >> 4) + costOf(kv & 0x0f)));
        for (let i = 0; i < count; i++) {
          this.element(kv >> 4, depth + 1);
          this.element(kv & 0x0f, depth + 1);
        }
        return;
      }
      case T_STRUCT:
        this.struct(depth + 1, role);
        return;
      default:
        throw new FooterProblem(`its table of contents holds an unknown value type (${type})`);
    }
  }

  /** A list element: booleans in lists take a byte each, unlike booleans in struct fields. */
  private element(type: number, depth: number, role: StructRole = 'other'): void {
    if (type === T_TRUE || type === T_FALSE) this.skipBytes(1);
    else this.skip(type, depth, role);
  }

  /**
   * Reads a list header, lets `seen` check the count, charges the entries (`each` bytes, or by their
   * type), then skips (or descends into) the elements. A list is a level of nesting as a struct is:
   * lists of lists recurse here as deeply as structs do.
   */
  private list(depth: number, seen: (count: number) => void, role: StructRole = 'other', each?: number): void {
    this.deeper(depth + 1);
    const { type, count } = this.listHeader();
    if (count > MAX_LIST_ENTRIES) throw new FooterProblem(`its table of contents declares a list of ${count.toLocaleString('en-US')} entries (at most ${MAX_LIST_ENTRIES.toLocaleString('en-US')})`);
    seen(count);
    this.spend(count * (each ?? costOf(type)));
    for (let i = 0; i < count; i++) this.element(type, depth + 1, role);
  }

  private deeper(depth: number): void {
    if (depth > MAX_DEPTH) throw new FooterProblem(`its table of contents nests more than ${MAX_DEPTH} levels deep (structs, lists and maps)`);
  }

  private spend(bytes: number): void {
    this.summary.cost += bytes;
    if (this.summary.cost > MAX_PARQUET_FOOTER_COST) throw new FooterProblem(`its table of contents declares more entries than this service reads: reading them would take DuckDB over ${formatBytes(MAX_PARQUET_FOOTER_COST)} of memory`);
  }

  struct(depth: number, role: StructRole): void {
    this.deeper(depth);
    let field = 0;
    for (;;) {
      const h = this.byte();
      if (h === 0) return;
      const type = h & 0x0f;
      const delta = h >> 4;
      // A zero delta means the field id follows as a zigzag varint.
      field = delta !== 0 ? field + delta : zigzag(this.varint());
      if (role === 'file' && field === 2 && type === T_LIST) {
        this.list(depth, (n) => {
          this.summary.schemaElements += n;
          if (this.summary.schemaElements > MAX_PARQUET_SCHEMA_ELEMENTS) throw new FooterProblem(`it declares ${n.toLocaleString('en-US')} schema elements (columns); this service reads at most ${MAX_PARQUET_SCHEMA_ELEMENTS.toLocaleString('en-US')}`);
        }, 'other', COST.schemaElement);
      } else if (role === 'file' && field === 4 && type === T_LIST) {
        this.list(depth, (n) => {
          this.summary.rowGroups += n;
          if (this.summary.rowGroups > MAX_PARQUET_ROW_GROUPS) throw new FooterProblem(`it declares ${this.summary.rowGroups.toLocaleString('en-US')} row groups; this service reads at most ${MAX_PARQUET_ROW_GROUPS.toLocaleString('en-US')}`);
        }, 'rowGroup', COST.rowGroup);
      } else if (role === 'rowGroup' && field === 1 && type === T_LIST) {
        this.list(depth, (n) => {
          this.summary.columnChunks += n;
          if (this.summary.columnChunks > MAX_PARQUET_COLUMN_CHUNKS) throw new FooterProblem(`it declares more than ${MAX_PARQUET_COLUMN_CHUNKS.toLocaleString('en-US')} column chunks (columns times row groups); this service reads at most that many`);
        }, 'other', COST.columnChunk);
      } else {
        this.skip(type, depth);
      }
    }
  }
}

/** What one entry of a list of `type` costs DuckDB when the list is not one of the counted ones. */
function costOf(type: number): number {
  if (type === T_STRUCT) return COST.struct;
  if (type === T_BINARY) return COST.binary;
  if (type === T_LIST || type === T_SET || type === T_MAP) return COST.list;
  return COST.scalar;
}

function zigzag(n: number): number {
  return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
}

/** Summary of a footer held in memory; throws a plain Error saying what is wrong with it. */
export function summarizeParquetFooter(footer: Buffer): ParquetFooterSummary {
  const r = new CompactReader(footer);
  try {
    r.struct(1, 'file');
  } catch (err) {
    if (err instanceof FooterProblem) throw new Error(err.message);
    // Nothing else is expected (nesting is capped, every read is bounds-checked); if it happens,
    // it still says which part failed rather than surfacing as an unexplained error.
    throw new Error(`its table of contents could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
  return r.summary;
}

/**
 * Reads the footer of the Parquet file at `path` (size `size`, already known to start and end with
 * `PAR1`) and throws an {@link IngestError} when its declared sizes are impossible or over the limits.
 */
export async function checkParquetFooter(path: string, size: number, fileName: string): Promise<ParquetFooterSummary> {
  const fh = await open(path, 'r');
  try {
    const tail = Buffer.alloc(8);
    await fh.read(tail, 0, 8, size - 8);
    const length = tail.readUInt32LE(0);
    // The file is `PAR1`, the data, the footer, its 4-byte length and `PAR1`.
    if (length > size - 12) throw new IngestError(`${fileName} is damaged: its table of contents claims ${length.toLocaleString('en-US')} bytes of a ${size.toLocaleString('en-US')}-byte file; export it as Parquet again`);
    if (length > MAX_PARQUET_FOOTER_BYTES) throw new IngestError(`${fileName} has a table of contents of ${formatBytes(length)}, more than this service reads (${formatBytes(MAX_PARQUET_FOOTER_BYTES)}); write it with fewer row groups or columns, or use CSV`);
    const footer = Buffer.alloc(length);
    await fh.read(footer, 0, length, size - 8 - length);
    try {
      return summarizeParquetFooter(footer);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new IngestError(`${fileName} was refused before reading: ${why} (is it damaged, or made to exhaust memory?); export it as Parquet again, or use CSV`);
    }
  } finally {
    await fh.close();
  }
}
