import { schema } from '@veriform/db';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { DAY, HOUR } from '../../test-support/clock.ts';

const t = useTestApp();
let nextIp = 1;
const client = () => new TestClient(t.app, `10.13.0.${nextIp++}`);

const isLoggedIn = async (c: TestClient) =>
  (await c.post('/api/auth/refresh-me')).json<{ user: { isAuthenticated: boolean } }>().user.isAuthenticated;

/** The Max-Age of the session cookie this answer sets, if it sets one. */
function sessionCookieMaxAge(setCookie: string | string[] | undefined): number | undefined {
  const line = [setCookie ?? []].flat().find((cookie) => cookie.startsWith('vf_session='));
  const maxAge = line?.match(/Max-Age=(\d+)/i)?.[1];
  return maxAge === undefined ? undefined : Number(maxAge);
}

describe('absolute session lifetime (30 days from the login)', () => {
  it('a session used every day still ends 30 days after it began', async () => {
    const c = client();
    await c.signupNew();
    for (let day = 1; day <= 29; day++) {
      t.clock.advance(DAY);
      const response = await c.post('/api/auth/refresh-me');
      expect(response.json().user.isAuthenticated, `day ${day}`).toBe(true);
      // The browser is told to keep the cookie no longer than the server keeps the session.
      const maxAge = sessionCookieMaxAge(response.headers['set-cookie']);
      expect(maxAge, `day ${day}`).toBe(Math.min(14, 30 - day) * (DAY / 1000));
    }
    t.clock.advance(DAY - HOUR);
    expect(await isLoggedIn(c)).toBe(true);
    t.clock.advance(HOUR);
    const ended = await c.post('/api/auth/refresh-me');
    expect(ended.json().user.isAuthenticated).toBe(false);
    // The dead id is cleared from the browser.
    expect(sessionCookieMaxAge(ended.headers['set-cookie'])).toBe(0);
    expect(
      [ended.headers['set-cookie'] ?? []].flat().some((cookie) => cookie.startsWith('vf_session=;')),
    ).toBe(true);
  });

  it('also ends a session whose stored expiry lies further out (rows from before the rule)', async () => {
    const c = client();
    const { id } = await c.signupNew();
    await t.db.db
      .update(schema.sessions)
      .set({ expiresAt: sql`${schema.sessions.createdAt} + interval '90 days'` })
      .where(sql`${schema.sessions.userId} = ${id}`);
    t.clock.advance(30 * DAY - HOUR);
    expect(await isLoggedIn(c)).toBe(true);
    t.clock.advance(HOUR);
    expect(await isLoggedIn(c)).toBe(false);
  });

  it('logging in again starts a new 30 days', async () => {
    const c = client();
    const { payload } = await c.signupNew();
    t.clock.advance(29 * DAY);
    const again = client();
    expect((await again.login(payload.email, payload.password)).statusCode).toBe(200);
    t.clock.advance(2 * DAY);
    expect(await isLoggedIn(c)).toBe(false);
    expect(await isLoggedIn(again)).toBe(true);
  });
});
