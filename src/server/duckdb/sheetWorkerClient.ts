/**
 * Runs the sheet worker for one workbook: off the HTTP event loop, with its own heap limit (a
 * workbook too big for it ends the worker, not the service), a time budget, and cancellation that
 * really stops the parse (the worker is terminated).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { IngestError } from '../engine';
import type { ReadSheet } from './sheetRead';

export interface SheetWorkerRequest {
  filePath: string;
  fileName: string;
}

export type SheetWorkerReply =
  | { ok: true; sheets: ReadSheet[] }
  | { ok: false; reason: string | undefined; detail: string };

/**
 * SheetJS holds the whole workbook in memory; beyond this a CSV export is the better route. Also the
 * cap on an `.xlsx.gz` inflated to scratch (gzipCopy.ts): nothing larger would be read anyway.
 */
export const MAX_SPREADSHEET_BYTES = 100 * 1024 * 1024;

/** Heap of one sheet worker; SheetJS needs several bytes per byte of sheet XML. */
export const SHEET_WORKER_HEAP_MB = 1536;
/** Longest a workbook may take to read. */
export const SHEET_READ_BUDGET_MS = 120_000;

/**
 * The worker's file: the bundle's `sheetWorker.js` next to it, or the TypeScript source under tsx;
 * undefined in a bundle built without it (a test's own build of the CLI).
 */
function workerEntry(): { file: string; execArgv: string[] } | undefined {
  const bundled = join(__dirname, 'sheetWorker.js');
  if (existsSync(bundled)) return { file: bundled, execArgv: [] };
  const source = join(__dirname, 'sheetWorker.ts');
  return existsSync(source) ? { file: source, execArgv: ['--require', 'tsx/cjs'] } : undefined;
}

export async function readSheetsOffThread(filePath: string, fileName: string, signal: AbortSignal, budgetMs = SHEET_READ_BUDGET_MS): Promise<ReadSheet[]> {
  signal.throwIfAborted();
  const entry = workerEntry();
  // Without the worker file the workbook is read here, as before workers: slower to cancel, same result.
  // (SheetJS is loaded only then: the service starts without it.)
  if (entry === undefined) return (await import('./sheetRead')).readSheets(filePath, fileName);
  const worker = new Worker(entry.file, {
    workerData: { filePath, fileName } satisfies SheetWorkerRequest,
    execArgv: entry.execArgv,
    resourceLimits: { maxOldGenerationSizeMb: SHEET_WORKER_HEAP_MB },
    stdout: true,
    stderr: true,
  });
  return new Promise<ReadSheet[]>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      fn();
    };
    const onAbort = (): void => finish(() => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')));
    const timer = setTimeout(() => finish(() => reject(new IngestError(`reading ${fileName} took longer than ${Math.round(budgetMs / 1000)} s and was stopped; export the sheets as CSV`))), budgetMs);
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (m: SheetWorkerReply) => finish(() => {
      if (m.ok) resolve(m.sheets);
      else reject(new IngestError(m.reason ?? `could not read ${fileName}: ${m.detail}`));
    }));
    worker.once('error', (err: Error & { code?: string }) => finish(() => reject(new IngestError(err.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? `${fileName} needs more memory to read than a workbook may use (${SHEET_WORKER_HEAP_MB} MB); export the sheets as CSV`
      : `could not read ${fileName}: ${err.message.slice(0, 200)}`))));
    worker.once('exit', (code) => finish(() => reject(new IngestError(`could not read ${fileName}: the reader stopped (${code})`))));
  });
}
