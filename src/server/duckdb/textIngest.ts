/**
 * MD/MDX/TXT -> a document kept for retrieval (a row in the store's documents table). Text is
 * decoded by its byte-order mark, else as UTF-8, else as windows-1252 (the usual "ANSI" encoding of
 * older Windows files), so a legacy file still reads as text instead of failing.
 */
import { readFile, stat } from 'node:fs/promises';
import type { DuckDBConnection } from '@duckdb/node-api';
import { IngestError, type IngestResult } from '../engine';
import { replaceSource } from './catalog';
import { decodeWindows1252, sniffHead } from './fileSniff';
import { formatBytes } from '../../shared/byteSize';

/** Documents are held in memory for retrieval; bigger text belongs in a real document store. */
export const MAX_TEXT_BYTES = 64 * 1024 * 1024;

export interface TextArgs {
  conn: DuckDBConnection;
  sourceId: string;
  filePath: string;
  fileName: string;
  signal: AbortSignal;
}

/** Decodes text bytes (BOM-aware, UTF-8 with a windows-1252 fallback) without the BOM. */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

/** Ingests a text file as a document, replacing what the source had. */
export async function ingestText(args: TextArgs): Promise<IngestResult> {
  const { conn, sourceId, filePath, fileName, signal } = args;
  const size = (await stat(filePath)).size;
  if (size === 0) throw new IngestError(`${fileName} is empty`);
  if (size > MAX_TEXT_BYTES) {
    throw new IngestError(`${fileName} is too large for a text source (${formatBytes(size)}, limit ${formatBytes(MAX_TEXT_BYTES)})`);
  }
  const bytes = await readFile(filePath);
  const sniff = sniffHead(bytes.subarray(0, 64 * 1024));
  if (sniff.kind === 'binary') throw new IngestError(`${fileName} is not a text file: it looks like ${sniff.what}`);
  let text: string;
  if (sniff.kind === 'text' && sniff.encoding !== 'utf-8' && !sniff.bom) {
    text = new TextDecoder(sniff.encoding).decode(bytes);
  } else {
    text = decodeText(bytes);
  }
  // NUL cannot be stored in a VARCHAR and never means anything in prose.
  text = text.replace(/\u0000/g, '');
  if (text.trim().length === 0) throw new IngestError(`${fileName} contains no text`);
  return replaceSource(conn, sourceId, signal, async () => ({ kind: 'text', text }));
}
