import { describe, expect, it } from 'vitest';
import { safeNext } from './safe-next';

const origin = 'https://app.veriform.test';

describe('safeNext', () => {
  it.each([
    ['/forms/?q=a', '/forms/?q=a'],
    ['/forms/?q=a#top', '/forms/?q=a#top'],
    ['/certificates/abc', '/certificates/abc'],
    ['forms/', '/forms/'],
    [`${origin}/forms/`, '/forms/'],
    ['/forms/%2F%2Fevil.example', '/forms/%2F%2Fevil.example'],
    // The browser reads a scheme equal to the page's without slashes as a path on the same origin.
    ['https:evil.example', '/evil.example'],
  ])('follows the same-origin %j as %j', (next, expected) => {
    expect(safeNext(next, origin)).toBe(expected);
  });

  it.each([
    undefined,
    '',
    // Issue #33 item 3: the decoded `%2F%09%2Fevil.example`; the browser drops the tab and reads `//evil.example`.
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    ' //evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    '/\t\\evil.example',
    '/.//evil.example',
    'https://evil.example',
    'http:evil.example',
    'http:/evil.example',
    'HTTPS://evil.example/forms',
    'http://app.veriform.test/forms/',
    'https://app.veriform.test.evil.example/',
    'https://app.veriform.test@evil.example/',
    '//app.veriform.test@evil.example/',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    '\u0000javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://[::1',
    '/auth/login/',
    '/AUTH/LOGIN/',
    '/forms/../auth/login/',
    '/auth/signup',
    '/settings/logout',
  ])('refuses %j', (next) => {
    expect(safeNext(next, origin)).toBe('/');
  });

  it('gives back a path that the browser reads as the same path again', () => {
    // Whatever comes back is followed again by location.replace or the router: it must not be read differently then.
    for (const next of [
      '/\t/evil.example',
      '/%2F%09%2Fevil.example',
      '/%252F%252Fevil.example',
      '/.//x',
      '/a//b',
    ]) {
      const path = safeNext(next, origin);
      expect(new URL(path, origin).origin).toBe(origin);
      expect(path.startsWith('/')).toBe(true);
      expect(path.startsWith('//')).toBe(false);
    }
  });

  it('keeps an encoded value encoded: a percent-encoded separator is part of a path, not a host', () => {
    expect(safeNext('/%2F%09%2Fevil.example', origin)).toBe('/%2F%09%2Fevil.example');
    expect(safeNext('%2F%2Fevil.example', origin)).toBe('/%2F%2Fevil.example');
    expect(safeNext('/%252F%252Fevil.example', origin)).toBe('/%252F%252Fevil.example');
  });

  it('gives the fallback asked for', () => {
    expect(safeNext('//evil.example', origin, '/forms/')).toBe('/forms/');
  });
});
