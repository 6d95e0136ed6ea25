import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  type KeepCredentials,
  type Membership,
  membershipEndpoints,
  type OwnedCredentials,
  type SelectMembershipResponse,
  type TeamMembership,
  type TeamMembershipList,
  type UpdatePermissionsRequest,
  type UpdateRoleRequest,
} from '@veriform/contracts';
import { useCallback } from 'react';
import { accountKeys, accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { type Services, useServices } from '../../lib/services';
import { apiKeyKeys } from '../api-keys/api';
import { webhookKeys } from '../webhooks/api';

/**
 * One place per membership endpoint (SPEC §7): the fetcher, then its query options or mutation hook. The endpoints
 * themselves (method, path, schemas) are the contract's `membershipEndpoints`, which the server registers.
 */

/** Tells the server which account is current (SPEC §4). */
export function selectMembership(api: ApiClient, membershipId: number): Promise<SelectMembershipResponse> {
  return api.call(membershipEndpoints.select, { params: { id: membershipId }, body: {} });
}

/** Tells the server without failing the caller: the local choice already holds, the next select call repeats it. */
function tellServer(api: ApiClient, membershipId: number): Promise<void> {
  return selectMembership(api, membershipId).then(
    () => undefined,
    (error: unknown) => console.warn('Could not tell the server about the current membership', error),
  );
}

/** Switch accounts: locally first (remembered in both storages), then tell the server; account data is reloaded. */
export function useSelectMembershipMutation() {
  const { api, session, queryClient } = useServices();
  return useMutation({
    mutationFn: async (membership: Membership) => {
      session.selectMembership(membership);
      await selectMembership(api, membership.id);
      return membership;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountScope }),
  });
}

/**
 * SPEC §4: a membership the user just gained (account created, invitation accepted) goes first and becomes current:
 * remembered in both storages and told to the server.
 */
export async function adoptNewMembership(
  { api, session, queryClient }: Services,
  membership: Membership,
): Promise<void> {
  session.addMembership(membership);
  // A read of the memberships still in flight predates this one: it must not drop it.
  await queryClient.cancelQueries({ queryKey: ownMembershipsQueryKey });
  queryClient.setQueryData(ownMembershipsQueryKey, session.get().memberships);
  await tellServer(api, membership.id);
  await queryClient.invalidateQueries({ queryKey: accountScope });
}

/**
 * The user's memberships as the server lists them now: a membership that is gone (left, or removed by an owner) is
 * dropped and, if it was current, the recomputed one becomes current and the server is told.
 */
export async function applyOwnMemberships(
  { api, session }: Pick<Services, 'api' | 'session'>,
  memberships: readonly Membership[],
): Promise<void> {
  const { session: next, currentChanged } = session.replaceMemberships(memberships);
  if (currentChanged && next.currentMembership) await tellServer(api, next.currentMembership.id);
}

/** A team row without its person: the membership as the session keeps it (and the initial page data has it). */
function membershipOf({ user: _user, created: _created, ...membership }: TeamMembership): Membership {
  return membership;
}

/** The caller's own memberships (no `accountId`), newest first. */
export async function fetchOwnMemberships(api: ApiClient, signal?: AbortSignal): Promise<Membership[]> {
  const list = await api.call(membershipEndpoints.list, { query: {}, signal });
  return list.results.map(membershipOf);
}

export const ownMembershipsQueryKey = ['memberships', 'own'] as const;

export function ownMembershipsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: ownMembershipsQueryKey,
    queryFn: ({ signal }) => fetchOwnMemberships(api, signal),
  });
}

export const OWN_MEMBERSHIPS_STALE_MS = 60_000;

/**
 * Keeps the session's memberships in step with the server while the app is open: re-read when the window regains
 * focus (at most once a minute), so a role change or a removal by an owner shows without a reload (SPEC §4).
 */
export function useOwnMembershipsSync(): void {
  const services = useServices();
  useQuery({
    queryKey: ownMembershipsQueryKey,
    // Only fresh server answers are applied (never a cached list, which may predate later changes).
    queryFn: async ({ signal }) => {
      const memberships = await fetchOwnMemberships(services.api, signal);
      await applyOwnMemberships(services, memberships);
      return memberships;
    },
    initialData: () => services.session.get().memberships,
    staleTime: OWN_MEMBERSHIPS_STALE_MS,
    refetchOnWindowFocus: true,
  });
}

/** Re-reads the user's memberships and applies them (after a 404 on the current account: probably removed). */
export function useRefreshOwnMemberships() {
  const services = useServices();
  return useCallback(async () => {
    try {
      const memberships = await fetchOwnMemberships(services.api);
      services.queryClient.setQueryData(ownMembershipsQueryKey, memberships);
      await applyOwnMemberships(services, memberships);
    } catch (error) {
      console.warn('Could not refresh the memberships', error);
    }
  }, [services]);
}

/** The team of that account (any member may look), oldest first. */
export function fetchTeam(
  api: ApiClient,
  accountId: number,
  signal?: AbortSignal,
): Promise<TeamMembershipList> {
  return api.call(membershipEndpoints.list, { query: { accountId }, signal });
}

export function teamQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: accountKeys.team(accountId),
    queryFn: ({ signal }) => fetchTeam(api, accountId, signal),
  });
}

/** A changed team membership replaces its row; when it is the user's own, the session (sidebar, rights) follows. */
function applyTeamMembership({ session, queryClient }: Services, accountId: number, updated: TeamMembership) {
  queryClient.setQueryData<TeamMembershipList>(accountKeys.team(accountId), (list) =>
    list ? { ...list, results: list.results.map((m) => (m.id === updated.id ? updated : m)) } : list,
  );
  if (updated.user.id === session.get().user.id) session.updateMembership(membershipOf(updated));
}

