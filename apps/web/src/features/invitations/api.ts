import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type AcceptInvitationResponse,
  type CreateInvitationRequest,
  type Invitation,
  type InvitationList,
  invitationEndpoints,
} from '@veriform/contracts';
import { accountKeys } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';
import { refreshMe } from '../auth/api';
import { adoptNewMembership } from '../memberships/api';

/**
 * One place per invitation endpoint: the fetcher, then its query options or mutation hook. The endpoints themselves
 * (method, path, schemas) are the contract's `invitationEndpoints`, which the server registers.
 */

export function fetchInvitations(
  api: ApiClient,
  accountId: number,
  signal?: AbortSignal,
): Promise<InvitationList> {
  return api.call(invitationEndpoints.list, { query: { accountId }, signal });
}

export function invitationsQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: accountKeys.invitations(accountId),
    queryFn: ({ signal }) => fetchInvitations(api, accountId, signal),
  });
}

type ListUpdate = (results: Invitation[]) => Invitation[];

function useUpdateInvitationList(accountId: number) {
  const { queryClient } = useServices();
  return (update: ListUpdate) =>
    queryClient.setQueryData<InvitationList>(accountKeys.invitations(accountId), (list) => {
      if (!list) return list;
      const results = update(list.results);
      return { ...list, count: list.count + (results.length - list.results.length), results };
    });
}

export function createInvitation(api: ApiClient, body: CreateInvitationRequest): Promise<Invitation> {
  return api.call(invitationEndpoints.create, { body });
}

export function useCreateInvitationMutation(accountId: number) {
  const { api } = useServices();
  const updateList = useUpdateInvitationList(accountId);
  return useMutation({
    mutationFn: (body: Omit<CreateInvitationRequest, 'accountId'>) =>
      createInvitation(api, { ...body, accountId }),
    onSuccess: (invitation) =>
      updateList((results) => [invitation, ...results.filter((i) => i.id !== invitation.id)]),
  });
}

export function resendInvitation(api: ApiClient, invitationId: number): Promise<Invitation> {
  return api.call(invitationEndpoints.resend, { params: { id: invitationId } });
}

export function useResendInvitationMutation(accountId: number) {
  const { api } = useServices();
  const updateList = useUpdateInvitationList(accountId);
  return useMutation({
    mutationFn: (invitationId: number) => resendInvitation(api, invitationId),
    onSuccess: (invitation) =>
      updateList((results) => results.map((i) => (i.id === invitation.id ? invitation : i))),
  });
}

export function revokeInvitation(api: ApiClient, invitationId: number): Promise<unknown> {
  return api.call(invitationEndpoints.revoke, { params: { id: invitationId } });
}

export function useRevokeInvitationMutation(accountId: number) {
  const { api } = useServices();
  const updateList = useUpdateInvitationList(accountId);
  return useMutation({
    mutationFn: (invitationId: number) => revokeInvitation(api, invitationId),
    onSuccess: (_answer, invitationId) =>
      updateList((results) => results.filter((i) => i.id !== invitationId)),
  });
}

/** Accepting proves the mailbox, so the session is re-read afterwards (the address may have become verified). */
export function acceptInvitation(api: ApiClient, key: string): Promise<AcceptInvitationResponse> {
  return api.call(invitationEndpoints.accept, { body: { key } });
}

export function useAcceptInvitationMutation() {
  const services = useServices();
  return useMutation({
    mutationFn: (key: string) => acceptInvitation(services.api, key),
    onSuccess: async ({ membership }) => {
      await adoptNewMembership(services, membership);
      try {
        services.session.applyAuthResponse(await refreshMe(services.api), 'keep');
      } catch (error) {
        console.warn('Could not refresh the session after accepting the invitation', error);
      }
    },
  });
}
