import { IMAGE_UPLOAD_MAX_BYTES, imageUploadRefusalTexts, uploadTexts } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { count } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test-support/app.ts';
import { HOUR } from '../test-support/clock.ts';
import { padPng, solidImage } from '../test-support/images.ts';
import { multipartBody } from '../test-support/multipart.ts';
import { createPublicForm } from '../test-support/public-verify.ts';
import { newOwner, type Owner } from '../test-support/teams.ts';
import {
  gifDeclaringHuge,
  gifJsPolyglot,
  htmlPage,
  jpegDeclaringHuge,
  jpegWithHtml,
  pngPixelBomb,
  pngWithScriptChunk,
  pngZipBomb,
  svgWithScript,
  truncatedJpeg,
  truncatedPng,
  webpDeclaringHuge,
  zipBomb,
} from './hostile-images.ts';
import { errorContractViolation } from './response-checks.ts';
import { multipartRoutes, routeInventory } from './route-inventory.ts';

/**
 * Issue #7 item 4, uploads: hostile files against every upload route (profile picture, account logo, form banner).
 * modules/media/uploads.test.ts proves the rules in depth on the profile picture; this suite throws the hostile set
 * at all three and checks what reaches storage. A refused file is a 400 on the route's field with the spec's message
 * and stores nothing (no media row, the image unchanged); a polyglot whose image part is valid is accepted only as a
 * fresh WebP re-encoded from its pixels, so the script riding along is gone.
 */

const t = useTestApp();

type Target = {
  route: string;
  field: string;
  method: 'POST' | 'PATCH';
  url: string;
  /** The image the target shows now (a /media/ URL or null). */
  current: () => Promise<string | null>;
};

let owner: Owner;
let targets: Target[];

beforeAll(async () => {
  owner = await newOwner(t.app, 'Upload Inc.');
  const form = await createPublicForm(owner);
  const { c } = owner;
  targets = [
    {
      route: 'POST /api/users/:id/update-uploaded-profile-image',
      field: 'uploadedProfileImage',
      method: 'POST',
      url: `/api/users/${owner.userId}/update-uploaded-profile-image`,
      current: async () => (await c.post('/api/auth/refresh-me')).json().user.uploadedProfileImage,
    },
    {
      route: 'POST /api/accounts/:id/update-uploaded-profile-image',
      field: 'uploadedProfileImage',
      method: 'POST',
      url: `/api/accounts/${owner.accountId}/update-uploaded-profile-image`,
      current: async () => (await c.get(`/api/accounts/${owner.accountId}`)).json().uploadedProfileImage,
    },
    {
      route: 'PATCH /api/verify-forms/:id/update-banner-image',
      field: 'bannerImage',
      method: 'PATCH',
      url: `/api/verify-forms/${form.id}/update-banner-image`,
      current: async () => (await c.get(`/api/verify-forms/${form.id}`)).json().bannerImage,
    },
  ];
}, 60_000);

async function mediaRows(): Promise<number> {
  const [row] = await t.db.db.select({ n: count() }).from(schema.media);
  return row?.n ?? 0;
}

function send(target: Target, body: string | Buffer, contentType: string): Promise<LightMyRequestResponse> {
  return owner.c.request({
    method: target.method,
    url: target.url,
    rawBody: body,
    headers: { 'content-type': contentType },
  });
}

function upload(target: Target, data: Buffer, filename = 'picture.png', contentType = 'image/png') {
  // 30 uploads an hour per user (IMAGE_UPLOAD_LIMITS): each case starts a fresh hour.
  t.clock.advance(HOUR);
  const form = multipartBody([{ name: target.field, filename, contentType, data }]);
  return send(target, form.body, form.contentType);
}

