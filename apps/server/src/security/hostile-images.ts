import { crc32, deflateRawSync, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { pngDeclaring, solidImage } from '../test-support/images.ts';

/**
 * Hand-made hostile files for the upload suites: polyglots (an image that is also HTML or JavaScript), decompression
 * and pixel bombs (tiny files declaring or inflating to gigantic images), truncated images, archives and markup
 * under image names.
 */

const SCRIPT = '<html><body><script>alert(document.cookie)</script></body></html>';

/** A real JPEG with an HTML page (and its script) appended after the end-of-image marker. */
export async function jpegWithHtml(): Promise<Buffer> {
  return Buffer.concat([await solidImage(64, 48, 'jpeg'), Buffer.from(SCRIPT)]);
}

/**
 * The classic GIF/JavaScript polyglot: the logical screen width is the bytes `/*`, so a browser that runs the file as
 * a script sees `GIF89a/*…*\/=alert(1)//`. Also a GIF whose header declares 10799 × (small) pixels.
 */
export async function gifJsPolyglot(): Promise<Buffer> {
  const gif = Buffer.from(await solidImage(16, 16, 'gif'));
  gif.write('/*', 6, 'latin1');
  return Buffer.concat([gif, Buffer.from('*/=alert(1)//')]);
}

/** A valid PNG with a text chunk holding a script (metadata that must not survive re-encoding). */
export async function pngWithScriptChunk(): Promise<Buffer> {
  const png = await solidImage(32, 32, 'png');
  const iendAt = png.length - 12;
  return Buffer.concat([
    png.subarray(0, iendAt),
    pngChunk('tEXt', Buffer.from(`Comment\0${SCRIPT}`)),
    png.subarray(iendAt),
  ]);
}

export const svgWithScript = () =>
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');

export const htmlPage = () => Buffer.from(`<!doctype html>${SCRIPT}`);

/** A PNG declaring 100 000 × 100 000 pixels (10 gigapixels) in a few hundred bytes. */
export const pngPixelBomb = () => pngDeclaring(100_000, 100_000);

/**
 * A decompression bomb: a PNG declaring a modest 1000 × 1000 RGBA image whose IDAT inflates to 64 MB of zeros (64×
 * the image's 4 MB) from about 64 KB on the wire. A decoder must stop at the image's size.
 */
export function pngZipBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1000, 0);
  header.writeUInt32BE(1000, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const idat = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real JPEG whose frame header (SOF0) is rewritten to declare 65 500 × 65 500 pixels. */
export async function jpegDeclaringHuge(): Promise<Buffer> {
  const jpeg = Buffer.from(await solidImage(16, 16, 'jpeg'));
  const sof = findMarker(jpeg, 0xc0);
  jpeg.writeUInt16BE(65_500, sof + 5);
  jpeg.writeUInt16BE(65_500, sof + 7);
  return jpeg;
}

/** A real GIF whose logical screen and first image declare 65 535 × 65 535 pixels. */
export async function gifDeclaringHuge(): Promise<Buffer> {
  const gif = Buffer.from(await solidImage(16, 16, 'gif'));
  gif.writeUInt16LE(65_535, 6);
  gif.writeUInt16LE(65_535, 8);
  const descriptor = gif.indexOf(0x2c, 13);
  gif.writeUInt16LE(65_535, descriptor + 5);
  gif.writeUInt16LE(65_535, descriptor + 7);
  return gif;
}

/** A real lossy WebP whose VP8 frame header declares 16 383 × 16 383 pixels (268 megapixels). */
export async function webpDeclaringHuge(): Promise<Buffer> {
  const webp = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } })
      .webp()
      .toBuffer(),
  );
  const vp8 = webp.indexOf('VP8 ', 12, 'latin1');
  if (vp8 < 0) throw new Error('not a simple lossy WebP');
  // Chunk header (8) + frame tag (3) + start code (3), then 14-bit width and height.
  webp.writeUInt16LE(16_383, vp8 + 14);
  webp.writeUInt16LE(16_383, vp8 + 16);
  return webp;
}

/** A ZIP archive holding one entry that inflates to 32 MB of zeros. */
export function zipBomb(): Buffer {
  const data = deflateRawSync(Buffer.alloc(32 * 1024 * 1024), { level: 9 });
  const name = Buffer.from('zeros.bin');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(32 * 1024 * 1024, 22);
  local.writeUInt16LE(name.length, 26);
  return Buffer.concat([local, name, data]);
}

export async function truncatedPng(): Promise<Buffer> {
  const png = await solidImage(300, 200, 'png');
  return png.subarray(0, Math.floor(png.length * 0.6));
}

export async function truncatedJpeg(): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer();
  return jpeg.subarray(0, Math.floor(jpeg.length / 2));
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function findMarker(jpeg: Buffer, marker: number): number {
  for (let i = 2; i < jpeg.length - 1; i++) if (jpeg[i] === 0xff && jpeg[i + 1] === marker) return i;
  throw new Error(`no marker ${marker.toString(16)}`);
}
