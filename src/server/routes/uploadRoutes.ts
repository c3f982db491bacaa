/**
 * POST /v1/team/file/upload-datasource (and its prose aliases): multipart `file` -> {fileKey};
 * POST /v2/team/file/upload-datasource: multipart `file` + `user_id` -> {file_object_key}.
 */
import { fileExtension } from '../../shared/fileNames';
import type { Handler, Router } from '../http/router';
import { receiveUpload } from '../files/uploadHandler';
import { newId } from '../ids';
import type { ServiceDeps } from '../serviceDeps';
import type { UploadRecord } from '../state/records';
import { decode, type Spelling } from './routeKit';

export function registerUploadRoutes(router: Router, deps: ServiceDeps, { wire, req }: Spelling): void {
  const upload: Handler = async (ctx) => {
    const queryUser = decode(() => req.userId(ctx.query));
    const file = await receiveUpload(ctx.req, deps.paths.uploadsDir, deps.maxUploadBytes, wire.uploadFileField, deps.uploadMinRate);
    const formUser = file.fields[wire.userIdParam];
    const userId = formUser !== undefined && formUser !== '' ? formUser.slice(0, 128) : queryUser;
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
    return { data: req.encodeUploadResult({ fileKey: rec.fileKey }) };
  };
  router.add('POST', wire.paths.upload, upload);
  for (const alias of req.aliases.upload) router.add('POST', alias, upload);
}
