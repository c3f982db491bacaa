/**
 * undici, loaded at the first request rather than when the module that uses it loads: it is most
 * of the extension's bundle (about 1 MB, ~50 ms to evaluate), and the extension must register its
 * views before anything heavy runs (issue 24 point 13: VS Code says "There is no data provider
 * registered" until it has). The bundler keeps it in the bundle, evaluated on first use.
 */
import type * as Undici from 'undici';

let loaded: Promise<typeof Undici> | undefined;

export function undici(): Promise<typeof Undici> {
  loaded ??= import('undici');
  return loaded;
}
