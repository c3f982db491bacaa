/**
 * The hosted service accepts only its 13 file types; Parquet, JSON Lines and gzip files are read
 * only by the local service. For a hosted service the extension says so and offers to convert such
 * files to CSV on this machine and upload the CSV instead.
 *
 * The conversion runs `dist/cli.js convert` (DuckDB) as a child process with the editor's own Node,
 * like the local service: a heavy conversion never blocks the extension host, and a crash of the
 * native binding never takes the editor down. Cancelling kills that child.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { HOSTED_EXTENSIONS, isLocalOnlyExtension } from '../../shared/domain';
import { convertedCsvName, fileExtension } from '../../shared/fileNames';
import type { Services } from '../services';

export const CONVERT_AND_UPLOAD = 'Convert to CSV and Upload';

/** Whether `file` must be converted before the current service accepts it. */
export function needsConversion(s: Services, file: vscode.Uri): boolean {
  return s.connection.info.mode === 'hosted' && isLocalOnlyExtension(fileExtension(file.fsPath));
}

/**
 * Says plainly which files the hosted service does not accept and offers the conversion. Returns
 * the files to go on with: all of them when the user accepts, the others when not.
 */
export async function offerConversion(s: Services, files: vscode.Uri[]): Promise<vscode.Uri[]> {
  const refused = files.filter((f) => needsConversion(s, f));
  if (refused.length === 0) return files;
  const names = refused.slice(0, 3).map((f) => basename(f.fsPath)).join(', ') + (refused.length > 3 ? ` and ${refused.length - 3} more` : '');
  const service = s.connection.info.label;
  const choice = await s.prompts.choose(`${service} does not accept ${names}: the hosted service reads only ${HOSTED_EXTENSIONS.map((e) => e.slice(1)).join(', ')} files.`, [CONVERT_AND_UPLOAD], {
    modal: true,
    level: 'warning',
    detail: `The extension can convert ${refused.length === 1 ? 'it' : 'them'} to CSV on this machine (with DuckDB) and upload the CSV instead. The original files stay as they are. Parquet, JSON Lines and compressed files are read directly by the local service (leave teamData.baseUrl empty).`,
  });
  if (choice === CONVERT_AND_UPLOAD) return files;
  s.log.info(`Not converting ${names} for ${service}`);
  return files.filter((f) => !refused.includes(f));
}

export interface ConvertedFile {
  /** The CSV to upload. */
  path: string;
  /** Its name as the service shows it (`events.parquet` -> `events.csv`). */
  name: string;
  rows: number;
  /** Deletes the CSV and its folder. */
  dispose(): Promise<void>;
}

/** The last line the converter wrote to stderr, as the reason to show. */
function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).map((l) => l.replace(/^team-data:\s*/, '').trim()).filter((l) => l !== '' && !/^Cancelling/.test(l));
  return lines[lines.length - 1] ?? 'the conversion failed';
}

/**
 * Converts `file` to CSV in the extension's storage; `onProgress` gets 0..1 (undefined while the
 * file is being checked). Rejects with the converter's reason, or an AbortError when `signal` aborts.
 */
export async function convertForUpload(s: Services, file: vscode.Uri, signal: AbortSignal, onProgress: (fraction: number | undefined) => void): Promise<ConvertedFile> {
  // An abort before the child exists would never reach its listener.
  signal.throwIfAborted();
  const dir = join(s.context.globalStorageUri.fsPath, 'converted', randomUUID());
  await mkdir(dir, { recursive: true });
  const name = convertedCsvName(file.fsPath);
  const out = join(dir, name);
  const dispose = (): Promise<void> => rm(dir, { recursive: true, force: true });
  const cli = join(s.context.extensionPath, 'dist', 'cli.js');
  // The converter needs no credentials: the hosted service's key stays out of its environment.
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  delete env['TEAM_DATA_API_KEY'];
  const child = spawn(process.execPath, [cli, 'convert', file.fsPath, '--out', out], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  const kill = (): void => {
    child.kill();
  };
  signal.addEventListener('abort', kill);
  let rows = 0;
  let stderr = '';
  let pending = '';
  child.stdout.on('data', (d: Buffer) => {
    pending += d.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      try {
        const msg = JSON.parse(line) as { phase?: string; fraction?: number; done?: boolean; rows?: number };
        if (msg.done === true) rows = msg.rows ?? 0;
        else onProgress(typeof msg.fraction === 'number' ? msg.fraction : undefined);
      } catch {
        // Not a progress line (a warning of the runtime): ignored.
      }
    }
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-4000);
  });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    signal.throwIfAborted();
    if (code !== 0) throw new Error(`could not convert ${basename(file.fsPath)} to CSV: ${lastLine(stderr)}`);
    s.log.info(`Converted ${basename(file.fsPath)} to ${name} (${rows} rows) for upload`);
    return { path: out, name, rows, dispose };
  } catch (err) {
    await dispose();
    throw err;
  } finally {
    signal.removeEventListener('abort', kill);
  }
}
