/**
 * The production build of the web app, served by the real server for measuring tools (scripts/budgets.ts,
 * scripts/lighthouse.ts): `buildApp` in production mode (precompressed assets, cache headers, `__Host-` cookies, CSP),
 * on a throw-away PGlite directory, listening on a free loopback port.
 *
 * Seeded with what the measured pages show: an owner of a company (e-mail verified, so the SPEC §4 gate lets them in)
 * with a logged-in session, one live form with a 1200×300 banner, and a few verifications made through the public API
 * as consumers make them (each from a test number of the account: nothing is sent and the code is the number's own, so
 * this works without SMTP or Twilio, which production mode requires for real sends). The data is made through the
 * same helpers as the server's API tests (apps/server/src/test-support) rather than a copy of them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateAccountResponse, SendCodeResponse } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/database.ts';
import { createPasswords } from '../../apps/server/src/lib/passwords.ts';
import { processImage } from '../../apps/server/src/modules/media/images.ts';
import { cookieNames } from '../../apps/server/src/plugins/cookies.ts';
import { TestClient } from '../../apps/server/src/test-support/client.ts';
import {
  createPublicForm,
  newCellPhone,
  newConsumer,
} from '../../apps/server/src/test-support/public-verify.ts';
import { nextIp, type Owner } from '../../apps/server/src/test-support/teams.ts';

/** Passwords at the production cost (lib/passwords.ts), as the app hashes them. */
const { hashPassword } = createPasswords({ fast: false });

export type ServedBuild = {
  /** `http://localhost:{port}`: localhost, so Chromium accepts the production `Secure` / `__Host-` cookies over HTTP. */
  origin: string;
  /** The live form's public id: the public page is `${origin}/f/${publicId}`. */
  publicId: string;
  /** The owner's session cookie, for pages behind the login. */
  session: { name: string; value: string };
  close(): Promise<void>;
};

/**
 * The owner's session as a cookie for Playwright's `addCookies`: host-only and Secure, as production's `__Host-` name
 * requires. CDP refuses a Secure cookie for an http:// URL, but Chromium sends it to http://localhost (a secure
 * context); the https:// form sets it for every port of the host.
 */
export function sessionCookie(served: ServedBuild) {
  const host = new URL(served.origin).hostname;
  return {
    ...served.session,
    url: `https://${host}`,
    secure: true,
    httpOnly: true,
    sameSite: 'Lax' as const,
  };
}

const webRoot = join(import.meta.dirname, '..', '..', 'apps', 'web');

/** Fails with the fix when the build is missing (these tools measure the build, never the dev server). */
export function assertBuilt(): void {
  for (const page of ['index.html', 'verify.html']) {
    if (!existsSync(join(webRoot, 'dist', page))) {
      console.error(
        `The web app is not built (apps/web/dist/${page} is missing): run \`npm run build\` first.`,
      );
      process.exit(2);
    }
  }
}

export async function serveBuild(options: { verifications?: number } = {}): Promise<ServedBuild> {
  assertBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'veriform-served-build-'));
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SMTP_URL: '',
    TWILIO_ACCOUNT_SID: '',
    SECRET_KEY: randomBytes(32).toString('base64url'),
    PUBLIC_URL: 'http://localhost',
    // 'error': production mode warns at start that SMTP and Twilio are unset, which is the point here.
    LOG_LEVEL: 'error',
  });
  const database = openDatabase(config);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const close = async () => {
    await app?.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await database.migrate();
    app = await buildApp(config, { db: database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    // The owner: inserted verified (production sends no e-mail without SMTP), then logged in as the login does.
    const { db } = database;
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    const password = randomBytes(12).toString('base64url');
    const [user] = await db
      .insert(schema.users)
      .values({
        email,
        name: 'Ada Lovelace',
        passwordHash: await hashPassword(password),
        emailIsVerified: true,
        emailVerifiedAsOf: new Date(),
      })
      .returning({ id: schema.users.id });
    if (!user) throw new Error('owner insert returned no row');
    const { id: sessionId } = await app.services.sessions.create(user.id, {
      ip: '127.0.0.1',
      userAgent: 'served-build',
    });
    const sessionName = cookieNames(config).session;
    const c = new TestClient(app, nextIp());
    c.cookies.set(sessionName, sessionId);
    await c.fetchCsrf();
    const created = await c.post('/api/accounts', { displayName: 'Acme Lending' });
    if (created.statusCode !== 201) throw new Error(`create account: ${created.statusCode} ${created.body}`);
    const { membership } = created.json<CreateAccountResponse>();
    const owner: Owner = {
      c,
      userId: user.id,
      email,
      password,
      membership,
      accountId: membership.account.id,
    };

    const form = await createPublicForm(owner, { name: 'Loan application', category: 'Lending' });
    // The banner as an upload leaves it (processImage + the media store); set on the row, as the banner route does.
    const banner = await sharp({ create: { width: 1200, height: 300, channels: 3, background: '#2255aa' } })
      .png()
      .toBuffer();
    const bannerImage = await app.services.media.store(await processImage(banner));
    await db.update(schema.verifyForms).set({ bannerImage }).where(eq(schema.verifyForms.id, form.id));

    for (let n = 1; n <= (options.verifications ?? 0); n++) {
      const cellPhone = newCellPhone().e164;
      const code = String(100_000 + n);
      const added = await c.post('/api/test-phone-numbers', { account: owner.accountId, cellPhone, code });
      if (added.statusCode !== 201) throw new Error(`test number: ${added.statusCode} ${added.body}`);
      const consumer = await newConsumer(app, form.publicId);
      const sent = await consumer.sendCode(form.publicId, {
        cellPhone,
        method: 'sms',
        externalRefId: `LN-${String(n).padStart(4, '0')}`,
      });
      if (sent.statusCode !== 201) throw new Error(`send-code: ${sent.statusCode} ${sent.body}`);
      const checked = await consumer.check(sent.json<SendCodeResponse>().attemptId, code);
      if (checked.statusCode !== 200) throw new Error(`check: ${checked.statusCode} ${checked.body}`);
    }
    // Production mode sends nothing without SMTP or Twilio, so the codes went to test numbers: test data, which the
    // activity log leaves out unless asked (issue #33). The measured pages are a live account's, so the seed is
    // marked live.
    await db.update(schema.verificationAttempts).set({ isTest: false });
    await db.update(schema.verifications).set({ isTest: false });

    return {
      origin: `http://localhost:${port}`,
      publicId: form.publicId,
      session: { name: sessionName, value: sessionId },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
