import type { Membership } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import {
  CURRENT_MEMBERSHIP_KEY,
  chooseCurrentMembership,
  type KeyValueStore,
  rememberCurrentMembership,
} from './current-membership';

const membership = (id: number): Membership => ({
  id,
  role: 'member',
  canSearchData: false,
  canViewReports: false,
  account: { id: id * 10, displayName: `Account ${id}`, uploadedProfileImage: null },
});

const [m1, m2, m3, m4] = [membership(1), membership(2), membership(3), membership(4)];
const memberships = [m1, m2, m3, m4] as Membership[];

function store(entries: Record<string, string> = {}): KeyValueStore & { entries: Record<string, string> } {
  return {
    entries,
    getItem: (key) => entries[key] ?? null,
    setItem: (key, value) => {
      entries[key] = value;
    },
  };
}

const base = { memberships, userId: 5, sessionStore: store(), localStore: store(), serverCurrent: null };

describe('chooseCurrentMembership (SPEC §4 order)', () => {
  it('prefers session storage', () => {
    const chosen = chooseCurrentMembership({
      ...base,
      sessionStore: store({ 'currentMembership:5': '3' }),
      localStore: store({ 'currentMembership:5': '2' }),
      serverCurrent: m4 ?? null,
    });
    expect(chosen?.id).toBe(3);
  });

  it('then local storage', () => {
    const chosen = chooseCurrentMembership({
      ...base,
      localStore: store({ 'currentMembership:5': '2' }),
      serverCurrent: m4 ?? null,
    });
    expect(chosen?.id).toBe(2);
  });

  it('reads the literal key when the per-user key is absent', () => {
    const chosen = chooseCurrentMembership({ ...base, localStore: store({ [CURRENT_MEMBERSHIP_KEY]: '3' }) });
    expect(chosen?.id).toBe(3);
  });

  it('then the server-provided current membership', () => {
    expect(chooseCurrentMembership({ ...base, serverCurrent: m4 ?? null })?.id).toBe(4);
  });

  it('then the first membership', () => {
    expect(chooseCurrentMembership(base)?.id).toBe(1);
  });

  it('ignores remembered ids that are not the user’s and storages that throw', () => {
    const throwing: KeyValueStore = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {},
    };
    const chosen = chooseCurrentMembership({
      ...base,
      sessionStore: throwing,
      localStore: store({ 'currentMembership:5': '99', [CURRENT_MEMBERSHIP_KEY]: 'x' }),
      serverCurrent: m2 ?? null,
    });
    expect(chosen?.id).toBe(2);
  });

  it('is null without memberships', () => {
    expect(chooseCurrentMembership({ ...base, memberships: [], serverCurrent: m1 ?? null })).toBeNull();
  });
});

describe('rememberCurrentMembership', () => {
  it('writes both keys into both storages', () => {
    const s = store();
    const l = store();
    rememberCurrentMembership(3, 5, [s, l]);
    expect(s.entries).toEqual({ 'currentMembership:5': '3', currentMembership: '3' });
    expect(l.entries).toEqual({ 'currentMembership:5': '3', currentMembership: '3' });
  });
});
