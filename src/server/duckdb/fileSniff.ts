/**
 * Looks at the first bytes of a file before DuckDB does, so the user gets a precise reason ("this is
 * a ZIP archive", "UTF-16 text") instead of a parser error, and so UTF-16 text can be transcoded.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

export type TextEncodingGuess = 'utf-8' | 'utf-16le' | 'utf-16be';

export type Sniff =
  | { kind: 'empty' }
  | { kind: 'text'; encoding: TextEncodingGuess; /** Whether the first bytes are a byte-order mark. */ bom: boolean }
  | { kind: 'binary'; what: string };

const HEAD_BYTES = 64 * 1024;

/** Reads up to `n` bytes from the start of a file. */
export async function readHead(path: string, n = HEAD_BYTES): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

const MAGIC: Array<{ bytes: number[]; what: string }> = [
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a ZIP archive (for example an XLSX or DOCX file)' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Office document (for example an XLS or DOC file)' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
  { bytes: [0x1f, 0x8b], what: 'a gzip-compressed file' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x50, 0x41, 0x52, 0x31], what: 'a Parquet file' },
];

/** What a file's magic number says it is, if it is a well-known binary format. */
export function magicKind(head: Uint8Array): string | undefined {
  return MAGIC.find((m) => m.bytes.every((b, i) => head[i] === b))?.what;
}

/**
 * UTF-16 without a BOM shows up as NUL in every other byte of ASCII-heavy text; ordinary binary
 * data has NULs scattered evenly. Returns the byte order when the pattern is clear.
 */
function utf16WithoutBom(head: Uint8Array): TextEncodingGuess | undefined {
  const pairs = Math.floor(head.length / 2);
  if (pairs < 4) return undefined;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) evenZero++;
    if (head[i + 1] === 0) oddZero++;
  }
  if (oddZero > pairs * 0.4 && evenZero < pairs * 0.05) return 'utf-16le';
  if (evenZero > pairs * 0.4 && oddZero < pairs * 0.05) return 'utf-16be';
  return undefined;
}

/** Classifies a file from its head: empty, text (with encoding) or binary (with what it looks like). */
export function sniffHead(head: Uint8Array): Sniff {
  if (head.length === 0) return { kind: 'empty' };
  if (head[0] === 0xff && head[1] === 0xfe) return { kind: 'text', encoding: 'utf-16le', bom: true };
  if (head[0] === 0xfe && head[1] === 0xff) return { kind: 'text', encoding: 'utf-16be', bom: true };
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  const magic = magicKind(head);
  if (magic !== undefined) return { kind: 'binary', what: magic };
  const utf16 = utf16WithoutBom(head);
  if (utf16 !== undefined) return { kind: 'text', encoding: utf16, bom: false };
  let control = 0;
  for (const b of head) {
    if (b === 0) return { kind: 'binary', what: 'binary data (it contains NUL bytes)' };
    // Tab, LF, VT, FF, CR and ESC occur in real text files; other C0 controls almost never do.
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) control++;
  }
  if (control > head.length * 0.01) return { kind: 'binary', what: 'binary data (it contains control characters)' };
  return { kind: 'text', encoding: 'utf-8', bom };
}

/** True when a whole buffer is valid UTF-8. */
export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * windows-1252 bytes 0x80-0x9F (the rest is latin-1). Spelled out because Node 20's TextDecoder
 * treats the 'windows-1252' label as plain latin-1 and would turn `€` into a control character.
 * Unassigned bytes keep their latin-1 code point, as browsers do.
 */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Decodes windows-1252 bytes. Every byte sequence is valid, so this never fails. */
export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(bytes.length, start + CHUNK);
    const codes = new Array<number>(end - start);
    for (let i = start; i < end; i++) {
      const b = bytes[i] ?? 0;
      codes[i - start] = b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] ?? b) : b;
    }
    out += String.fromCharCode(...codes);
  }
  return out;
}

/** A streaming decoder for the encodings this module transcodes from. */
function streamDecoder(encoding: 'utf-16le' | 'utf-16be' | 'windows-1252'): (chunk?: Uint8Array) => string {
  if (encoding === 'windows-1252') return (chunk) => (chunk ? decodeWindows1252(chunk) : '');
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  return (chunk) => (chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode());
}

/**
 * Transcodes a file to UTF-8 in constant memory (streamed), dropping any BOM. DuckDB's readers then
 * see ordinary UTF-8 whatever the source encoding was. windows-1252 is the usual encoding of
 * "not UTF-8" files from spreadsheets on Windows (a superset of latin-1 for printable text).
 */
export async function transcodeToUtf8(
  src: string, dst: string, encoding: 'utf-16le' | 'utf-16be' | 'windows-1252', signal?: AbortSignal, gzip = false,
): Promise<void> {
  const decode = streamDecoder(encoding);
  const toUtf8 = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
      done(null, Buffer.from(decode(chunk), 'utf-8'));
    },
    flush(done: TransformCallback): void {
      done(null, Buffer.from(decode(), 'utf-8'));
    },
  });
  // A gzip source was checked (size, integrity) by gzipScan.ts before it gets here.
  if (gzip) await pipeline(createReadStream(src), createGunzip(), toUtf8, createWriteStream(dst), signal ? { signal } : {});
  else await pipeline(createReadStream(src), toUtf8, createWriteStream(dst), signal ? { signal } : {});
}
