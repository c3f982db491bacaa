/**
 * File sizes for people: `812 B`, `4.2 KB`, `87 KB`, `1.3 GB`. Binary steps (1 KB = 1024 B, as
 * file managers on most systems show them), three significant figures at most, so progress lines
 * and tooltips do not jitter between widths.
 */
const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '? B';
  if (n < 1024) return `${Math.round(n)} B`;
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  // 9.96 would print as "10.0": round first, then pick the precision.
  const shown = v < 9.95 ? v.toFixed(1) : String(Math.round(v));
  return `${shown} ${UNITS[i]}`;
}
