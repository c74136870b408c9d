import qrcode from 'qrcode-generator';
import { describe, expect, it } from 'vitest';
import { loadQrEncoder, qrCodePng } from '../../src/sandbox/qr-png.js';
import { readPng } from '../helpers/png.js';

// The bolepix QR image: a valid PNG (signature, chunk CRCs, header, one row per scanline) whose
// pixels are the QR modules of the text, 4 px each, inside a 4-module white border.

const EMV =
  '00020101021226910014br.gov.bcb.pix2569sandbox.payctl.invalid/pix/qr/v2/0b8a3f7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b5204000053039865802BR5917LOJA SANDBOX LTDA6009SAO PAULO62070503***6304ABCD';

function modules(text: string): boolean[][] {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => qr.isDark(r, c)));
}

describe('qrCodePng', () => {
  it('needs the encoder loaded first (it is loaded lazily, not at start-up)', () => {
    expect(() => qrCodePng(EMV)).toThrow(/loadQrEncoder/);
  });

  it('writes a 1-bit greyscale PNG with valid chunks, one scanline per row', async () => {
    await loadQrEncoder();
    const png = readPng(qrCodePng(EMV));
    expect(png.chunks).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(png).toMatchObject({ bitDepth: 1, colorType: 0 });
    const n = modules(EMV).length;
    expect(png.width).toBe((n + 8) * 4);
    expect(png.height).toBe(png.width);
    expect(png.pixels).toHaveLength(png.height);
  });

  it('draws the QR modules of the text, 4 px each, in a white quiet zone of 4 modules', async () => {
    await loadQrEncoder();
    const { pixels } = readPng(qrCodePng(EMV));
    const expected = modules(EMV);
    const drawn = expected.map((row, r) => row.map((_, c) => pixels[(r + 4) * 4 + 1]![(c + 4) * 4 + 2]));
    expect(drawn).toEqual(expected);
    // Every pixel of a module has its colour.
    for (let y = 0; y < pixels.length; y += 1) {
      for (let x = 0; x < pixels.length; x += 1) {
        const dark = expected[Math.floor(y / 4) - 4]?.[Math.floor(x / 4) - 4] ?? false;
        if (pixels[y]![x] !== dark) throw new Error(`pixel (${x}, ${y}) should be ${dark ? 'black' : 'white'}`);
      }
    }
    // The top-left finder pattern: a dark 7×7 ring.
    expect(expected[0]!.slice(0, 7)).toEqual([true, true, true, true, true, true, true]);
  });

  it('is small enough to store with every bolepix', async () => {
    await loadQrEncoder();
    expect(qrCodePng(EMV).toString('base64').length).toBeLessThan(2000);
  });

  it('the reader used above rejects a PNG whose chunk was altered', async () => {
    await loadQrEncoder();
    const file = qrCodePng(EMV);
    const inIdat = 8 + 25 + 8 + 4; // signature, IHDR chunk, IDAT length and type, then its data
    file[inIdat] = file[inIdat]! ^ 0xff;
    expect(() => readPng(file)).toThrow(/bad CRC in the IDAT chunk/);
  });
});
