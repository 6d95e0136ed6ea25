import { INITIAL_DATA_ELEMENT_ID, type InitialData } from '@veriform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { anonymousInitialData, parseInitialData } from './initial-data';

const data: InitialData = {
  user: {
    id: 7,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    uploadedProfileImage: null,
    isAuthenticated: true,
    emailIsVerified: true,
    emailVerifiedAsOf: '2026-01-01T00:00:00Z',
  },
  memberships: [],
  currentMembership: null,
  csrfToken: 'tok',
  extra: { verifyEmailConfirm: { isValid: true } },
};

function docWith(text: string | null): Document {
  const doc = document.implementation.createHTMLDocument('t');
  if (text !== null) {
    const script = doc.createElement('script');
    script.id = INITIAL_DATA_ELEMENT_ID;
    script.type = 'application/json';
    script.textContent = text;
    doc.head.append(script);
  }
  return doc;
}

describe('parseInitialData', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads the script tag', () => {
    expect(parseInitialData(docWith(JSON.stringify(data)))).toEqual(data);
  });

  it('reads JSON whose "<" the server escaped', () => {
    const escaped = JSON.stringify({ ...data, user: { ...data.user, name: '</script>' } }).replace(
      /</g,
      '\\u003c',
    );
    expect(parseInitialData(docWith(escaped)).user.name).toBe('</script>');
  });

  it('falls back to an anonymous visitor when the tag is missing, broken or off-contract', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(parseInitialData(docWith(null))).toEqual(anonymousInitialData);
    expect(parseInitialData(docWith('{not json'))).toEqual(anonymousInitialData);
    expect(parseInitialData(docWith('{"user": 1}'))).toEqual(anonymousInitialData);
    expect(anonymousInitialData.user.isAuthenticated).toBe(false);
  });
});
