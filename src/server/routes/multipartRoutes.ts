/**
 * v2 multipart upload: init-multipart-upload and complete-multipart-upload (API key, envelope),
 * and the presigned part URLs they hand out (no key: the URL's signature is the credential). A
 * completed upload becomes an ordinary uploaded file, so `file_object_key` creates a data source
 * through either version.
 */
import { v2Multipart } from '../../shared/codecV2';
import { ErrorCode } from '../../shared/errorCodes';
import { v2RequestCodec } from '../../shared/requestCodecV2';
import { ApiError, baseHeaders } from '../http/envelope';
import type { Router } from '../http/router';
import { PART_ROUTE, type MultipartUploads } from '../files/multipartUploads';
import type { ServiceDeps } from '../serviceDeps';
import type { UploadRecord } from '../state/records';
import { decodeBody, idParam } from './routeKit';

/**
 * Browsers PUT parts straight to the URL (the official web client does), so the part route alone
 * answers cross-origin and exposes `ETag`. It reveals nothing without a valid signed URL.
 */
export const PART_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'PUT',
  'access-control-allow-headers': 'content-type',
  'access-control-expose-headers': 'ETag',
  'access-control-max-age': '600',
};

export function registerMultipartRoutes(router: Router, deps: ServiceDeps, uploads: MultipartUploads): void {
  router.add('POST', v2Multipart.paths.init, async (ctx) => {
    const body = await decodeBody(ctx, (raw) => v2RequestCodec.decodeInitMultipart(raw));
    const userId = body.userId ?? v2RequestCodec.userId(ctx.query);
    return { data: v2Multipart.encodeInit(await uploads.init(body.fileName, body.fileSize, userId)) };
  });

  router.add('POST', v2Multipart.paths.complete, async (ctx) => {
    const body = await decodeBody(ctx, (raw) => v2RequestCodec.decodeCompleteMultipart(raw));
    const file = await uploads.complete(body.uploadId, body.fileKey, body.parts, deps.paths.uploadsDir);
    const rec: UploadRecord = { fileKey: file.fileKey, storedName: file.storedName, fileName: file.fileName, size: file.size, createdAt: Date.now() };
    const userId = body.userId ?? file.userId;
    if (userId !== undefined) rec.userId = userId;
    deps.meta.uploads.set(rec.fileKey, rec);
    await deps.meta.save();
    return { data: v2Multipart.encodeComplete({ fileKey: rec.fileKey }) };
  });
}

/** The part URLs, on the router that needs no API key. */
export function registerPartRoute(publicRouter: Router, uploads: MultipartUploads): void {
  publicRouter.add('PUT', PART_ROUTE, async (ctx) => {
    const uploadId = idParam(ctx, 'uploadId');
    const raw = ctx.params['number'] ?? '';
    const n = /^\d{1,5}$/.test(raw) ? Number(raw) : 0;
    for (const [k, v] of Object.entries(PART_CORS_HEADERS)) ctx.res.setHeader(k, v);
    const verdict = n === 0 ? 'bad' : uploads.verify(uploadId, n, ctx.query.get('expires'), ctx.query.get('signature'));
    if (verdict === 'expired') throw new ApiError(ErrorCode.NO_PERMISSION, 'this part URL has expired: start the upload again', 403);
    if (verdict === 'bad') throw new ApiError(ErrorCode.NO_PERMISSION, 'this part URL is not valid', 403);
    const etag = await uploads.receivePart(uploadId, n, ctx.req);
    ctx.res.writeHead(200, { ...baseHeaders(ctx.traceId), etag: `"${etag}"`, 'content-length': 0 });
    ctx.res.end();
    return 'handled';
  });
}
