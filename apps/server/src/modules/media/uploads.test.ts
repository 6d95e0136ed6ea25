import { createHash } from 'node:crypto';
import type { User } from '@veriform/contracts';
import { IMAGE_UPLOAD_MAX_BYTES } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import {
  animatedGif,
  elfBytes,
  jpegWithExif,
  padPng,
  pngDeclaring,
  solidImage,
} from '../../test-support/images.ts';
import { type FormPart, multipartBody } from '../../test-support/multipart.ts';
import { newOwner } from '../../test-support/teams.ts';
import { IMAGE_DECODE_CONCURRENCY } from './images.ts';

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.5.0.${nextIp++}`);

const FIELD = 'uploadedProfileImage';
const fieldError = (message: string) => ({ [FIELD]: [message], MainCode_: 'validation_error' });
const texts = {
  required: 'You must provide a file.',
  wrongType: 'File type must be image/jpeg, image/png, image/webp, image/gif',
  tooLarge: 'File is larger than 6000000 bytes',
  tooMany: 'Too many files',
  unreadable: 'The file is damaged or is not a readable image.',
  tooManyPixels: 'The image is too large: at most 25 megapixels.',
  malformed: 'The upload could not be read. Please try again.',
};

async function loggedIn() {
  const c = client();
  const { id } = await c.signupNew();
  return { c, id, url: `/api/users/${id}/update-uploaded-profile-image` };
}

const file = (data: Buffer, filename = 'me.png', contentType = 'image/png', name = FIELD): FormPart => ({
  name,
  filename,
  contentType,
  data,
});

async function upload(parts: FormPart[]) {
  const { c, url, id } = await loggedIn();
  const response = await c.postMultipart(url, multipartBody(parts));
  return { c, id, response };
}

const shaOf = (path: string) => path.slice('/media/'.length, -'.webp'.length);

/** 404 in the spec's format, and no cache may keep the answer (the image may be used again). */
async function notServed(path: string) {
  const response = await t.app.inject({ method: 'GET', url: path });
  expect(response.statusCode, path).toBe(404);
  expect(response.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
  expect(response.headers['cache-control']).toBe('no-store');
}

async function served(path: string) {
  const response = await t.app.inject({ method: 'GET', url: path });
  expect(response.statusCode).toBe(200);
  return { response, bytes: response.rawPayload, metadata: await sharp(response.rawPayload).metadata() };
}

describe('accepted uploads', () => {
  it('a PNG becomes a WebP at /media/{sha256}.webp, never enlarged', async () => {
    const { response, c } = await upload([file(await solidImage(300, 200, 'png'))]);
    expect(response.statusCode).toBe(200);
    const user = response.json<User>();
    expect(user.uploadedProfileImage).toMatch(/^\/media\/[0-9a-f]{64}\.webp$/);
    expect((await c.post('/api/auth/refresh-me')).json().user.uploadedProfileImage).toBe(
      user.uploadedProfileImage,
    );

    const { response: image, bytes, metadata } = await served(user.uploadedProfileImage ?? '');
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    expect(image.headers.etag).toBe(`"${createHash('sha256').update(bytes).digest('hex')}"`);
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.cookies).toEqual([]);
    expect(metadata).toMatchObject({ format: 'webp', width: 300, height: 200 });
    // Content-addressed: the name is the SHA-256 of the bytes served.
    const sha = createHash('sha256').update(bytes).digest('hex');
    expect(user.uploadedProfileImage).toBe(`/media/${sha}.webp`);
  });

  it('a JPEG is turned upright by its EXIF orientation, shrunk into 1024×1024, and loses every metadata', async () => {
    const input = await jpegWithExif(1600, 1200);
    const before = await sharp(input).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif).toBeDefined();

    const { response } = await upload([file(input, 'holiday.jpg', 'image/jpeg')]);
    expect(response.statusCode).toBe(200);
    const { metadata, bytes } = await served(response.json<User>().uploadedProfileImage ?? '');
    expect(metadata).toMatchObject({ format: 'webp', width: 768, height: 1024 });
    expect(metadata.exif).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(bytes.includes(Buffer.from('Secret Corp'))).toBe(false);
  });

  it('accepts WebP and GIF, whatever name and type the browser declared', async () => {
    for (const [format, name] of [
      ['webp', 'x.bin'],
      ['gif', 'x.txt'],
    ] as const) {
      const { response } = await upload([
        file(await solidImage(64, 64, format), name, 'application/octet-stream'),
      ]);
      expect(response.statusCode).toBe(200);
    }
  });

  it('keeps only the first frame of an animated GIF', async () => {
    const gif = await animatedGif(50, 40, 3);
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const { response } = await upload([file(gif, 'dance.gif', 'image/gif')]);
    expect(response.statusCode).toBe(200);
    const { metadata } = await served(response.json<User>().uploadedProfileImage ?? '');
    expect(metadata).toMatchObject({ format: 'webp', width: 50, height: 40 });
    expect(metadata.pages ?? 1).toBe(1);
  });

  it('stores identical uploads once', async () => {
    const png = await solidImage(40, 40, 'png');
    const first = (await upload([file(png)])).response.json<User>();
    const second = (await upload([file(png)])).response.json<User>();
    expect(second.uploadedProfileImage).toBe(first.uploadedProfileImage);
    const sha = first.uploadedProfileImage?.slice('/media/'.length, -'.webp'.length) ?? '';
    const [row] = await t.db.db.select({ n: count() }).from(schema.media).where(eq(schema.media.sha256, sha));
    expect(row?.n).toBe(1);
  });

  it(`accepts a file of exactly ${IMAGE_UPLOAD_MAX_BYTES} bytes (above Fastify's 1 MiB body limit)`, async () => {
    const big = padPng(await solidImage(20, 20, 'png'), IMAGE_UPLOAD_MAX_BYTES);
    const { response } = await upload([file(big)]);
    expect(response.statusCode).toBe(200);
  });

  it('takes text fields alongside the file without minding them', async () => {
    const { response } = await upload([{ name: 'note', value: 'hi' }, file(await solidImage(8, 8, 'png'))]);
    expect(response.statusCode).toBe(200);
  });
});

