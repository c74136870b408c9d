// Reads back the PNGs the sandbox draws (a bolepix's QR code): every chunk with its CRC checked,
// the header, and the pixels of a 1-bit greyscale image, so tests can look at what was drawn.
import { crc32, inflateSync } from 'node:zlib';

export interface Png {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** Chunk types in file order. */
  chunks: string[];
  /** One array per row, true for a black pixel. */
  pixels: boolean[][];
}

const SIGNATURE = '89504e470d0a1a0a';

export function readPng(file: Buffer): Png {
  if (file.subarray(0, 8).toString('hex') !== SIGNATURE) throw new Error('not a PNG: bad signature');
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let header: Buffer | undefined;
  for (let at = 8; at < file.length; ) {
    const length = file.readUInt32BE(at);
    const type = file.subarray(at + 4, at + 8).toString('ascii');
    const data = file.subarray(at + 8, at + 8 + length);
    const crc = file.readUInt32BE(at + 8 + length);
    if (crc !== crc32(file.subarray(at + 4, at + 8 + length))) throw new Error(`bad CRC in the ${type} chunk`);
    chunks.push(type);
    if (type === 'IHDR') header = data;
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  if (!header) throw new Error('no IHDR chunk');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const bitDepth = header[8]!;
  const colorType = header[9]!;
  const raw = inflateSync(Buffer.concat(idat));
  const stride = Math.ceil(width / 8) + 1;
  if (bitDepth !== 1 || colorType !== 0) throw new Error('only 1-bit greyscale is read here');
  if (raw.length !== stride * height) throw new Error(`IDAT holds ${raw.length} bytes, not ${height} rows of ${stride}`);
  const pixels: boolean[][] = [];
  for (let y = 0; y < height; y += 1) {
    const row = raw.subarray(y * stride, (y + 1) * stride);
    if (row[0] !== 0) throw new Error(`row ${y} uses filter ${row[0]}; only 0 is read here`);
    pixels.push(Array.from({ length: width }, (_, x) => ((row[1 + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0));
  }
  return { width, height, bitDepth, colorType, chunks, pixels };
}
