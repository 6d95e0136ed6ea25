import { describe, expect, it } from 'vitest';
import { anonymousCsrfToken } from './first-paint-token';

function pageWith(data: unknown): Document {
  const doc = document.implementation.createHTMLDocument();
  const script = doc.createElement('script');
  script.id = 'initial-data';
  script.type = 'application/json';
  script.textContent = typeof data === 'string' ? data : JSON.stringify(data);
  doc.body.append(script);
  return doc;
}

const anonymous = {
  user: { isAuthenticated: false, id: null },
  memberships: [],
  currentMembership: null,
  csrfToken: 'token-1',
  extra: { signaling: { immediatelyRedirectTo: null } },
};

describe('which login pages get the first-paint form (main.tsx)', () => {
  it('an anonymous visitor’s page gives its CSRF token', () => {
    expect(anonymousCsrfToken(pageWith(anonymous))).toBe('token-1');
  });

  it('a signed-in user goes to the app (its guard sends them on)', () => {
    expect(anonymousCsrfToken(pageWith({ ...anonymous, user: { isAuthenticated: true, id: 4 } }))).toBeNull();
  });

  it('a redirect the server asks for is the app’s to make', () => {
    const extra = { signaling: { immediatelyRedirectTo: '/settings/my-account' } };
    expect(anonymousCsrfToken(pageWith({ ...anonymous, extra }))).toBeNull();
  });

  it('missing or malformed data goes to the app, which falls back to an anonymous visitor', () => {
    expect(anonymousCsrfToken(document.implementation.createHTMLDocument())).toBeNull();
    expect(anonymousCsrfToken(pageWith('{not json'))).toBeNull();
    expect(anonymousCsrfToken(pageWith({ ...anonymous, csrfToken: 7 }))).toBeNull();
    expect(anonymousCsrfToken(pageWith({ ...anonymous, user: null }))).toBeNull();
  });
});