describe('refused uploads (400 on uploadedProfileImage)', () => {
  it(`over ${IMAGE_UPLOAD_MAX_BYTES} bytes`, async () => {
    const big = padPng(await solidImage(20, 20, 'png'), IMAGE_UPLOAD_MAX_BYTES + 1);
    const { response, c } = await upload([file(big)]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError(texts.tooLarge));
    expect((await c.post('/api/auth/refresh-me')).json().user.uploadedProfileImage).toBeNull();
  });

  it('no file at all, an empty file, a file under another name, or not multipart', async () => {
    const png = await solidImage(8, 8, 'png');
    for (const parts of [
      [{ name: 'note', value: 'hi' }],
      [file(Buffer.alloc(0))],
      [file(png, 'a.png', 'image/png', 'other')],
    ]) {
      const { response } = await upload(parts);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(fieldError(texts.required));
    }
    const { c, url } = await loggedIn();
    const json = await c.post(url, {});
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual(fieldError(texts.required));
    const bodiless = await c.request({ method: 'POST', url });
    expect(bodiless.json()).toEqual(fieldError(texts.required));
  });

  it('two files', async () => {
    const png = await solidImage(8, 8, 'png');
    const { response } = await upload([file(png), file(png, 'second.png')]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError(texts.tooMany));
  });

  it('content that is not an image, whatever it is called: text, a renamed executable, SVG', async () => {
    const cases = [
      file(Buffer.from('just some text, not a picture\n'), 'notes.png', 'image/png'),
      file(elfBytes(), 'evil.png', 'image/png'),
      file(
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        'x.svg',
        'image/svg+xml',
      ),
      file(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 'doc.jpg', 'image/jpeg'),
    ];
    for (const part of cases) {
      const { response } = await upload([part]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(fieldError(texts.wrongType));
    }
  });

  it('an image of a type not on the list (TIFF)', async () => {
    const { response } = await upload([file(await solidImage(16, 16, 'tiff'), 'scan.png', 'image/png')]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError(texts.wrongType));
  });

  it('a pixel bomb: a tiny PNG declaring 20000×20000', async () => {
    const bomb = pngDeclaring(20_000, 20_000);
    expect(bomb.length).toBeLessThan(10_000);
    const { response } = await upload([file(bomb)]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(fieldError(texts.tooManyPixels));
  });

  it('truncated images', async () => {
    const jpeg = await jpegWithExif(400, 300);
    const png = await solidImage(400, 300, 'png');
    for (const part of [
      file(jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'half.jpg', 'image/jpeg'),
      file(png.subarray(0, Math.floor(png.length * 0.6))),
      // The magic bytes of a PNG and nothing else.
      file(png.subarray(0, 16)),
    ]) {
      const { response } = await upload([part]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(fieldError(texts.unreadable));
    }
  });
});

describe('what decoding may cost (issue #13 item 10c)', () => {
  it('at most 25 megapixels: 5000×5000 passes; 5001×5000 and a 6300×6300 PNG are refused before decoding', async () => {
    const { response } = await upload([file(await solidImage(5000, 5000, 'png'))]);
    expect(response.statusCode).toBe(200);
    const { metadata } = await served(response.json<User>().uploadedProfileImage ?? '');
    expect(metadata).toMatchObject({ width: 1024, height: 1024 });
    for (const [width, height] of [
      [5001, 5000],
      [6300, 6300],
    ] as const) {
      const refused = await upload([file(pngDeclaring(width, height))]);
      expect(refused.response.statusCode).toBe(400);
      expect(refused.response.json()).toEqual(fieldError(texts.tooManyPixels));
    }
    // A real one too: the decoder's own limit agrees with the header check.
    const real = await upload([file(await solidImage(6300, 6300, 'png'))]);
    expect(real.response.json()).toEqual(fieldError(texts.tooManyPixels));
  });

  it(`uploads arriving together are decoded at most ${IMAGE_DECODE_CONCURRENCY} at a time`, async () => {
    const images = await Promise.all(Array.from({ length: 8 }, (_, i) => solidImage(2400 + i, 2400, 'png')));
    const { c, url } = await loggedIn();
    // sharp's own counter of images being decoded right now, sampled while the uploads run.
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, sharp.counters().process);
    }, 1);
    try {
      const responses = await Promise.all(
        images.map((png) => c.postMultipart(url, multipartBody([file(png)]))),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(200));
    } finally {
      clearInterval(sampler);
    }
    expect(peak).toBeGreaterThanOrEqual(1);
    expect(peak).toBeLessThanOrEqual(IMAGE_DECODE_CONCURRENCY);
  });
});

