/**
 * Worker-thread entry that reads one workbook (sheetRead.ts) and posts back its typed sheets, or
 * the reason it could not. SheetJS is synchronous and needs the whole workbook in memory; here it
 * blocks only this thread, and a heap limit set by the client ends only this worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { IngestError } from '../engine';
import { readSheets } from './sheetRead';
import type { SheetWorkerReply, SheetWorkerRequest } from './sheetWorkerClient';

const port = parentPort;
if (port !== null) {
  const { filePath, fileName } = workerData as SheetWorkerRequest;
  readSheets(filePath, fileName).then(
    (sheets) => port.postMessage({ ok: true, sheets } satisfies SheetWorkerReply),
    (err: unknown) => port.postMessage({
      ok: false,
      reason: err instanceof IngestError ? err.message : undefined,
      detail: err instanceof Error ? err.message.slice(0, 300) : String(err).slice(0, 300),
    } satisfies SheetWorkerReply),
  );
}
