import {
  IMAGE_MAX_INPUT_PIXELS,
  IMAGE_MAX_SIDE,
  imageUploadMimeTypes,
  imageUploadRefusalTexts,
  uploadTexts,
} from '@veriform/contracts';
import { fileTypeFromBuffer } from 'file-type';
import pLimit from 'p-limit';
import type { Metadata } from 'sharp';

/** Why an upload is not an acceptable image; the message is shown to the user on the upload's field. */
export class ImageRejected extends Error {}

export type ProcessedImage = { bytes: Buffer; contentType: 'image/webp'; width: number; height: number };

const allowedMimeTypes: ReadonlySet<string> = new Set(imageUploadMimeTypes);
/** sharp's names for the same formats: the decoder must agree with the magic bytes (no polyglot surprises). */
const allowedSharpFormats: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'gif']);
const WEBP_QUALITY = 82;

/**
 * Images decoded at the same time in this process. Decoding is the costly part of an upload (CPU and memory grow with
 * the pixels), and libvips already spreads one image over the cores: more at once only adds memory, so uploads beyond
 * this wait their turn instead of exhausting the process.
 */
export const IMAGE_DECODE_CONCURRENCY = 2;
const decodeSlots = pLimit(IMAGE_DECODE_CONCURRENCY);

/**
 * Turns untrusted bytes into a safe, small WebP (DESIGN §2):
 * 1. the type comes from the content's magic bytes (file-type), never from the declared name or MIME type, and must
 *    be one of imageUploadMimeTypes;
 * 2. the header's dimensions are checked before anything is decoded: more than IMAGE_MAX_INPUT_PIXELS (first
 *    frame) is refused, and sharp's `limitInputPixels` enforces the same bound while decoding;
 * 3. only the first frame / page is read: an animated GIF or WebP becomes a still picture;
 * 4. truncated or corrupt data is refused (sharp `failOn: 'truncated'` for decoders that only warn);
 * 5. rotated upright by its EXIF orientation, shrunk to fit IMAGE_MAX_SIDE × IMAGE_MAX_SIDE (never enlarged),
 *    re-encoded as WebP with no metadata at all (EXIF, GPS, ICC, XMP are dropped: sharp keeps none by default);
 *    at most IMAGE_DECODE_CONCURRENCY images at a time.
 */
/** sharp (libvips) loads on the first upload: most processes never decode an image, and every start would pay ~0.1 s. */
let sharpModule: Promise<typeof import('sharp')> | undefined;
async function loadSharp() {
  sharpModule ??= import('sharp');
  return (await sharpModule).default;
}

export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  const detected = await fileTypeFromBuffer(input);
  if (!detected || !allowedMimeTypes.has(detected.mime)) throw new ImageRejected(uploadTexts.wrongType);

  const options = { limitInputPixels: IMAGE_MAX_INPUT_PIXELS, failOn: 'truncated', pages: 1 } as const;
  let metadata: Metadata;
  try {
    // Headers only, nothing decoded yet: read without the pixel limit so that a bomb gets its own message below.
    metadata = await sharp(input, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected(imageUploadRefusalTexts.unreadable);
  }
  if (!allowedSharpFormats.has(metadata.format)) throw new ImageRejected(uploadTexts.wrongType);
  const frameHeight = metadata.pageHeight ?? metadata.height;
  if (!metadata.width || !frameHeight) throw new ImageRejected(imageUploadRefusalTexts.unreadable);
  if (metadata.width * frameHeight > IMAGE_MAX_INPUT_PIXELS) {
    throw new ImageRejected(imageUploadRefusalTexts.tooManyPixels);
  }

  try {
    const { data, info } = await decodeSlots(() =>
      sharp(input, options)
        .autoOrient()
        .resize(IMAGE_MAX_SIDE, IMAGE_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer({ resolveWithObject: true }),
    );
    return { bytes: data, contentType: 'image/webp', width: info.width, height: info.height };
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/pixel limit/i.test(message)) throw new ImageRejected(imageUploadRefusalTexts.tooManyPixels);
    throw new ImageRejected(imageUploadRefusalTexts.unreadable);
  }
}