describe('broken multipart bodies (400, never 500)', () => {
  it('no boundary, cut short, bad part headers, too many fields, __proto__', async () => {
    const { c, url } = await loggedIn();
    const part = (name: string, extra = '') =>
      `--xyz\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n\r\nx\r\n`;
    const cases: [string, string][] = [
      ['multipart/form-data', 'abc'],
      ['multipart/form-data; boundary=xyz', 'no boundary anywhere'],
      [
        'multipart/form-data; boundary=xyz',
        `--xyz\r\nContent-Disposition: form-data; name="${FIELD}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`,
      ],
      [
        'multipart/form-data; boundary=xyz',
        `${Array.from({ length: 15 }, (_, i) => part(`f${i}`)).join('')}--xyz--\r\n`,
      ],
      ['multipart/form-data; boundary=xyz', `${part('__proto__')}--xyz--\r\n`],
      ['multipart/form-data; boundary=xyz', `${part('__proto__', '; filename="a.png"')}--xyz--\r\n`],
    ];
    for (const [contentType, body] of cases) {
      const response = await c.request({
        method: 'POST',
        url,
        rawBody: body,
        headers: { 'content-type': contentType },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(fieldError(texts.malformed));
    }
  });
});

describe('access', () => {
  it('needs a logged-in user and the CSRF token', async () => {
    const form = multipartBody([file(await solidImage(8, 8, 'png'))]);
    const anonymous = client();
    await anonymous.fetchCsrf();
    const response = await anonymous.postMultipart('/api/users/1/update-uploaded-profile-image', form);
    expect(response.statusCode).toBe(401);
    expect(response.json().detail).toBe('Authentication credentials were not provided.');

    const { c, url } = await loggedIn();
    const noCsrf = await c.postMultipart(url, form, { csrf: false });
    expect(noCsrf.statusCode).toBe(403);
  });

  it('limits uploads to 30 an hour per user', async () => {
    const { c, url } = await loggedIn();
    const form = multipartBody([file(await solidImage(4, 4, 'png'))]);
    for (let i = 0; i < 30; i++) expect((await c.postMultipart(url, form)).statusCode).toBe(200);
    const refused = await c.postMultipart(url, form);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('PATCH /api/users/{id}/delete-uploaded-profile-image', () => {
  it('clears the picture, which is no longer served; the stored bytes stay (garbage collection is later work)', async () => {
    const { c, id, response } = await upload([file(await solidImage(32, 32, 'png'))]);
    const path = response.json<User>().uploadedProfileImage ?? '';
    await served(path);
    const deleted = await c.patch(`/api/users/${id}/delete-uploaded-profile-image`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json<User>()).toMatchObject({ id, uploadedProfileImage: null });
    expect((await c.post('/api/auth/refresh-me')).json().user.uploadedProfileImage).toBeNull();
    await notServed(path);
    const [row] = await t.db.db
      .select({ n: count() })
      .from(schema.media)
      .where(eq(schema.media.sha256, shaOf(path)));
    expect(row?.n).toBe(1);
  });
});

describe('an image no row uses is not served (issue #13 item 10a)', () => {
  it('a replaced profile picture: the old URL is 404 at once, the new one served', async () => {
    const { c, id, response } = await upload([file(await solidImage(33, 33, 'png'))]);
    const old = response.json<User>().uploadedProfileImage ?? '';
    const url = `/api/users/${id}/update-uploaded-profile-image`;
    const replaced = await c.postMultipart(url, multipartBody([file(await solidImage(34, 34, 'png'))]));
    const now = replaced.json<User>().uploadedProfileImage ?? '';
    expect(now).not.toBe(old);
    await notServed(old);
    await served(now);
  });

  it('one image shared by several rows stays served until the last of them lets it go', async () => {
    const png = await solidImage(35, 35, 'png');
    const owner = await newOwner(t.app, 'Shared Pictures');
    const asProfile = await owner.c.postMultipart(
      `/api/users/${owner.userId}/update-uploaded-profile-image`,
      multipartBody([file(png)]),
    );
    const path = asProfile.json<User>().uploadedProfileImage ?? '';
    const asLogo = await owner.c.postMultipart(
      `/api/accounts/${owner.accountId}/update-uploaded-profile-image`,
      multipartBody([file(png)]),
    );
    expect(asLogo.json().uploadedProfileImage).toBe(path);
    const form = (
      await owner.c.post('/api/verify-forms', { name: 'Banner', account: owner.accountId })
    ).json();
    const asBanner = await owner.c.patchMultipart(
      `/api/verify-forms/${form.id}/update-banner-image`,
      multipartBody([file(png, 'b.png', 'image/png', 'bannerImage')]),
    );
    expect(asBanner.json().bannerImage).toBe(path);
    const other = await upload([file(png)]);
    expect(other.response.json<User>().uploadedProfileImage).toBe(path);

    const letGo = [
      () => owner.c.patch(`/api/users/${owner.userId}/delete-uploaded-profile-image`),
      () => owner.c.patch(`/api/accounts/${owner.accountId}/delete-uploaded-profile-image`),
      () => owner.c.patch(`/api/verify-forms/${form.id}/delete-banner-image`),
    ];
    for (const step of letGo) {
      expect((await step()).statusCode).toBe(200);
      await served(path);
    }
    // The last user closes nothing but picks another picture.
    await other.c.postMultipart(
      `/api/users/${other.id}/update-uploaded-profile-image`,
      multipartBody([file(await solidImage(36, 36, 'png'))]),
    );
    await notServed(path);
    // Uploaded again: served again at once (the 404 was never cacheable).
    await owner.c.postMultipart(
      `/api/users/${owner.userId}/update-uploaded-profile-image`,
      multipartBody([file(png)]),
    );
    await served(path);
  });

  it("a deleted form's banner is no longer served", async () => {
    const owner = await newOwner(t.app, 'Banner Co');
    const form = (
      await owner.c.post('/api/verify-forms', { name: 'Gone soon', account: owner.accountId })
    ).json();
    const withBanner = await owner.c.patchMultipart(
      `/api/verify-forms/${form.id}/update-banner-image`,
      multipartBody([file(await solidImage(37, 37, 'png'), 'b.png', 'image/png', 'bannerImage')]),
    );
    const path = withBanner.json().bannerImage ?? '';
    await served(path);
    expect(
      (await owner.c.request({ method: 'DELETE', url: `/api/verify-forms/${form.id}` })).statusCode,
    ).toBe(204);
    await notServed(path);
  });

  it('caches revalidate: 304 without the bytes while the image is used, 404 once it is not', async () => {
    const { c, id, response } = await upload([file(await solidImage(38, 38, 'png'))]);
    const path = response.json<User>().uploadedProfileImage ?? '';
    const etag = `"${shaOf(path)}"`;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const revalidated = await t.app.inject({
        method: 'GET',
        url: path,
        headers: { 'if-none-match': ifNoneMatch },
      });
      expect(revalidated.statusCode, ifNoneMatch).toBe(304);
      expect(revalidated.rawPayload.length).toBe(0);
      expect(revalidated.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
      expect(revalidated.headers.etag).toBe(etag);
    }
    const otherTag = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { 'if-none-match': '"other"' },
    });
    expect(otherTag.statusCode).toBe(200);
    expect(otherTag.headers['content-type']).toBe('image/webp');
    await c.patch(`/api/users/${id}/delete-uploaded-profile-image`);
    const gone = await t.app.inject({ method: 'GET', url: path, headers: { 'if-none-match': etag } });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /media/{file}', () => {
  it('answers 404 for unknown or malformed names, and never the web page', async () => {
    for (const url of [
      `/media/${'0'.repeat(64)}.webp`,
      '/media/nope',
      '/media/a/b',
      '/media/',
      `/media/${'A'.repeat(64)}.webp`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Not found.', MainCode_: 'not_found' });
    }
  });

  it('answers HEAD', async () => {
    const { response } = await upload([file(await solidImage(8, 8, 'png'))]);
    const head = await t.app.inject({
      method: 'HEAD',
      url: response.json<User>().uploadedProfileImage ?? '',
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/webp');
  });
});
