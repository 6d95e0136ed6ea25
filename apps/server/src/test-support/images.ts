import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Real images made by sharp, and hand-made hostile files, for upload tests. */

export function solidImage(width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff') {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

/** A JPEG with EXIF: orientation 6 (shown rotated 90° clockwise) and identifying tags that must not survive. */
export function jpegWithExif(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .withExif({ IFD0: { Copyright: 'Secret Corp', ImageDescription: 'Taken at 51.5N 0.1W' } })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

/** An animated GIF of `frames` frames, each `width` × `height`, in different colours. */
export async function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const images = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({ create: { width, height, channels: 3, background: { r: 60 * i, g: 100, b: 200 } } })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(images, { join: { animated: true } })
    .gif()
    .toBuffer();
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

/** A tiny PNG whose header declares `width` × `height` (1-bit grey), with image data for one row only. */
export function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + Math.ceil(width / 8));
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(row)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid PNG grown to exactly `totalBytes` with a private ancillary chunk before IEND (decoders skip it). */
export function padPng(png: Buffer, totalBytes: number): Buffer {
  const iend = png.subarray(png.length - 12);
  const padding = pngChunk('vfPd', Buffer.alloc(totalBytes - png.length - 12, 0x61));
  const padded = Buffer.concat([png.subarray(0, png.length - 12), padding, iend]);
  if (padded.length !== totalBytes) throw new Error(`padPng: ${padded.length} != ${totalBytes}`);
  return padded;
}

/** The start of a Linux executable: what a renamed binary looks like. */
export function elfBytes(): Buffer {
  const bytes = Buffer.alloc(512);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00], 0);
  return bytes;
}
