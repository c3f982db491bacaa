/**
 * File sizes for people: `812 B`, `4.2 kB`, `87 kB`, `300 MB`, `1.3 GB`. Decimal steps
 * (1 kB = 1000 B, 1 MB = 1,000,000 B), as the SI prefixes mean and as macOS Finder, GNOME Files,
 * `ls --si` and cloud storage show sizes: a 299,750,000-byte file is "300 MB" here too. (Binary
 * steps labelled MB said "286 MB" for it.) Three significant figures at most, so progress lines
 * and tooltips do not jitter between widths.
 */
const UNITS = ['kB', 'MB', 'GB', 'TB'] as const;
const STEP = 1000;

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '? B';
  if (n < STEP) return `${Math.round(n)} B`;
  let v = n / STEP;
  let i = 0;
  // 999.6 kB would print as "1000 kB": step up once the rounded figure reaches a thousand.
  while (Math.round(v) >= STEP && i < UNITS.length - 1) {
    v /= STEP;
    i++;
  }
  // 9.96 would print as "10.0": round first, then pick the precision.
  const shown = v < 9.95 ? v.toFixed(1) : String(Math.round(v));
  return `${shown} ${UNITS[i]}`;
}
