/** Layout of the data directory. Everything the service keeps lives under one root. */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface DataPaths {
  root: string;
  /** Metadata of datasets, sources, sessions and uploads (one atomically replaced JSON file). */
  stateFile: string;
  /** One JSON file per session with its finished jobs. */
  historyDir: string;
  /** Files published by answers (TABLE csv, IMAGE), each with a JSON sidecar. */
  filesDir: string;
  /** Uploaded files, under generated names, until a data source takes them. */
  uploadsDir: string;
  /** The file of each data source, under its generated id. */
  sourcesDir: string;
  /** Parts of v2 multipart uploads in progress, one folder per upload (emptied at start). */
  multipartDir: string;
  /** HMAC key for file links, kept so links stay valid across restarts. */
  secretFile: string;
}

export function dataPaths(root: string): DataPaths {
  return {
    root,
    stateFile: join(root, 'meta', 'state.json'),
    historyDir: join(root, 'history'),
    filesDir: join(root, 'files'),
    uploadsDir: join(root, 'uploads'),
    sourcesDir: join(root, 'sources'),
    multipartDir: join(root, 'multipart'),
    secretFile: join(root, 'meta', 'link-secret'),
  };
}

export async function ensureDataDirs(p: DataPaths): Promise<void> {
  for (const dir of [join(p.root, 'meta'), p.historyDir, p.filesDir, p.uploadsDir, p.sourcesDir]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  }
}
