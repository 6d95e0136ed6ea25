import type { AuthSession } from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { newOwner, newPerson } from '../../test-support/teams.ts';
import { describeDevice } from './device.ts';
import { describePlace } from './place.ts';

const t = useTestApp();

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Signs the person in again from another device (its own IP and user agent): a second session. */
async function signInFrom(person: { email: string; password: string }, ip: string, userAgent: string) {
  const c = new TestClient(t.app, ip);
  await c.fetchCsrf();
  const response = await c.request({
    method: 'POST',
    url: '/api/auth/login',
    body: { email: person.email, password: person.password },
    headers: { 'user-agent': userAgent },
  });
  expect(response.statusCode).toBe(200);
  return c;
}

async function listOf(c: TestClient): Promise<AuthSession[]> {
  const response = await c.get('/api/auth/sessions');
  expect(response.statusCode).toBe(200);
  return response.json<AuthSession[]>();
}

const del = (c: TestClient, url: string) => c.request({ method: 'DELETE', url });
const signedIn = async (c: TestClient) =>
  (await c.post('/api/auth/refresh-me')).json<{ user: { isAuthenticated: boolean } }>().user.isAuthenticated;

describe('the person’s sessions', () => {
  it('lists live sessions with a derived id, the current one, device and place, and nothing of the cookie', async () => {
    const person = await newPerson(t.app);
    const phone = await signInFrom(person, '192.168.1.20', SAFARI_IPHONE);
    const laptop = await signInFrom(person, '203.0.113.9', CHROME_MAC);
    const list = await listOf(laptop);
    expect(list).toHaveLength(3);
    const current = list.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({
      device: 'Chrome on macOS',
      ip: '203.0.113.9',
      place: null,
      signedInWith: 'password',
      userAgent: CHROME_MAC,
    });
    expect(list.find((s) => s.ip === '192.168.1.20')).toMatchObject({
      device: 'Safari on iPhone',
      place: 'Private network',
      current: false,
    });
    const cookies = [...person.c.cookies.values(), ...phone.cookies.values(), ...laptop.cookies.values()];
    const rows = await t.db.db
      .select()
      .from(schema.sessions)
      .where(eq(schema.sessions.userId, person.userId));
    for (const s of list) {
      expect(s.id).toMatch(/^[0-9a-f]{24}$/);
      for (const secret of [...cookies, ...rows.map((r) => r.idHash)]) expect(secret).not.toContain(s.id);
    }
    // An expired session is not listed.
    await t.db.db
      .update(schema.sessions)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(and(eq(schema.sessions.userId, person.userId), eq(schema.sessions.ip, '192.168.1.20')));
    expect(await listOf(laptop)).toHaveLength(2);
    expect(await signedIn(phone)).toBe(false);
  });

  it('ends one session; another person’s id, an unknown one and an expired one answer 404', async () => {
    const person = await newPerson(t.app);
    const other = await newPerson(t.app);
    const phone = await signInFrom(person, '10.1.0.2', SAFARI_IPHONE);
    const phoneSession = (await listOf(phone)).find((s) => s.current);
    if (!phoneSession) throw new Error('no current session');
    for (const id of [phoneSession.id, '0'.repeat(24), 'x'.repeat(64)]) {
      const refused = await del(other.c, `/api/auth/sessions/${id}`);
      expect(refused.statusCode, id).toBe(404);
      expect(refused.json().MainCode_).toBe('not_found');
    }
    expect((await del(person.c, `/api/auth/sessions/${'a'.repeat(65)}`)).statusCode).toBe(400);
    expect(await signedIn(phone)).toBe(true);
    expect((await del(person.c, `/api/auth/sessions/${phoneSession.id}`)).statusCode).toBe(204);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(person.c)).toBe(true);
    expect((await del(person.c, `/api/auth/sessions/${phoneSession.id}`)).statusCode).toBe(404);
    // An expired session is no longer there to end.
    const later = await signInFrom(person, '10.1.0.3', CHROME_MAC);
    const laterId = (await listOf(later)).find((s) => s.current)?.id;
    await t.db.db
      .update(schema.sessions)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1) })
      .where(and(eq(schema.sessions.userId, person.userId), eq(schema.sessions.ip, '10.1.0.3')));
    expect((await del(person.c, `/api/auth/sessions/${laterId}`)).statusCode).toBe(404);
  });

  it('ending the current session signs out', async () => {
    const person = await newPerson(t.app);
    const own = (await listOf(person.c)).find((s) => s.current);
    const response = await del(person.c, `/api/auth/sessions/${own?.id}`);
    expect(response.statusCode).toBe(204);
    expect(await signedIn(person.c)).toBe(false);
  });

  it('ends all the others at once, and records it', async () => {
    const owner = await newOwner(t.app);
    const phone = await signInFrom(owner, '10.2.0.2', SAFARI_IPHONE);
    const laptop = await signInFrom(owner, '10.2.0.3', CHROME_MAC);
    const other = await newPerson(t.app);
    expect((await del(owner.c, '/api/auth/sessions')).statusCode).toBe(204);
    expect(await signedIn(phone)).toBe(false);
    expect(await signedIn(laptop)).toBe(false);
    expect(await signedIn(owner.c)).toBe(true);
    // Nobody else's.
    expect(await signedIn(other.c)).toBe(true);
    expect(await listOf(owner.c)).toHaveLength(1);
    const events = await t.db.db
      .select()
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'auth.session_ended'),
        ),
      );
    expect(events.map((e) => e.changes)).toEqual([{ others: 2 }]);
    // Nothing left to end: no event.
    expect((await del(owner.c, '/api/auth/sessions')).statusCode).toBe(204);
  });

  it('ends each session once when both ends race (20 at once): one event', async () => {
    const owner = await newOwner(t.app);
    const phone = await signInFrom(owner, '10.3.0.2', SAFARI_IPHONE);
    const id = (await listOf(phone)).find((s) => s.current)?.id;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => del(owner.c, `/api/auth/sessions/${id}`)),
    );
    expect(results.filter((r) => r.statusCode === 204)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 404)).toHaveLength(19);
    const events = await t.db.db
      .select()
      .from(schema.auditEvents)
      .where(
        and(
          eq(schema.auditEvents.accountId, owner.accountId),
          eq(schema.auditEvents.action, 'auth.session_ended'),
        ),
      );
    expect(events).toHaveLength(1);
  });

  it('needs a signed-in caller', async () => {
    const c = new TestClient(t.app, '10.4.0.1');
    await c.fetchCsrf();
    expect((await c.get('/api/auth/sessions')).statusCode).toBe(401);
    expect((await del(c, '/api/auth/sessions')).statusCode).toBe(401);
    expect((await del(c, `/api/auth/sessions/${'0'.repeat(24)}`)).statusCode).toBe(401);
  });
});

describe('reading a session’s device and place', () => {
  it.each([
    [CHROME_MAC, 'Chrome on macOS'],
    [SAFARI_IPHONE, 'Safari on iPhone'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
      'Samsung Internet on Android',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1',
      'Chrome on iPad',
    ],
    ['curl/8.5.0', 'curl'],
    ['', 'Unknown device'],
    [null, 'Unknown device'],
    ['???', 'Unknown device'],
  ])('%s → %s', (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });

  it.each([
    ['127.0.0.1', 'Loopback'],
    ['::1', 'Loopback'],
    ['::ffff:127.0.0.1', 'Loopback'],
    ['10.0.0.1', 'Private network'],
    ['172.16.5.4', 'Private network'],
    ['192.168.0.1', 'Private network'],
    ['fd12:3456::1', 'Private network'],
    ['fe80::1', 'Private network'],
    ['169.254.1.1', 'Private network'],
    ['203.0.113.9', null],
    ['2001:db8::1', null],
    ['8.8.8.8', null],
    [null, null],
    ['not an ip', null],
  ])('%s → %s', (ip, expected) => {
    expect(describePlace(ip)).toBe(expected);
  });
});
