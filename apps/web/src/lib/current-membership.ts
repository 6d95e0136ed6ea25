import type { Membership } from '@veriform/contracts';

/** SPEC §9: the literal key, plus one per user (so that two people sharing a browser do not mix accounts). */
export const CURRENT_MEMBERSHIP_KEY = 'currentMembership';

export function membershipStorageKeys(userId: number | null): string[] {
  return userId === null
    ? [CURRENT_MEMBERSHIP_KEY]
    : [`${CURRENT_MEMBERSHIP_KEY}:${userId}`, CURRENT_MEMBERSHIP_KEY];
}

/** The part of the Web Storage API the chooser needs; lets tests pass plain maps. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export interface ChooseCurrentMembershipInput {
  memberships: readonly Membership[];
  userId: number | null;
  sessionStore: KeyValueStore | null;
  localStore: KeyValueStore | null;
  /** The current membership the server put in the initial page data (or an auth response). */
  serverCurrent: Membership | null;
}

function remembered(store: KeyValueStore | null, keys: string[], memberships: readonly Membership[]) {
  if (!store) return undefined;
  for (const key of keys) {
    let raw: string | null;
    try {
      raw = store.getItem(key);
    } catch {
      return undefined;
    }
    const id = raw === null ? Number.NaN : Number(raw);
    const found = memberships.find((m) => m.id === id);
    if (found) return found;
  }
  return undefined;
}

/**
 * SPEC §4: the remembered value in session storage, then in local storage (the per-user key first, then the literal
 * key), then the server's choice, then the first membership. A remembered id that is not one of the user's
 * memberships is ignored, so a value left by another user of the same browser never leaks in.
 */
export function chooseCurrentMembership(input: ChooseCurrentMembershipInput): Membership | null {
  const { memberships, userId, sessionStore, localStore, serverCurrent } = input;
  if (memberships.length === 0) return null;
  const keys = membershipStorageKeys(userId);
  return (
    remembered(sessionStore, keys, memberships) ??
    remembered(localStore, keys, memberships) ??
    (serverCurrent ? memberships.find((m) => m.id === serverCurrent.id) : undefined) ??
    memberships[0] ??
    null
  );
}

/** Remembers the choice in both storages, under both keys (SPEC §4). */
export function rememberCurrentMembership(
  membershipId: number,
  userId: number | null,
  stores: readonly (KeyValueStore | null)[],
): void {
  for (const store of stores) {
    if (!store) continue;
    for (const key of membershipStorageKeys(userId)) {
      try {
        store.setItem(key, String(membershipId));
      } catch {
        // Storage full or disabled (private mode): the choice simply is not remembered.
      }
    }
  }
}

/** `window.sessionStorage` / `localStorage`, or null where the browser refuses access. */
export function browserStores(): { sessionStore: KeyValueStore | null; localStore: KeyValueStore | null } {
  const get = (name: 'sessionStorage' | 'localStorage'): KeyValueStore | null => {
    try {
      return typeof window === 'undefined' ? null : window[name];
    } catch {
      return null;
    }
  };
  return { sessionStore: get('sessionStorage'), localStore: get('localStorage') };
}
