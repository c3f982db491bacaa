/**
 * Tiny type-guard combinators for the panel protocol. Each guard answers "is this unknown value
 * exactly of type T?" without throwing, so a garbled message is dropped instead of half-trusted.
 * Extra object keys are ignored (the webview reads only the keys it knows); missing or mistyped
 * keys, out-of-range numbers, oversized strings and arrays fail.
 */
export type Guard<T> = (value: unknown) => value is T;

type GuardedBy<G> = G extends Guard<infer T> ? T : never;
type Shape = Record<string, Guard<unknown>>;
export type FromShape<R extends Shape, O extends Shape> = { [K in keyof R]: GuardedBy<R[K]> } & {
  [K in keyof O]?: GuardedBy<O[K]>;
};

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(maxLength: number, pattern?: RegExp): Guard<string> {
  return (v): v is string => typeof v === 'string' && v.length <= maxLength && (!pattern || pattern.test(v));
}

export function int(min: number, max: number): Guard<number> {
  return (v): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

export function finite(): Guard<number> {
  return (v): v is number => typeof v === 'number' && Number.isFinite(v);
}

export const bool: Guard<boolean> = (v): v is boolean => typeof v === 'boolean';

export function literal<const T extends readonly (string | number | boolean)[]>(...values: T): Guard<T[number]> {
  return (v): v is T[number] => (values as readonly unknown[]).includes(v);
}

export function arrayOf<T>(item: Guard<T>, maxLength: number): Guard<T[]> {
  return (v): v is T[] => Array.isArray(v) && v.length <= maxLength && v.every((x) => item(x));
}

export function recordOf<T>(item: Guard<T>, maxKeys: number, keyMax = 1000): Guard<Record<string, T>> {
  return (v): v is Record<string, T> => {
    if (!isPlainObject(v)) return false;
    const keys = Object.keys(v);
    return keys.length <= maxKeys && keys.every((k) => k.length <= keyMax && item(v[k]));
  };
}

/** Any JSON-ish object (used for opaque `arguments`/`properties` bags the webview never reads). */
export const anyObject: Guard<Record<string, unknown>> = isPlainObject;

export function shape<R extends Shape, O extends Shape = Record<never, Guard<unknown>>>(
  required: R,
  optional?: O,
): Guard<FromShape<R, O>> {
  return (v): v is FromShape<R, O> => {
    if (!isPlainObject(v)) return false;
    for (const key of Object.keys(required)) {
      const g = required[key] as Guard<unknown>;
      if (!Object.prototype.hasOwnProperty.call(v, key) || !g(v[key])) return false;
    }
    if (optional) {
      for (const key of Object.keys(optional)) {
        const g = optional[key] as Guard<unknown>;
        if (v[key] !== undefined && !g(v[key])) return false;
      }
    }
    return true;
  };
}

/** A union of shapes, one of which must match. */
export function oneOf<const G extends readonly Guard<unknown>[]>(...guards: G): Guard<GuardedBy<G[number]>> {
  return (v): v is GuardedBy<G[number]> => guards.some((g) => g(v));
}

/** Dispatches on a `type`-like discriminant so a message is checked against one shape only. */
export function tagged<T extends { [k in K]: string }, K extends string>(
  key: K,
  byTag: { [Tag in T[K]]: Guard<Extract<T, { [k in K]: Tag }>> },
): Guard<T> {
  const table = byTag as Record<string, Guard<unknown>>;
  return (v): v is T => {
    if (!isPlainObject(v)) return false;
    const tag = v[key];
    if (typeof tag !== 'string' || !Object.prototype.hasOwnProperty.call(table, tag)) return false;
    const g = table[tag];
    return g !== undefined && g(v);
  };
}
