/** A tiny PNG encoder for the test chart image (RGB, no filtering), so tests need no binary fixture. */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A bar chart: `values` bars (0..1) in a light frame. */
export function barChartPng(width: number, height: number, values: number[]): Buffer {
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height, 0xff);
  const barWidth = Math.floor((width - 20) / values.length);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0;
    for (let x = 0; x < width; x++) {
      const i = y * row + 1 + x * 3;
      const bar = Math.floor((x - 10) / barWidth);
      const v = values[bar];
      const inBar = x >= 10 && v !== undefined && (x - 10) % barWidth < barWidth - 6 && y > height - 10 - v * (height - 20) && y < height - 10;
      const axis = y === height - 10 || x === 10;
      const rgb = axis ? [80, 80, 80] : inBar ? [0, 120, 212] : [250, 250, 250];
      raw[i] = rgb[0] as number;
      raw[i + 1] = rgb[1] as number;
      raw[i + 2] = rgb[2] as number;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
