/**
 * Small readers for untrusted JSON. Service payloads and request bodies are `unknown` until one
 * of these has checked them; a failure names the field so error messages can say what was wrong.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export class WireFormatError extends Error {
  readonly field: string;
  constructor(field: string, expected: string) {
    super(`${field}: expected ${expected}`);
    this.name = 'WireFormatError';
    this.field = field;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw new WireFormatError(field, 'an object');
  return value;
}

export function asArray(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new WireFormatError(field, 'an array');
  return value;
}

/** A string; numbers are accepted and stringified because ids arrive either way in the wild. */
export function readString(o: Record<string, unknown>, key: string, field = key): string {
  const v = o[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw new WireFormatError(field, 'a string');
}

export function readOptionalString(o: Record<string, unknown>, key: string, field = key): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  return readString(o, key, field);
}

export function readInteger(o: Record<string, unknown>, key: string, field = key): number {
  const v = o[key];
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  throw new WireFormatError(field, 'an integer');
}

export function readOptionalInteger(o: Record<string, unknown>, key: string, field = key): number | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  return readInteger(o, key, field);
}

/** First key present among spellings; lets one decoder accept both `expiredAt` and `expires_at`. */
export function pick(o: Record<string, unknown>, ...keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) return o[k];
  return undefined;
}

/** JSON.parse that returns `undefined` instead of throwing. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
