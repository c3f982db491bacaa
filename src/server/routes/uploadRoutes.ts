/** POST /v1/team/file/upload-datasource (and its prose aliases): multipart `file` -> {fileKey}. */
import { v1Codec } from '../../shared/codecV1';
import { fileExtension } from '../../shared/fileNames';
import { v1RequestCodec } from '../../shared/requestCodecV1';
import type { Handler, Router } from '../http/router';
import { receiveUpload } from '../files/uploadHandler';
import { newId } from '../ids';
import type { ServiceDeps } from '../serviceDeps';
import type { UploadRecord } from '../state/records';
import { decode } from './routeKit';

export function registerUploadRoutes(router: Router, deps: ServiceDeps): void {
  const upload: Handler = async (ctx) => {
    const userId = decode(() => v1RequestCodec.userId(ctx.query));
    const file = await receiveUpload(ctx.req, deps.paths.uploadsDir, deps.maxUploadBytes);
    // Looks like an object-storage path (as the real service's keys do) but names nothing on disk.
    const rec: UploadRecord = {
      fileKey: `uploads/${newId()}${fileExtension(file.fileName)}`,
      storedName: file.storedName,
      fileName: file.fileName,
      size: file.size,
      createdAt: Date.now(),
    };
    if (userId !== undefined) rec.userId = userId;
    deps.meta.uploads.set(rec.fileKey, rec);
    await deps.meta.save();
    return { data: v1RequestCodec.encodeUploadResult({ fileKey: rec.fileKey }) };
  };
  router.add('POST', v1Codec.paths.upload, upload);
  for (const alias of v1RequestCodec.aliases.upload) router.add('POST', alias, upload);
}
