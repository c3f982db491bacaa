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
 * Files the Team Data Explorer opens (issue 27): the local service's explore routes read these
 * (server/explore/exploreFile.ts formatOf); package.json's custom editor and menus name the same.
 */
export const EXPLORE_FILE_PATTERN = /.\.(csv|tsv|parquet|jsonl|ndjson|xlsx|(csv|tsv|parquet|jsonl|ndjson|xlsx)\.gz)$/i;

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

/**
 * A file name's stem made of words (a question, a title): lower-case ASCII words joined by '-', as
 * many whole words as fit in `max` characters, so a name never ends in half a word (only a single
 * word longer than `max` is cut). '' when the text has no letters or digits.
 */
export function wordsSlug(text: string, max: number): string {
  const words = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[a-z0-9]+/g) ?? [];
  let out = '';
  for (const w of words) {
    const next = out === '' ? w : `${out}-${w}`;
    if (next.length > max) break;
    out = next;
  }
  return out === '' && words[0] !== undefined ? words[0].slice(0, max) : out;
}

/** File extensions of the VS Code languages an answer's code arrives in. */
const CODE_EXTENSIONS: Record<string, string> = {
  sql: 'sql', python: 'py', r: 'r', javascript: 'js', typescript: 'ts', json: 'json', yaml: 'yaml', shellscript: 'sh',
};

/**
 * The name of the editor tab "Open in Editor" opens for an answer's code: the question it answers
 * (`total-revenue-by-region.sql`), as "Open as CSV" names a table after it. Without a name VS
 * Code titles an untitled tab with the code's first line, cut anywhere ("-- Runs in DuckDB from the
 * folder that h").
 */
export function codeFileName(question: string, language: string): string {
  return `${wordsSlug(question, 60) || 'query'}.${CODE_EXTENSIONS[language] ?? 'txt'}`;
}
