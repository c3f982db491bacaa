/**
 * Signed file links (no API key, like presigned URLs): `/files/f/{id}/{name}` for files answers
 * published, `/files/s/{id}/{name}` for a data source's original file. An expired or forged link
 * gets 403 and a missing file 404, both with the envelope.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '../../shared/errorCodes';
import { baseName, UNSAFE_NAME_CHARS } from '../../shared/fileNames';
import { ApiError, baseHeaders } from '../http/envelope';
import type { Router } from '../http/router';
import type { LinkKind, StoredFile } from '../files/fileVault';
import type { ServiceDeps } from '../serviceDeps';

const TYPES_BY_EXT: Record<string, string> = {
  '.csv': 'text/csv', '.tsv': 'text/plain', '.txt': 'text/plain', '.md': 'text/markdown', '.mdx': 'text/markdown',
  '.json': 'application/json',
};

/** `attachment; filename="ascii"; filename*=UTF-8''pct` — quotes, controls and non-ASCII never leak raw. */
export function contentDisposition(fullName: string, inline: boolean): string {
  // Records from before names were checked may hold a path or invisible marks: never send them.
  const name = baseName(fullName).replace(new RegExp(UNSAFE_NAME_CHARS.source, 'g'), '') || 'file';
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const gone = (): ApiError => new ApiError(ErrorCode.NOT_FOUND, 'not found: this file no longer exists', 404);

export function registerFileRoutes(router: Router, deps: ServiceDeps): void {
  router.add('GET', '/files/:kind/:id/:name', async (ctx) => {
    const kind = ctx.params['kind'];
    const id = ctx.params['id'] ?? '';
    if (kind !== 'f' && kind !== 's') throw gone();
    const verdict = deps.vault.verify(kind as LinkKind, id, ctx.query.get('expires'), ctx.query.get('token'));
    if (verdict === 'expired') throw new ApiError(ErrorCode.NO_PERMISSION, 'this link has expired: fetch the answer again for a fresh link', 403);
    if (verdict === 'bad') throw new ApiError(ErrorCode.NO_PERMISSION, 'this link is not valid', 403);
    let file: StoredFile | undefined;
    if (kind === 'f') file = await deps.vault.stored(id);
    else {
      const s = deps.meta.sources.get(id);
      if (s?.file !== undefined) {
        file = { path: join(deps.paths.root, s.file), name: s.fileName, contentType: TYPES_BY_EXT[s.ext] ?? 'application/octet-stream' };
      }
    }
    if (!file) throw gone();
    let size: number;
    try {
      size = (await stat(file.path)).size;
    } catch {
      throw gone();
    }
    const isImage = file.contentType.startsWith('image/');
    ctx.res.writeHead(200, {
      ...baseHeaders(ctx.traceId),
      'content-type': file.contentType.startsWith('text/') ? `${file.contentType}; charset=utf-8` : file.contentType,
      'content-length': size,
      'content-disposition': contentDisposition(file.name, isImage),
      // An SVG opened directly must not run scripts in this origin.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      // The official web client fetches TABLE and IMAGE urls from its own page (to parse the CSV,
      // to inline the image), as it does the hosted service's presigned URLs. The signed link is
      // the credential, so any origin holding it may read it; the API routes stay same-origin.
      'access-control-allow-origin': '*',
    });
    if (ctx.method === 'HEAD') {
      ctx.res.end();
      return 'handled';
    }
    await pipeline(createReadStream(file.path), ctx.res).catch(() => ctx.res.destroy());
    return 'handled';
  });
}
