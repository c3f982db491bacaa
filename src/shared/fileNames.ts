/**
 * File names that arrive from a service are untrusted: they may hold path separators, `..`,
 * control characters, Windows device names or be absurdly long. {@link safeFileName} turns any
 * of them into one plain name component that is safe to join onto a folder on every platform.
 */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
const MAX_NAME_BYTES = 120;

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

function truncateUtf8(s: string, maxBytes: number): string {
  let out = '';
  for (const ch of s) {
    if (utf8Length(out + ch) > maxBytes) break;
    out += ch;
  }
  return out;
}

/**
 * Lower-case extension with the dot ('.csv'), or '' when there is none. A compressed file keeps
 * the extension of what it compresses ('x.csv.gz' -> '.csv.gz'), because that says how to read it.
 */
export function fileExtension(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return '';
  const ext = base.slice(dot).toLowerCase();
  if (ext !== '.gz') return ext;
  const inner = /(\.[A-Za-z0-9]{1,8})\.gz$/i.exec(base);
  return inner !== null && (inner.index ?? 0) > 0 ? `${(inner[1] ?? '').toLowerCase()}${ext}` : ext;
}

/** The CSV a file is converted to for a hosted service: `events.parquet`, `events.jsonl.gz` -> `events.csv`. */
export function convertedCsvName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/\.gz$/i, '').replace(/\.[^.]+$/, '');
  return `${base || 'data'}.csv`;
}

/**
 * One safe path component derived from `name`: separators and control characters replaced,
 * leading dots removed (no hidden files, no `..`), reserved device names prefixed, length bounded
 * while keeping the extension. Never returns an empty string.
 */
/** Control characters and the invisible marks that reorder text (right-to-left override and kin). */
export const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The last component of a path written with either separator (`../../x.csv` → `x.csv`). */
export function baseName(name: string): string {
  return name.split(/[\\/]/).filter((p) => p.length > 0).pop() ?? '';
}

export function safeFileName(name: string, fallback = 'file'): string {
  const lastComponent = name.split(/[\\/]/).filter((p) => p.length > 0).pop() ?? '';
  let s = lastComponent
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (s === '') s = fallback;
  const dot = s.lastIndexOf('.');
  const stem = dot > 0 ? s.slice(0, dot) : s;
  let ext = dot > 0 ? s.slice(dot) : '';
  if (utf8Length(ext) > 16) ext = '';
  const safeStem = WINDOWS_RESERVED.test(stem) ? `_${stem}` : stem;
  const room = MAX_NAME_BYTES - utf8Length(ext);
  return `${truncateUtf8(safeStem, room) || fallback}${ext}`;
}
