import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type Account,
  accountSchema,
  type CompanyInfo,
  type CreateAccountRequest,
  type CreateAccountResponse,
  companyInfoSchema,
  createAccountResponseSchema,
  type UpdateAccountRequest,
} from '@veriform/contracts';
import { accountKeys } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { type Services, useServices } from '../../lib/services';
import { adoptNewMembership } from '../memberships/api';
import { PROFILE_IMAGE_FIELD } from '../users/api';

/** One place per account endpoint: the fetcher, then its query options or mutation hook. */

// POST /api/accounts — the new owner membership; it goes first and becomes current (SPEC §4).
export function createAccount(api: ApiClient, body: CreateAccountRequest): Promise<CreateAccountResponse> {
  return api.post('/api/accounts', { schema: createAccountResponseSchema, body });
}

export function useCreateAccountMutation() {
  const services = useServices();
  return useMutation({
    mutationFn: (body: CreateAccountRequest) => createAccount(services.api, body),
    onSuccess: (response) => adoptNewMembership(services, response.membership),
  });
}

// GET /api/accounts/{id} — any member.
export function fetchAccount(api: ApiClient, accountId: number, signal?: AbortSignal): Promise<Account> {
  return api.get(`/api/accounts/${accountId}`, { schema: accountSchema, signal });
}

export function accountQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: accountKeys.detail(accountId),
    queryFn: ({ signal }) => fetchAccount(api, accountId, signal),
  });
}

// GET /api/accounts/{id} with the account's phone countries — any member (Company Info's country list).
export function fetchCompanyInfo(
  api: ApiClient,
  accountId: number,
  signal?: AbortSignal,
): Promise<CompanyInfo> {
  return api.get(`/api/accounts/${accountId}`, { schema: companyInfoSchema, signal });
}

export function companyInfoQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: accountKeys.companyInfo(accountId),
    queryFn: ({ signal }) => fetchCompanyInfo(api, accountId, signal),
  });
}

/** Every account answer replaces the cached account and the session's copy (account menu, company info). */
function applyAccount({ session, queryClient }: Services, account: Account) {
  queryClient.setQueryData(accountKeys.detail(account.id), account);
  session.replaceAccount(account);
}

// PATCH /api/accounts/{id} — displayName (owners)
export function updateAccount(
  api: ApiClient,
  accountId: number,
  body: UpdateAccountRequest,
): Promise<Account> {
  return api.patch(`/api/accounts/${accountId}`, { schema: accountSchema, body });
}

export function useUpdateAccountMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (body: UpdateAccountRequest) => updateAccount(services.api, accountId, body),
    onSuccess: (account) => applyAccount(services, account),
  });
}

// PATCH /api/accounts/{id} — phoneCountries (owners): the countries whose numbers the account's forms send codes to.
export function useUpdatePhoneCountriesMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (phoneCountries: string[]) =>
      services.api.patch(`/api/accounts/${accountId}`, {
        schema: companyInfoSchema,
        body: { phoneCountries },
      }),
    onSuccess: (info) => {
      services.queryClient.setQueryData(accountKeys.companyInfo(accountId), info);
      // The account part (zod drops the countries) for the session's copy.
      applyAccount(services, accountSchema.parse(info));
    },
  });
}

/** The multipart field of the logo upload (the same rules as the profile picture). */
export const ACCOUNT_IMAGE_FIELD = PROFILE_IMAGE_FIELD;

// POST /api/accounts/{id}/update-uploaded-profile-image — multipart uploadedProfileImage (owners)
export function uploadAccountImage(api: ApiClient, accountId: number, file: File): Promise<Account> {
  const formData = new FormData();
  formData.append(ACCOUNT_IMAGE_FIELD, file, file.name);
  return api.upload('POST', `/api/accounts/${accountId}/update-uploaded-profile-image`, {
    schema: accountSchema,
    formData,
  });
}

export function useUploadAccountImageMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (file: File) => uploadAccountImage(services.api, accountId, file),
    onSuccess: (account) => applyAccount(services, account),
  });
}

// PATCH /api/accounts/{id}/delete-uploaded-profile-image (owners)
export function deleteAccountImage(api: ApiClient, accountId: number): Promise<Account> {
  return api.patch(`/api/accounts/${accountId}/delete-uploaded-profile-image`, { schema: accountSchema });
}

export function useDeleteAccountImageMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: () => deleteAccountImage(services.api, accountId),
    onSuccess: (account) => applyAccount(services, account),
  });
}
