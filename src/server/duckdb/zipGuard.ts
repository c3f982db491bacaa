/**
 * Reads a ZIP archive's central directory (without inflating anything) to learn how big its contents
 * claim to be. An XLSX is a ZIP, and SheetJS inflates every part in memory: a small "zip bomb"
 * workbook could otherwise take the whole service down.
 */

export interface ZipSummary {
  entries: number;
  /** Sum of the declared uncompressed sizes. */
  uncompressedBytes: number;
}

const EOCD_SIG = 0x06054b50;
const CDH_SIG = 0x02014b50;
const EOCD_MIN = 22;

/** Summary of a ZIP in memory, or undefined when no valid central directory is found. */
export function summarizeZip(buf: Buffer): ZipSummary | undefined {
  const minStart = Math.max(0, buf.length - EOCD_MIN - 0xffff);
  let eocd = -1;
  for (let i = buf.length - EOCD_MIN; i >= minStart; i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
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
