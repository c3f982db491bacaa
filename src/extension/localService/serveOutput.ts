/**
 * Reads what `team-data serve` prints. Its stdout carries `TEAM_DATA_BASE_URL=` and
 * `TEAM_DATA_API_KEY=` lines (see src/cli/serve.ts); the key line must never reach a log, so
 * classification happens before anything is written anywhere.
 */
export type ServeLine =
  | { kind: 'baseUrl'; url: string }
  /** The key echo: dropped on the floor (the supervisor made the key, it needs no copy). */
  | { kind: 'secret' }
  | { kind: 'text'; text: string };

/** Loopback hosts the supervisor accepts: anything else means the child is not ours to trust. */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export function classifyServeLine(line: string): ServeLine {
  const trimmed = line.replace(/\r$/, '');
  if (/^\s*TEAM_DATA_API_KEY\s*=/.test(trimmed)) return { kind: 'secret' };
  const m = /^\s*TEAM_DATA_BASE_URL\s*=\s*(\S+)\s*$/.exec(trimmed);
  if (m?.[1]) {
    const url = loopbackBaseUrl(m[1]);
    if (url !== undefined) return { kind: 'baseUrl', url };
  }
  return { kind: 'text', text: trimmed };
}

/** The URL without a trailing slash when it is plain http on loopback with a port, else undefined. */
export function loopbackBaseUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname) || url.port === '') return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  return url.href.replace(/\/+$/, '');
}

/** Log level of one stderr line of the service (`[warn] ...`), so the channel can filter. */
export function stderrLevel(line: string): { level: 'debug' | 'info' | 'warn' | 'error'; text: string } {
  const m = /^\[(debug|info|warn|error)\]\s?(.*)$/.exec(line);
  if (m?.[1] && m[2] !== undefined) return { level: m[1] as 'debug' | 'info' | 'warn' | 'error', text: m[2] };
  return { level: 'info', text: line };
}

/**
 * True when early stderr says the DuckDB native binding could not load (wrong platform, missing
 * prebuilt, old glibc). Restarting cannot fix that, so the supervisor stops and says so.
 */
export function looksLikeNativeLoadFailure(stderr: string): boolean {
  if (!/duckdb/i.test(stderr)) return false;
  return /(cannot find module|err_dlopen_failed|invalid elf|not a valid win32|glibc|was compiled against|cannot open shared object|no such file or directory|mach-o|wrong ELF class|node-api|napi)/i.test(stderr);
}