export function fetchOwnedCredentials(
  api: ApiClient,
  membershipId: number,
  signal?: AbortSignal,
): Promise<OwnedCredentials> {
  return api.call(membershipEndpoints.ownedCredentials, { params: { id: membershipId }, signal });
}

/** Read afresh each time the dialog opens: it must show what the change takes now. */
export function ownedCredentialsQueryOptions(api: ApiClient, accountId: number, membershipId: number) {
  return queryOptions({
    queryKey: [...accountScope, accountId, 'owned-credentials', membershipId] as const,
    queryFn: ({ signal }) => fetchOwnedCredentials(api, membershipId, signal),
    staleTime: 0,
    gcTime: 0,
  });
}

/** Keys and endpoints a removal or demotion revoked or disabled: their lists are read again (ADR 30). */
function invalidateCredentials({ queryClient }: Pick<Services, 'queryClient'>, accountId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: apiKeyKeys.list(accountId) }),
    queryClient.invalidateQueries({ queryKey: webhookKeys.all(accountId) }),
  ]);
}

export function updateMembershipRole(
  api: ApiClient,
  membershipId: number,
  body: UpdateRoleRequest,
): Promise<TeamMembership> {
  return api.call(membershipEndpoints.updateRole, { params: { id: membershipId }, body });
}

/**
 * The row shows the change at once (a switch flips when clicked); a refusal puts the previous team back, the
 * server's answer replaces the row.
 */
function optimisticTeamUpdate<Vars extends { membershipId: number }>(
  { queryClient }: Services,
  accountId: number,
  change: (membership: TeamMembership, vars: Vars) => TeamMembership,
) {
  const key = accountKeys.team(accountId);
  return {
    onMutate: async (vars: Vars) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<TeamMembershipList>(key);
      if (previous)
        queryClient.setQueryData<TeamMembershipList>(key, {
          ...previous,
          results: previous.results.map((m) => (m.id === vars.membershipId ? change(m, vars) : m)),
        });
      return { previous };
    },
    onError: (_error: unknown, _vars: Vars, context: { previous?: TeamMembershipList } | undefined) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
  };
}

export function useUpdateRoleMutation(accountId: number) {
  const services = useServices();
  type Vars = UpdateRoleRequest & { membershipId: number };
  return useMutation({
    mutationFn: ({ membershipId, ...body }: Vars) => updateMembershipRole(services.api, membershipId, body),
    ...optimisticTeamUpdate<Vars>(services, accountId, (m, { role }) => ({ ...m, role })),
    onSuccess: async (updated) => {
      applyTeamMembership(services, accountId, updated);
      await invalidateCredentials(services, accountId);
    },
  });
}

export function updateMembershipPermissions(
  api: ApiClient,
  membershipId: number,
  body: UpdatePermissionsRequest,
): Promise<TeamMembership> {
  return api.call(membershipEndpoints.updatePermissions, { params: { id: membershipId }, body });
}

export function useUpdatePermissionsMutation(accountId: number) {
  const services = useServices();
  type Vars = UpdatePermissionsRequest & { membershipId: number };
  return useMutation({
    mutationFn: ({ membershipId, ...body }: Vars) =>
      updateMembershipPermissions(services.api, membershipId, body),
    ...optimisticTeamUpdate<Vars>(services, accountId, (m, { canSearchData, canViewReports }) => ({
      ...m,
      canSearchData,
      canViewReports,
    })),
    onSuccess: (updated) => applyTeamMembership(services, accountId, updated),
  });
}

export function deleteMembership(
  api: ApiClient,
  membershipId: number,
  keep?: KeepCredentials,
): Promise<unknown> {
  return api.call(membershipEndpoints.remove, { params: { id: membershipId }, body: keep });
}

/** Removes someone from the team (owners). Leaving is `useLeaveAccountMutation`. */
export function useRemoveMembershipMutation(accountId: number) {
  const services = useServices();
  const { api, queryClient } = services;
  return useMutation({
    mutationFn: ({ membershipId, ...keep }: KeepCredentials & { membershipId: number }) =>
      deleteMembership(api, membershipId, keep),
    onSuccess: async (_answer, { membershipId }) => {
      queryClient.setQueryData<TeamMembershipList>(accountKeys.team(accountId), (list) =>
        list
          ? {
              ...list,
              count: Math.max(0, list.count - 1),
              results: list.results.filter((m) => m.id !== membershipId),
            }
          : list,
      );
      await invalidateCredentials(services, accountId);
    },
  });
}

/** Leaves an account: the membership is dropped and the recomputed one becomes current (SPEC §4). */
export function useLeaveAccountMutation() {
  const services = useServices();
  return useMutation({
    mutationFn: ({ membershipId, ...keep }: KeepCredentials & { membershipId: number }) =>
      deleteMembership(services.api, membershipId, keep),
    onSuccess: async (_answer, { membershipId }) => {
      await services.queryClient.cancelQueries({ queryKey: ownMembershipsQueryKey });
      const { session: next, currentChanged } = services.session.removeMembership(membershipId);
      services.queryClient.setQueryData(ownMembershipsQueryKey, next.memberships);
      if (currentChanged && next.currentMembership) await tellServer(services.api, next.currentMembership.id);
      await services.queryClient.invalidateQueries({ queryKey: accountScope });
    },
  });
}