const refused: [string, () => Promise<Buffer> | Buffer, string, string, string][] = [
  ['an SVG with a script', svgWithScript, 'x.svg', 'image/svg+xml', uploadTexts.wrongType],
  ['an HTML page named .jpg', htmlPage, 'x.jpg', 'image/jpeg', uploadTexts.wrongType],
  ['a ZIP bomb (32 MB of zeros) named .png', zipBomb, 'x.png', 'image/png', uploadTexts.wrongType],
  [
    'a PNG declaring 100 000 × 100 000',
    pngPixelBomb,
    'x.png',
    'image/png',
    imageUploadRefusalTexts.tooManyPixels,
  ],
  [
    'a JPEG declaring 65 500 × 65 500',
    jpegDeclaringHuge,
    'x.jpg',
    'image/jpeg',
    imageUploadRefusalTexts.tooManyPixels,
  ],
  [
    'a GIF declaring 65 535 × 65 535',
    gifDeclaringHuge,
    'x.gif',
    'image/gif',
    imageUploadRefusalTexts.tooManyPixels,
  ],
  [
    'a WebP declaring 16 383 × 16 383',
    webpDeclaringHuge,
    'x.webp',
    'image/webp',
    imageUploadRefusalTexts.tooManyPixels,
  ],
  ['a truncated PNG', truncatedPng, 'x.png', 'image/png', imageUploadRefusalTexts.unreadable],
  ['a truncated JPEG', truncatedJpeg, 'x.jpg', 'image/jpeg', imageUploadRefusalTexts.unreadable],
  ['an empty file', () => Buffer.alloc(0), 'x.png', 'image/png', uploadTexts.required],
  [
    `a file of ${IMAGE_UPLOAD_MAX_BYTES + 1} bytes`,
    async () => padPng(await solidImage(20, 20, 'png'), IMAGE_UPLOAD_MAX_BYTES + 1),
    'x.png',
    'image/png',
    uploadTexts.tooLarge,
  ],
];

/** Multipart routes that store no image, each with where its hostile files are tried instead. */
const notImageUploads: Readonly<Record<string, string>> = {
  'POST /api/public/certificates/verify':
    'a certificate to check, read and judged, never stored: modules/certificates/check.test.ts throws hostile files at it',
};

