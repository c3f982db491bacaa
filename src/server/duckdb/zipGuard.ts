/**
 * Reads a ZIP archive's central directory (without inflating anything) to learn how big its contents
 * claim to be. An XLSX is a ZIP, and SheetJS inflates every part in memory: a small "zip bomb"
 * workbook could otherwise take the whole service down.
 */

import { formatBytes } from '../../shared/byteSize';

export interface ZipSummary {
  entries: number;
  /** Sum of the declared uncompressed sizes. */
  uncompressedBytes: number;
}

const EOCD_SIG = 0x06054b50;
const CDH_SIG = 0x02014b50;
const EOCD_MIN = 22;

/** Offset of the end-of-central-directory record (searched back over the comment), or -1. */
function findEocd(buf: Buffer): number {
  const minStart = Math.max(0, buf.length - EOCD_MIN - 0xffff);
  for (let i = buf.length - EOCD_MIN; i >= minStart; i--) if (buf.readUInt32LE(i) === EOCD_SIG) return i;
  return -1;
}

/** Summary of a ZIP in memory, or undefined when no valid central directory is found. */
export function summarizeZip(buf: Buffer): ZipSummary | undefined {
  const eocd = findEocd(buf);
  if (eocd < 0) return undefined;
  const total = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  // ZIP64 markers: a workbook that needs ZIP64 is beyond any size this service accepts anyway.
  if (total === 0xffff || cdOffset === 0xffffffff) return { entries: total, uncompressedBytes: Number.POSITIVE_INFINITY };
  let p = cdOffset;
  let bytes = 0;
  for (let n = 0; n < total; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CDH_SIG) return undefined;
    const size = buf.readUInt32LE(p + 24);
    if (size === 0xffffffff) return { entries: total, uncompressedBytes: Number.POSITIVE_INFINITY };
    bytes += size;
    p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return { entries: total, uncompressedBytes: bytes };
}

/** Why an archive was refused by {@link inflatedSize}. */
export class ZipLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipLimitError';
  }
}

const LFH_SIG = 0x04034b50;

/**
 * Inflates every entry and counts the bytes that really come out, stopping as soon as the total
 * passes `limit`: the sizes a ZIP declares are the attacker's to choose, the inflated bytes are not.
 * Returns the total; throws {@link ZipLimitError} over the limit or for an unreadable archive.
 */
export function inflatedSize(buf: Buffer, limit: number, inflate: (data: Buffer, maxOutput: number) => Buffer): number {
  const eocd = findEocd(buf);
  if (eocd < 0) throw new ZipLimitError('its ZIP directory is unreadable');
  const total = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  let out = 0;
  for (let n = 0; n < total; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CDH_SIG) throw new ZipLimitError('its ZIP directory is damaged');
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const local = buf.readUInt32LE(p + 42);
    p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LFH_SIG) throw new ZipLimitError('an entry of the ZIP is damaged');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, Math.min(buf.length, start + compressed));
    if (method === 0) out += data.length;
    else if (method === 8) {
      try {
        out += inflate(data, limit - out + 1).length;
      } catch (err) {
        if (err instanceof RangeError || (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipLimitError(`it expands to more than ${formatBytes(limit)}`);
        throw new ZipLimitError('an entry of the ZIP does not inflate');
      }
    } else throw new ZipLimitError(`it uses ZIP compression method ${method}, which workbooks do not`);
    if (out > limit) throw new ZipLimitError(`it expands to more than ${formatBytes(limit)}`);
  }
  return out;
}
