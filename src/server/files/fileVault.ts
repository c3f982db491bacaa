/**
 * Files that answers link to (TABLE csv, IMAGE) and download links for data sources. A link works
 * without the API key, like a presigned URL: it names a random id and carries its expiry and an
 * HMAC over (kind, id, expiry) with a secret kept in the data dir. Stored answers keep a stable
 * internal reference instead of a URL, so every read of history mints a fresh, unexpired link.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Block, FileRef } from '../../shared/domain';
import { safeFileName } from '../../shared/fileNames';
import { isObject } from '../../shared/json';
import { isGeneratedId, newId } from '../ids';
import { writeFileAtomic } from '../state/atomicFile';

/** `f`: a file published by an answer; `s`: the original file of a data source. */
export type LinkKind = 'f' | 's';

export interface StoredFile {
  path: string;
  name: string;
  contentType: string;
}

const INTERNAL_PREFIX = 'localfile:';
/** Served content types; anything else is sent as an opaque download. */
const SAFE_TYPES = new Set([
  'text/csv', 'text/plain', 'text/markdown', 'application/json', 'image/png', 'image/jpeg', 'image/gif',
  'image/webp', 'image/svg+xml', 'application/octet-stream',
]);

export function safeContentType(contentType: string): string {
  const base = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return SAFE_TYPES.has(base) ? base : 'application/octet-stream';
}

export class FileVault {
  private baseUrl = '';

  private constructor(private readonly dir: string, private readonly secret: Buffer, readonly ttlMs: number) {}

  /** Opens the vault, creating the link secret on first use. */
  static async open(dir: string, secretFile: string, ttlMs: number): Promise<FileVault> {
    let secret: Buffer;
    try {
      secret = Buffer.from((await readFile(secretFile, 'utf8')).trim(), 'hex');
    } catch {
      secret = Buffer.alloc(0);
    }
    if (secret.length < 32) {
      secret = randomBytes(32);
      await writeFileAtomic(secretFile, secret.toString('hex'));
    }
    await mkdir(dir, { recursive: true });
    return new FileVault(dir, secret, ttlMs);
  }

  setBaseUrl(url: string): void {
    this.baseUrl = url;
  }

  private sign(kind: LinkKind, id: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${kind}\n${id}\n${expires}`).digest('base64url');
  }

  /** A signed link to a file, valid for `ttlMs` (the vault's default when omitted). */
  link(kind: LinkKind, id: string, name: string, ttlMs = this.ttlMs): FileRef {
    const expires = Date.now() + ttlMs;
    const safe = safeFileName(name);
    const url = `${this.baseUrl}/files/${kind}/${id}/${encodeURIComponent(safe)}?expires=${expires}&token=${this.sign(kind, id, expires)}`;
    return { url, name: safe, expiredAt: new Date(expires).toISOString() };
  }

  /** Checks a link's expiry and token; `bad` covers forged, truncated and malformed links alike. */
  verify(kind: LinkKind, id: string, expires: string | null, token: string | null): 'ok' | 'expired' | 'bad' {
    if (expires === null || token === null || !/^\d{1,16}$/.test(expires)) return 'bad';
    const expected = Buffer.from(this.sign(kind, id, Number(expires)));
    const given = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad';
    return Number(expires) < Date.now() ? 'expired' : 'ok';
  }

  /** Stores a file an answer links to; returns its id and a fresh link. */
  async publish(name: string, contents: Uint8Array | string, contentType: string): Promise<{ id: string; ref: FileRef }> {
    const id = newId();
    const safe = safeFileName(name);
    // A fresh id is invisible until its meta file exists, so the content is written straight to its
    // final name and the meta goes last: a crash mid-way leaves an unservable id, never a half file
    // behind a live link. No fsync: answer files are derived, expiring artifacts, and syncing them
    // cost more than the whole query.
    await writeFile(join(this.dir, id), contents, { mode: 0o600 });
    const meta = { name: safe, contentType: safeContentType(contentType), createdAt: Date.now() };
    await writeFile(join(this.dir, `${id}.json`), JSON.stringify(meta), { mode: 0o600 });
    return { id, ref: this.link('f', id, safe) };
  }

  /** The stored file behind a published id, or undefined when it is gone. */
  async stored(id: string): Promise<StoredFile | undefined> {
    if (!isGeneratedId(id)) return undefined;
    try {
      const meta = JSON.parse(await readFile(join(this.dir, `${id}.json`), 'utf8')) as unknown;
      if (!isObject(meta) || typeof meta['name'] !== 'string' || typeof meta['contentType'] !== 'string') return undefined;
      return { path: join(this.dir, id), name: meta['name'], contentType: safeContentType(meta['contentType']) };
    } catch {
      return undefined;
    }
  }

  async remove(id: string): Promise<void> {
    if (!isGeneratedId(id)) return;
    await unlink(join(this.dir, id)).catch(() => undefined);
    await unlink(join(this.dir, `${id}.json`)).catch(() => undefined);
  }

  /** The stable reference stored in history in place of a published file's URL. */
  static internalRef(id: string): string {
    return `${INTERNAL_PREFIX}f/${id}`;
  }

  /** The published file id behind an internal reference, if it is one. */
  static refId(url: string): string | undefined {
    if (!url.startsWith(`${INTERNAL_PREFIX}f/`)) return undefined;
    const id = url.slice(INTERNAL_PREFIX.length + 2);
    return isGeneratedId(id) ? id : undefined;
  }

  /** Blocks for storage: links to files this service published become internal references. */
  static toStored(blocks: Block[], published: ReadonlyMap<string, string>): Block[] {
    return blocks.map((b) => {
      if (b.type !== 'TABLE' && b.type !== 'IMAGE') return b;
      const id = published.get(b.content.url);
      return id === undefined ? b : { ...b, content: { url: FileVault.internalRef(id), name: b.content.name } };
    });
  }

  /** Blocks for a reader: internal references become fresh signed links. */
  fresh(blocks: Block[]): Block[] {
    return blocks.map((b) => {
      if (b.type !== 'TABLE' && b.type !== 'IMAGE') return b;
      const id = FileVault.refId(b.content.url);
      return id === undefined ? b : { ...b, content: this.link('f', id, b.content.name) };
    });
  }

  /** Published file ids referenced by stored blocks (to delete them with their session). */
  static referencedIds(blocks: Block[]): string[] {
    const out: string[] = [];
    for (const b of blocks) {
      if (b.type !== 'TABLE' && b.type !== 'IMAGE') continue;
      const id = FileVault.refId(b.content.url);
      if (id !== undefined) out.push(id);
    }
    return out;
  }
}