describe('hostile uploads', () => {
  it('this suite covers every multipart route of the app', () => {
    const uploadRoutes = routeInventory(t.app)
      .filter((r) => multipartRoutes().includes(r.key) && !(r.key in notImageUploads))
      .map((r) => r.key);
    expect(targets.map((x) => x.route).sort()).toEqual(uploadRoutes.sort());
    expect(uploadRoutes).toHaveLength(multipartRoutes().length - Object.keys(notImageUploads).length);
  });

  it.each(refused)(
    '%s: 400 on the field with the spec message, nothing stored',
    async (_name, make, filename, type, message) => {
      const data = await make();
      for (const target of targets) {
        const before = { rows: await mediaRows(), image: await target.current() };
        const response = await upload(target, data, filename, type);
        expect(response.statusCode, target.route).toBe(400);
        expect(response.json(), target.route).toEqual({
          [target.field]: [message],
          MainCode_: 'validation_error',
        });
        expect(await mediaRows(), target.route).toBe(before.rows);
        expect(await target.current(), target.route).toBe(before.image);
      }
    },
  );

  it.each([
    ['a JPEG with an HTML page appended', jpegWithHtml, 'x.jpg', 'image/jpeg'],
    ['a GIF that is also JavaScript', gifJsPolyglot, 'x.gif', 'image/gif'],
    ['a PNG with a script in a text chunk', pngWithScriptChunk, 'x.png', 'image/png'],
    [
      'a real PNG declared as text/html and named .html',
      () => solidImage(24, 24, 'png'),
      'x.html',
      'text/html',
    ],
  ] as const)(
    '%s: kept only as a WebP re-encoded from its pixels; served as an image, nosniff',
    async (_name, make, filename, type) => {
      const data = await make();
      for (const target of targets) {
        const response = await upload(target, data, filename, type);
        expect(response.statusCode, `${target.route} ${response.body}`).toBe(200);
        const url = await target.current();
        expect(url).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
        const served = await t.app.inject({ method: 'GET', url: url ?? '' });
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe('image/webp');
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        const bytes = served.rawPayload;
        expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
        expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
        for (const payload of ['<script', 'alert', '<html', '*/='])
          expect(bytes.includes(payload)).toBe(false);
        expect((await sharp(bytes).metadata()).format).toBe('webp');
      }
    },
  );

  it('a decompression bomb (1000 × 1000 declared, 64 MB of IDAT) decodes only what it declares, quickly', async () => {
    const bomb = pngZipBomb();
    expect(bomb.length).toBeLessThan(100_000);
    for (const target of targets) {
      const started = performance.now();
      const response = await upload(target, bomb);
      // Generous for a loaded 2-core box; a decoder inflating all 64 MB into pixels would take far longer.
      expect(performance.now() - started, target.route).toBeLessThan(5_000);
      expect(response.statusCode, target.route).toBe(200);
      const stored = await t.app.inject({ method: 'GET', url: (await target.current()) ?? '' });
      expect(await sharp(stored.rawPayload).metadata()).toMatchObject({ width: 1000, height: 1000 });
    }
  });

  it('hand-broken multipart: odd boundaries, a 5000-character file or field name, 200 part headers, base64 parts, multipart/mixed', async () => {
    const part = (disposition: string, extra = '', data = 'xx') =>
      `--x\r\nContent-Disposition: form-data; ${disposition}\r\n${extra}\r\n${data}\r\n--x--\r\n`;
    const cases: [string, string][] = [
      [`multipart/form-data; boundary=${'x'.repeat(500)}`, `--${'x'.repeat(500)}\r\n`],
      ['multipart/form-data; boundary="x', '--x\r\n'],
      ['multipart/form-data; boundary=x; boundary=y', part('name="a"')],
      [
        'multipart/form-data; boundary=x',
        part(`name="FIELD"; filename="${'a'.repeat(5_000)}.png"`, 'Content-Type: image/png\r\n'),
      ],
      [
        'multipart/form-data; boundary=x',
        part(`name="FIELD"; filename*=UTF-8''%E2%82%AC%00.png`, 'Content-Type: image/png\r\n'),
      ],
      [
        'multipart/form-data; boundary=x',
        part('name="a"', Array.from({ length: 200 }, (_, i) => `X-H${i}: v\r\n`).join('')),
      ],
      ['multipart/form-data; boundary=x', part(`name="${'n'.repeat(5_000)}"`)],
      [
        'multipart/form-data; boundary=x',
        part('name="FIELD"; filename="a.png"', 'Content-Transfer-Encoding: base64\r\n', 'iVBORw0KGgo='),
      ],
      ['multipart/mixed; boundary=x', part('name="FIELD"; filename="a.png"')],
    ];
    for (const target of targets) {
      const before = await mediaRows();
      for (const [contentType, body] of cases) {
        const response = await send(target, body.replaceAll('FIELD', target.field), contentType);
        expect(response.statusCode, `${target.route} ${contentType}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        expect(errorContractViolation(response), contentType).toBeNull();
      }
      expect(await mediaRows()).toBe(before);
    }
  });

  it('a JSON body over 1 MiB is a 413 {detail}; a body that is not multipart is a 400 “no file”', async () => {
    for (const target of targets) {
      const huge = await send(
        target,
        JSON.stringify({ [target.field]: 'x'.repeat(1_100_000) }),
        'application/json',
      );
      expect(huge.statusCode, target.route).toBe(413);
      expect(errorContractViolation(huge)).toBeNull();
      const text = await send(target, 'hello', 'text/plain');
      expect(text.statusCode, target.route).toBe(400);
      expect(text.json()).toEqual({ [target.field]: [uploadTexts.required], MainCode_: 'validation_error' });
    }
  });
});
