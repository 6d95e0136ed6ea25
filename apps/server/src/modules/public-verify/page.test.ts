import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PublicPageData } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { initialDataOf } from '../../test-support/outbox.ts';
import { Consumer, createPublicForm, newCellPhone } from '../../test-support/public-verify.ts';
import { newOwner, nextIp } from '../../test-support/teams.ts';

const t = useTestApp();

async function liveForm(options: Parameters<typeof createPublicForm>[1] = {}) {
  const owner = await newOwner(t.app, 'Acme Lending');
  return { owner, form: await createPublicForm(owner, options) };
}

const pageData = (body: string) => initialDataOf(body) as PublicPageData;

describe('GET /f/{publicId}', () => {
  it('answers the public page with the live form, a CSRF token and the ref', async () => {
    const { form } = await liveForm({ name: 'Auto loan' });
    const consumer = new Consumer(t.app, nextIp());
    const page = await consumer.get(`/f/${form.publicId}?ref=CRM-123`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['content-language']).toBe('en');
    expect(page.body).toContain('<html lang="en">');
    expect(pageData(page.body)).toEqual({
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
      form: {
        publicId: form.publicId,
        name: 'Auto loan',
        company: 'Acme Lending',
        companyDomain: null,
        language: 'en',
        bannerImage: null,
        preview: false,
        consent: null,
        pageViewId: expect.stringMatching(/^pv_[\w-]{22}$/),
      },
      externalRefId: 'CRM-123',
      language: 'en',
    });
    expect(consumer.cookies.get('vf_csrf')).toMatch(/^[\w-]{43}$/);

    // The embedded token is the one the page's POSTs need.
    consumer.csrfToken = pageData(page.body).csrfToken;
    const sent = await consumer.sendCode(form.publicId, {
      cellPhone: newCellPhone().typed,
      method: 'sms',
      externalRefId: 'CRM-123',
    });
    expect(sent.statusCode).toBe(201);
  });

  it('may be framed by our own origin only (the form page previews it), unlike every other page', async () => {
    const { form } = await liveForm();
    const page = await new TestClient(t.app).get(`/f/${form.publicId}`);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    const appPage = await new TestClient(t.app).get('/auth/login/');
    expect(appPage.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('speaks the form language: Content-Language and <html lang>', async () => {
    const { form } = await liveForm({ language: 'es' });
    const page = await new TestClient(t.app).get(`/f/${form.publicId}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-language']).toBe('es');
    expect(page.body).toContain('<html lang="es">');
    expect(pageData(page.body)).toMatchObject({ form: { language: 'es' }, externalRefId: null });
  });

  it.each([
    ['an unknown id', 'AAAAAAAAAAAAAAAA'],
    ['a malformed id', 'not-a-form'],
  ])('answers 404 with the page and no form for %s', async (_name, publicId) => {
    const page = await new TestClient(t.app).get(`/f/${publicId}?ref=X`);
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['content-language']).toBe('en');
    expect(pageData(page.body)).toEqual({
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
      form: null,
      externalRefId: 'X',
      // An unknown link has no language: the page speaks English.
      language: null,
    });
    expect(page.body).toContain('<html lang="en">');
  });

  it("an inactive form's not-available page speaks the form's language (Content-Language, <html lang>)", async () => {
    const { owner, form } = await liveForm({ language: 'es', isLive: false });
    const page = await new TestClient(t.app).get(`/f/${form.publicId}`);
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-language']).toBe('es');
    expect(page.body).toContain('<html lang="es">');
    expect(pageData(page.body)).toMatchObject({ form: null, language: 'es' });

    // Switched off after being live: the same.
    const live = await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: true });
    expect(live.statusCode).toBe(200);
    const off = await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: false });
    expect(off.statusCode).toBe(200);
    const again = await new TestClient(t.app).get(`/f/${form.publicId}`);
    expect(again.statusCode).toBe(404);
    expect(again.headers['content-language']).toBe('es');
    expect(pageData(again.body)).toMatchObject({ form: null, language: 'es' });

    // An English form stays English.
    const { form: english } = await liveForm({ isLive: false });
    const en = await new TestClient(t.app).get(`/f/${english.publicId}`);
    expect(en.headers['content-language']).toBe('en');
    expect(pageData(en.body)).toMatchObject({ form: null, language: 'en' });
  });

  it('answers 404 for an inactive form, except a preview for a member of its account', async () => {
    const { owner, form } = await liveForm({ isLive: false });
    const anonymous = await new TestClient(t.app).get(`/f/${form.publicId}`);
    expect(anonymous.statusCode).toBe(404);
    expect(pageData(anonymous.body).form).toBeNull();

    const asOwner = await owner.c.get(`/f/${form.publicId}`);
    expect(asOwner.statusCode).toBe(200);
    expect(pageData(asOwner.body).form).toMatchObject({ publicId: form.publicId, preview: true });
  });

  it('keeps the ref inside its script element, and an empty ref is none', async () => {
    const { form } = await liveForm();
    const hostile = '</script><script>alert(1)</script>\u2028';
    const page = await new TestClient(t.app).get(`/f/${form.publicId}?ref=${encodeURIComponent(hostile)}`);
    expect(page.body).not.toContain('</script><script>alert(1)');
    expect(pageData(page.body).externalRefId).toBe(hostile.trim());

    const empty = await new TestClient(t.app).get(`/f/${form.publicId}?ref=%20`);
    expect(pageData(empty.body).externalRefId).toBeNull();
  });

  it('answers HEAD like GET, without a body', async () => {
    const { form } = await liveForm();
    const head = await t.app.inject({ method: 'HEAD', url: `/f/${form.publicId}` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['referrer-policy']).toBe('no-referrer');
    expect(head.body).toBe('');
  });
});

describe('the built verify page', () => {
  async function fakeWebBuild(): Promise<string> {
    const root = await mkdtemp(join(tmpdir(), 'vf-web-'));
    await mkdir(join(root, 'dist', 'assets'), { recursive: true });
    await writeFile(
      join(root, 'dist', 'index.html'),
      '<!doctype html><html lang="en"><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div></body></html>',
    );
    await writeFile(
      join(root, 'dist', 'verify.html'),
      '<!doctype html><html lang="en"><head><title>Veriform</title><script type="module" src="/assets/verify-def456.js"></script></head><body><main id="root"></main></body></html>',
    );
    await writeFile(join(root, 'dist', 'assets', 'app-abc123.js'), 'console.log("app");');
    await writeFile(join(root, 'dist', 'assets', 'verify-def456.js'), 'console.log("verify");');
    return root;
  }

  it('serves verify.html with the data at /f/{publicId}, its assets as immutable, and never the raw file', async () => {
    const { form } = await liveForm({ language: 'es' });
    const prod = await buildTestApp(t.db, {
      env: { NODE_ENV: 'production' },
      config: { webRoot: await fakeWebBuild() },
    });
    try {
      const page = await prod.app.inject({ method: 'GET', url: `/f/${form.publicId}?ref=A-1` });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<script type="module" src="/assets/verify-def456.js"></script>');
      expect(page.body).toContain('<html lang="es">');
      expect(page.body).toMatch(/<script id="initial-data" type="application\/json">\{.*<\/script><\/head>/);
      expect(pageData(page.body)).toMatchObject({ form: { publicId: form.publicId }, externalRefId: 'A-1' });
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");

      const asset = await prod.app.inject({ method: 'GET', url: '/assets/verify-def456.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

      // The entry itself is only ever served with its data: /verify.html is just another app path.
      const raw = await prod.app.inject({ method: 'GET', url: '/verify.html' });
      expect(raw.body).toContain('/assets/app-abc123.js');
      expect(raw.body).not.toContain('verify-def456.js');

      const unknown = await prod.app.inject({ method: 'GET', url: '/f/AAAAAAAAAAAAAAAA' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('/assets/verify-def456.js');
      expect(unknown.body).toContain('<html lang="en">');

      // The built page of an inactive Spanish form is Spanish from the first byte.
      const { form: paused } = await liveForm({ language: 'es', isLive: false });
      const inactive = await prod.app.inject({ method: 'GET', url: `/f/${paused.publicId}` });
      expect(inactive.statusCode).toBe(404);
      expect(inactive.body).toContain('<html lang="es">');
      expect(inactive.headers['content-language']).toBe('es');
    } finally {
      await prod.app.close();
    }
  });
});
