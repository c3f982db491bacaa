/**
 * DuckDB values -> plain JS (JSON-safe) values. Query results leave the store as data the HTTP layer
 * can serialise and the engine can format without knowing DuckDB's value classes.
 */
import {
  DuckDBArrayValue, DuckDBDateValue, DuckDBDecimalValue, DuckDBListValue, DuckDBMapValue, DuckDBStructValue,
  DuckDBTimestampMillisecondsValue, DuckDBTimestampNanosecondsValue, DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue, DuckDBTimestampValue, DuckDBUnionValue, type DuckDBValue,
} from '@duckdb/node-api';

/** What {@link toPlain} produces. */
export type PlainValue = null | boolean | number | string | PlainValue[] | { [key: string]: PlainValue };

/** A BigInt as a number when that is exact, else as its decimal string (never silently rounded). */
export function plainBigInt(v: bigint): number | string {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/**
 * Microseconds since the epoch as ISO 8601. Naive TIMESTAMPs are wall-clock times, so they get no
 * zone suffix; TIMESTAMPTZ values are instants and are written in UTC with `Z`. Values outside the
 * JS Date range (or infinities) fall back to DuckDB's own text.
 */
function isoFromMicros(micros: bigint, zoned: boolean, fallback: string): string {
  const ms = Number(micros / 1000n);
  const d = new Date(ms);
  if (!Number.isFinite(ms) || Number.isNaN(d.getTime())) return fallback;
  const sub = Number(((micros % 1000n) + 1000n) % 1000n);
  let iso = d.toISOString().slice(0, -1);
  if (sub !== 0) iso += String(sub).padStart(3, '0');
  else if (iso.endsWith('.000')) iso = iso.slice(0, -4);
  return zoned ? `${iso}Z` : iso;
}

/** Converts one DuckDB value (recursively for nested types). */
export function toPlain(value: DuckDBValue): PlainValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return plainBigInt(value);
  if (value instanceof DuckDBDecimalValue) return value.toDouble();
  if (value instanceof DuckDBDateValue) return value.toString();
  if (value instanceof DuckDBTimestampTZValue) return isoFromMicros(value.micros, true, value.toString());
  if (value instanceof DuckDBTimestampValue) return isoFromMicros(value.micros, false, value.toString());
  if (value instanceof DuckDBTimestampMillisecondsValue) {
    return isoFromMicros(value.millis * 1000n, false, value.toString());
  }
  if (value instanceof DuckDBTimestampSecondsValue) return isoFromMicros(value.seconds * 1000000n, false, value.toString());
  if (value instanceof DuckDBTimestampNanosecondsValue) {
    return isoFromMicros(value.nanos / 1000n, false, value.toString());
  }
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) return value.items.map(toPlain);
  if (value instanceof DuckDBStructValue) {
    const out: { [key: string]: PlainValue } = {};
    for (const [k, v] of Object.entries(value.entries)) out[k] = toPlain(v);
    return out;
  }
  if (value instanceof DuckDBMapValue) {
    return value.entries.map((e) => ({ key: toPlain(e.key), value: toPlain(e.value) }));
  }
  if (value instanceof DuckDBUnionValue) return toPlain(value.value);
  // TIME, INTERVAL, UUID, BLOB, BIT, ...: DuckDB's text form is readable and lossless.
  return value.toString();
}
