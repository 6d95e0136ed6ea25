import { QueryClient } from '@tanstack/react-query';
import { anonymousUser } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { authResponse, makeMembership, makeUser } from '../test/fake-server';
import type { KeyValueStore } from './current-membership';
import { SessionStore, sessionQueryKey } from './session';

function memoryStore(
  entries: Record<string, string> = {},
): KeyValueStore & { entries: Record<string, string> } {
  return {
    entries,
    getItem: (key) => entries[key] ?? null,
    setItem: (key, value) => {
      entries[key] = value;
    },
  };
}

const a = makeMembership({ id: 1 });
const b = makeMembership({ id: 2, account: { id: 22, displayName: 'Beta', uploadedProfileImage: null } });
const user = makeUser({ id: 5 });

function setup(sessionEntries: Record<string, string> = {}, localEntries: Record<string, string> = {}) {
  const queryClient = new QueryClient();
  const stores = { sessionStore: memoryStore(sessionEntries), localStore: memoryStore(localEntries) };
  return { queryClient, stores, session: new SessionStore(queryClient, stores) };
}

describe('SessionStore', () => {
  it('is anonymous before seeding', () => {
    expect(setup().session.get().user).toEqual(anonymousUser);
  });

  it('seeds from the page data, the remembered membership first', () => {
    const { session } = setup({}, { 'currentMembership:5': '2' });
    session.seed({ user, memberships: [a, b], currentMembership: a });
    expect(session.get().currentMembership?.id).toBe(2);
  });

  it('resets the current membership from server data after login and remembers it', () => {
    const { session, stores } = setup({ 'currentMembership:5': '2' });
    session.applyAuthResponse({ ...authResponse(user, [a, b]), currentMembership: a }, 'reset');
    expect(session.get().currentMembership?.id).toBe(1);
    expect(stores.sessionStore.entries['currentMembership:5']).toBe('1');
    expect(stores.localStore.entries.currentMembership).toBe('1');
  });

  it('keeps the user’s own choice on a refresh while it is still valid', () => {
    const { session } = setup();
    session.seed({ user, memberships: [a, b], currentMembership: a });
    session.selectMembership(b);
    expect(
      session.fromAuthResponse({ ...authResponse(user, [a, b]), currentMembership: a }, 'keep')
        .currentMembership?.id,
    ).toBe(2);
    expect(session.fromAuthResponse(authResponse(user, [a]), 'keep').currentMembership?.id).toBe(1);
  });

  it('forgets everything cached for the previous user when the user changes', () => {
    const { session, queryClient } = setup();
    session.seed({ user, memberships: [], currentMembership: null });
    queryClient.setQueryData(['forms'], ['secret']);
    session.clear();
    expect(queryClient.getQueryData(['forms'])).toBeUndefined();
    expect(queryClient.getQueryData(sessionQueryKey)).toBeDefined();
    expect(session.get().user.isAuthenticated).toBe(false);
  });

  it('puts an added membership first and makes it current, remembered in both storages', () => {
    const { session, stores } = setup();
    session.seed({ user, memberships: [a], currentMembership: a });
    session.addMembership(b);
    expect(session.get().memberships.map((m) => m.id)).toEqual([2, 1]);
    expect(session.get().currentMembership?.id).toBe(2);
    for (const store of [stores.sessionStore, stores.localStore]) {
      expect(store.entries['currentMembership:5']).toBe('2');
      expect(store.entries.currentMembership).toBe('2');
    }
  });

  it('recomputes the current membership when it is removed', () => {
    const { session, stores } = setup();
    session.seed({ user, memberships: [a, b], currentMembership: a });
    session.selectMembership(b);
    const { session: next, currentChanged } = session.removeMembership(2);
    expect(currentChanged).toBe(true);
    expect(next.memberships.map((m) => m.id)).toEqual([1]);
    expect(next.currentMembership?.id).toBe(1);
    expect(stores.sessionStore.entries['currentMembership:5']).toBe('1');
    expect(stores.localStore.entries.currentMembership).toBe('1');
  });

  it('keeps the current membership when another one is removed, and has none when the last goes', () => {
    const { session } = setup();
    session.seed({ user, memberships: [a, b], currentMembership: a });
    expect(session.removeMembership(2).currentChanged).toBe(false);
    expect(session.get().currentMembership?.id).toBe(1);
    const last = session.removeMembership(1);
    expect(last.currentChanged).toBe(true);
    expect(last.session.currentMembership).toBeNull();
  });

  it('takes fresh role and permissions from the server list', () => {
    const { session } = setup();
    session.seed({ user, memberships: [a, b], currentMembership: a });
    session.replaceMemberships([{ ...a, role: 'member', canViewReports: false }, b]);
    expect(session.get().currentMembership).toMatchObject({ id: 1, role: 'member', canViewReports: false });
  });

  it('remembers the recomputed membership when a refresh no longer lists the current one', () => {
    const { session, stores } = setup();
    session.seed({ user, memberships: [a, b], currentMembership: a });
    session.selectMembership(b);
    const refreshed = session.fromAuthResponse({ ...authResponse(user, [a]), currentMembership: a }, 'keep');
    expect(refreshed.currentMembership?.id).toBe(1);
    expect(stores.sessionStore.entries['currentMembership:5']).toBe('1');
  });

  it('replaces an account wherever the session shows it', () => {
    const { session } = setup();
    session.seed({ user, memberships: [a, b], currentMembership: a });
    session.replaceAccount({ ...a.account, displayName: 'Renamed' });
    expect(session.get().currentMembership?.account.displayName).toBe('Renamed');
    expect(session.get().memberships[0]?.account.displayName).toBe('Renamed');
  });
});
