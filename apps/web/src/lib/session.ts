import { type QueryClient, skipToken, useQuery } from '@tanstack/react-query';
import {
  type Account,
  type AuthResponse,
  anonymousUser,
  type InitialData,
  type Membership,
  type User,
} from '@veriform/contracts';
import {
  browserStores,
  chooseCurrentMembership,
  type KeyValueStore,
  rememberCurrentMembership,
} from './current-membership';
import { useServices } from './services';

/** Who is signed in, their memberships and the one currently in use (SPEC §3, §4). */
export interface Session {
  user: User;
  memberships: Membership[];
  currentMembership: Membership | null;
}

export const sessionQueryKey = ['session'] as const;

export const anonymousSession: Session = { user: anonymousUser, memberships: [], currentMembership: null };

/**
 * How an auth answer changes the current membership: `reset` after login, logout, sign-up or an e-mail confirmation
 * (SPEC §4: reset from server data); `keep` on a session refresh (the user's own choice stays while still valid).
 */
export type CurrentMembershipMode = 'reset' | 'keep';

interface Stores {
  sessionStore: KeyValueStore | null;
  localStore: KeyValueStore | null;
}

/**
 * The session lives in the TanStack Query cache under `sessionQueryKey` (never stale, never collected), seeded from
 * the initial page data and replaced by every auth response. Route guards read it synchronously through `get()`;
 * components subscribe with `useSession()`.
 */
export class SessionStore {
  readonly queryClient: QueryClient;
  private readonly stores: Stores;

  constructor(queryClient: QueryClient, stores: Stores = browserStores()) {
    this.queryClient = queryClient;
    this.stores = stores;
    queryClient.setQueryDefaults(sessionQueryKey, {
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
    });
  }

  get(): Session {
    return this.queryClient.getQueryData<Session>(sessionQueryKey) ?? anonymousSession;
  }

  set(session: Session): void {
    const previous = this.queryClient.getQueryData<Session>(sessionQueryKey);
    if (previous && previous.user.id !== session.user.id) {
      // Another person (or nobody): nothing cached for the previous user may survive.
      this.queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    }
    this.queryClient.setQueryData<Session>(sessionQueryKey, session);
  }

  /** From the initial page data, with the full SPEC §4 order (storages first). */
  seed(initial: Pick<InitialData, 'user' | 'memberships' | 'currentMembership'>): Session {
    const session: Session = {
      user: initial.user,
      memberships: initial.memberships,
      currentMembership: chooseCurrentMembership({
        memberships: initial.memberships,
        userId: initial.user.id,
        serverCurrent: initial.currentMembership,
        ...this.stores,
      }),
    };
    this.queryClient.setQueryData<Session>(sessionQueryKey, session);
    return session;
  }

  /** The session an auth response describes, without storing it (a query function returns it). */
  fromAuthResponse(response: AuthResponse, mode: CurrentMembershipMode): Session {
    const { user, memberships } = response;
    const previous = this.get();
    let current: Membership | null = null;
    if (mode === 'keep' && previous.user.id === user.id && previous.currentMembership) {
      const kept = previous.currentMembership.id;
      current = memberships.find((m) => m.id === kept) ?? null;
    }
    if (!current) {
      const serverId = response.currentMembership?.id;
      current = memberships.find((m) => m.id === serverId) ?? memberships[0] ?? null;
      // Reset (SPEC §4), or the kept membership is gone (removed from that account): the new one is remembered.
      const lostPrevious =
        mode === 'keep' && previous.user.id === user.id && previous.currentMembership !== null;
      if (current && (mode === 'reset' || lostPrevious)) {
        rememberCurrentMembership(current.id, user.id, [this.stores.sessionStore, this.stores.localStore]);
      }
    }
    return { user, memberships, currentMembership: current };
  }

  applyAuthResponse(response: AuthResponse, mode: CurrentMembershipMode): Session {
    const session = this.fromAuthResponse(response, mode);
    this.set(session);
    return session;
  }

  /** A user answer (`userEndpoints`: the name and the image calls) replaces the stored user (SPEC §7). */
  replaceUser(user: User): Session {
    const session = { ...this.get(), user };
    this.set(session);
    return session;
  }

  /** Forget the user (after a "not authenticated" answer). */
  clear(): void {
    this.set(anonymousSession);
  }

  /** Make a membership current locally and remember it (the server is told by the caller). */
  selectMembership(membership: Membership): void {
    const session = this.get();
    this.remember(membership.id);
    this.set({ ...session, currentMembership: membership });
  }

  /**
   * SPEC §4: a new membership (account created, invitation accepted) goes first and becomes current (remembered in
   * both storages; the caller tells the server).
   */
  addMembership(membership: Membership): Session {
    const session = this.get();
    const next: Session = {
      ...session,
      memberships: [membership, ...session.memberships.filter((m) => m.id !== membership.id)],
      currentMembership: membership,
    };
    this.remember(membership.id);
    this.set(next);
    return next;
  }

  /**
   * The user's memberships as the server now lists them. The current one stays while it is still there (with the
   * server's fresh role and permissions); otherwise it is recomputed by the SPEC §4 order and remembered.
   * `currentChanged` tells the caller to tell the server (select call).
   */
  replaceMemberships(memberships: readonly Membership[]): { session: Session; currentChanged: boolean } {
    const session = this.get();
    const previousId = session.currentMembership?.id ?? null;
    const kept = memberships.find((m) => m.id === previousId);
    const current =
      kept ??
      chooseCurrentMembership({
        memberships,
        userId: session.user.id,
        serverCurrent: null,
        ...this.stores,
      });
    const currentChanged = (current?.id ?? null) !== previousId;
    if (current && currentChanged) this.remember(current.id);
    const next: Session = { ...session, memberships: [...memberships], currentMembership: current };
    this.set(next);
    return { session: next, currentChanged };
  }

  /** SPEC §4: removing a membership (left, or removed) makes the recomputed one current. */
  removeMembership(membershipId: number): { session: Session; currentChanged: boolean } {
    return this.replaceMemberships(this.get().memberships.filter((m) => m.id !== membershipId));
  }

  /** One of the user's memberships changed (role, permissions): the list and the current one show it. */
  updateMembership(changes: Pick<Membership, 'id'> & Partial<Omit<Membership, 'id'>>): void {
    const session = this.get();
    if (!session.memberships.some((m) => m.id === changes.id)) return;
    const apply = (m: Membership): Membership => (m.id === changes.id ? { ...m, ...changes } : m);
    this.set({
      ...session,
      memberships: session.memberships.map(apply),
      currentMembership: session.currentMembership ? apply(session.currentMembership) : null,
    });
  }

  /** An account answer (rename, logo) replaces that account wherever the session shows it. */
  replaceAccount(account: Account): void {
    const session = this.get();
    const apply = (m: Membership): Membership => (m.account.id === account.id ? { ...m, account } : m);
    this.set({
      ...session,
      memberships: session.memberships.map(apply),
      currentMembership: session.currentMembership ? apply(session.currentMembership) : null,
    });
  }

  private remember(membershipId: number): void {
    rememberCurrentMembership(membershipId, this.get().user.id, [
      this.stores.sessionStore,
      this.stores.localStore,
    ]);
  }
}

/** The session, re-rendering on every change. Read-only: refreshing is `features/auth` (`authEndpoints.refreshMe`). */
export function useSession(): Session {
  const { session } = useServices();
  const { data } = useQuery<Session>({ queryKey: sessionQueryKey, queryFn: skipToken });
  return data ?? session.get();
}
