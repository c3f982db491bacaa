/**
 * Local copies of the TABLE and IMAGE files answers link to. The service's links expire
 * (`expiredAt`), and the webview must never load remote content, so the host downloads each file
 * once into the extension's storage and the panel shows the copy. Copies are named by a hash of
 * the file key, so a reloaded window (or a history answer whose link expired) finds them again.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { downloadFile } from '../../api/fileDownload';
import type { Block, FileRef } from '../../shared/domain';
import { fileExtension } from '../../shared/fileNames';
import { fileKeyOf, PROTOCOL_LIMITS } from '../../shared/protocol';

export type FileBlock = Extract<Block, { type: 'TABLE' | 'IMAGE' }>;

/** Largest CSV text sent to the webview in one message; bigger tables are sent as a prefix. */
const MAX_TABLE_CHARS = 64 * 1024 * 1024;
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.svg']);

export interface CachedFile {
  path: string;
  fromCache: boolean;
}

export type CacheResult = { status: 'ready'; file: CachedFile } | { status: 'expired' } | { status: 'error'; message: string };

function extensionFor(block: FileBlock): string {
  const ext = fileExtension(block.content.name) || fileExtension(new URL(block.content.url, 'http://x').pathname);
  if (block.type === 'TABLE') return '.csv';
  return IMAGE_EXTENSIONS.has(ext) ? ext : '.png';
}

export function isExpired(ref: FileRef, now = Date.now()): boolean {
  if (!ref.expiredAt) return false;
  const t = Date.parse(ref.expiredAt);
  return Number.isFinite(t) && t <= now;
}

/** Where the answer panels keep their copies, under the extension's global storage folder. */
export function answerFilesRoot(globalStoragePath: string): string {
  return join(globalStoragePath, 'answer-files');
}

export class AnswerFileCache {
  private readonly inflight = new Map<string, Promise<CacheResult>>();

  constructor(readonly root: string) {}

  /** Where the copy of `block` lives (whether or not it was downloaded yet). */
  pathOf(block: FileBlock): string {
    const digest = createHash('sha256').update(fileKeyOf(block)).digest('hex').slice(0, 32);
    return join(this.root, `${digest}${extensionFor(block)}`);
  }

  /** The local copy, downloading it first when needed; `expired` when too late and never cached. */
  get(block: FileBlock, signal?: AbortSignal): Promise<CacheResult> {
    const key = fileKeyOf(block);
    const running = this.inflight.get(key);
    if (running) return running;
    const p = this.fetch(block, signal).finally(() => this.inflight.delete(key));
    this.inflight.set(key, p);
    return p;
  }

  private async fetch(block: FileBlock, signal?: AbortSignal): Promise<CacheResult> {
    const target = this.pathOf(block);
    if (existsSync(target)) return { status: 'ready', file: { path: target, fromCache: true } };
    if (isExpired(block.content)) return { status: 'expired' };
    try {
      const name = target.slice(this.root.length + 1);
      const got = await downloadFile(block.content.url, this.root, { fileName: name, ...(signal ? { signal } : {}), maxBytes: 512 * 1024 * 1024 });
      return { status: 'ready', file: { path: got.path, fromCache: false } };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      // History links are bare presigned URLs without expiredAt: a 403/404 means they expired.
      if (/expired|HTTP 40[34]/.test(message)) return { status: 'expired' };
      return { status: 'error', message: `could not download ${block.content.name || 'the file'}: ${message}` };
    }
  }
}

/** The CSV text of a cached table, bounded so one message never gets unreasonably large. */
export async function readTableText(path: string): Promise<{ csv: string; truncated: boolean }> {
  const info = await stat(path);
  if (info.size <= MAX_TABLE_CHARS) {
    const fh = await open(path, 'r');
    try {
      return { csv: (await fh.readFile()).toString('utf8'), truncated: false };
    } finally {
      await fh.close();
    }
  }
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(MAX_TABLE_CHARS);
    const { bytesRead } = await fh.read(buf, 0, MAX_TABLE_CHARS, 0);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    // Cut at the last complete line so the grid never shows a half row.
    const cut = text.lastIndexOf('\n');
    return { csv: cut > 0 ? text.slice(0, cut + 1) : text, truncated: true };
  } finally {
    await fh.close();
  }
}

/**
 * The text of a cached image when it is an SVG drawing small enough to send to the panel, which
 * shows it inline in the theme's colours; otherwise undefined and the panel shows the file as an
 * image. Decided by content, not by name: the service's file names are not trusted.
 */
export async function readSvgText(path: string): Promise<string | undefined> {
  const info = await stat(path);
  if (info.size > PROTOCOL_LIMITS.svg) return undefined;
  const fh = await open(path, 'r');
  try {
    const text = (await fh.readFile()).toString('utf8');
    const head = text.slice(0, 4096).replace(/^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?/i, '');
    return /^<svg[\s>]/i.test(head) ? text : undefined;
  } finally {
    await fh.close();
  }
}
