import { crc32, deflateSync } from 'node:zlib';

// A QR code as a PNG image, for the `base64` of a bolepix (the PIX code a payer scans). The QR
// matrix comes from qrcode-generator; the PNG is written here: 1-bit greyscale, one IDAT, which
// node:zlib alone can do. qrcode-generator is loaded on first use, not at start-up: only creating
// a bolepix needs it.

type QrFactory = typeof import('qrcode-generator');

let encoder: QrFactory | undefined;
let loading: Promise<void> | undefined;

/** Loads the QR encoder once. Creating a bolepix awaits this before the state is locked, so the PNG itself is made synchronously. */
export function loadQrEncoder(): Promise<void> {
  loading ??= import('qrcode-generator').then((module) => {
    encoder = module.default;
  });
  return loading;
}

/** Pixels per QR module: 4 makes a code of a PIX payload some 250 px wide, readable from a screen. */
const MODULE_PX = 4;
/** The blank border the QR standard asks for, in modules. */
const QUIET_ZONE = 4;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  // The CRC covers the chunk type and its data, not the length.
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** The QR modules of `text` (byte mode, error correction M), dark as true. */
function qrMatrix(text: string): boolean[][] {
  if (!encoder) throw new Error('the QR encoder is not loaded: await loadQrEncoder() first');
  const qr = encoder(0, 'M');
  qr.addData(text);
  qr.make();
  const size = qr.getModuleCount();
  return Array.from({ length: size }, (_, row) => Array.from({ length: size }, (_, col) => qr.isDark(row, col)));
}

/** A PNG of the QR code of `text`: black modules on white with a quiet zone, 1 bit per pixel. */
export function qrCodePng(text: string): Buffer {
  const matrix = qrMatrix(text);
  const side = (matrix.length + 2 * QUIET_ZONE) * MODULE_PX;
  const rowBytes = Math.ceil(side / 8);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // Compression, filter and interlace methods: all 0 (deflate, adaptive, none).

  // Each scanline is a filter byte (0, none) and the pixels, 1 bit each, white = 1. A module
  // row gives MODULE_PX identical scanlines.
  const scanline = (row: boolean[] | undefined): Buffer => {
    const line = Buffer.alloc(rowBytes + 1, 0xff);
    line[0] = 0;
    row?.forEach((dark, col) => {
      if (!dark) return;
      for (let x = (col + QUIET_ZONE) * MODULE_PX, end = x + MODULE_PX; x < end; x += 1) {
        const at = 1 + (x >> 3);
        line[at] = (line[at] ?? 0) & ~(0x80 >> (x & 7));
      }
    });
    return line;
  };
  const lines: Buffer[] = [];
  for (let y = 0; y < side; y += MODULE_PX) {
    const line = scanline(matrix[y / MODULE_PX - QUIET_ZONE]);
    for (let i = 0; i < MODULE_PX; i += 1) lines.push(line);
  }
  const raw = Buffer.concat(lines);
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}
