import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type Account,
  accountEndpoints,
  accountSchema,
  type CompanyInfo,
  type CreateAccountRequest,
  type CreateAccountResponse,
  type LookupSettings,
  lookupEndpoints,
  type PhoneCountry,
  type UpdateAccountRequest,
  type UpdateLookupSettingsRequest,
} from '@veriform/contracts';
import { accountKeys } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { type Services, useServices } from '../../lib/services';
import { adoptNewMembership } from '../memberships/api';
import { PROFILE_IMAGE_FIELD } from '../users/api';

/**
 * One place per account endpoint: the fetcher, then its query options or mutation hook. The endpoints themselves
 * (method, path, schemas) are the contract's `accountEndpoints`, which the server registers.
 */

/**
 * The account part of an answer (zod drops the countries and the retention): what the account query and the
 * session's memberships hold.
 */
const accountOf = (info: CompanyInfo): Account => accountSchema.parse(info);

export function createAccount(api: ApiClient, body: CreateAccountRequest): Promise<CreateAccountResponse> {
  return api.call(accountEndpoints.create, { body });
}

export function useCreateAccountMutation() {
  const services = useServices();
  return useMutation({
    mutationFn: (body: CreateAccountRequest) => createAccount(services.api, body),
    onSuccess: (response) => adoptNewMembership(services, response.membership),
  });
}

export function fetchAccount(api: ApiClient, accountId: number, signal?: AbortSignal): Promise<Account> {
  return fetchCompanyInfo(api, accountId, signal).then(accountOf);
}

export function accountQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: accountKeys.detail(accountId),
    queryFn: ({ signal }) => fetchAccount(api, accountId, signal),
  });
}

/** The account with its phone countries (Company Info's country list). */
export function fetchCompanyInfo(
  api: ApiClient,
  accountId: number,
  signal?: AbortSignal,
): Promise<CompanyInfo> {
  return api.call(accountEndpoints.get, { params: { id: accountId }, signal });
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

export function updateAccount(
  api: ApiClient,
  accountId: number,
  body: UpdateAccountRequest,
): Promise<Account> {
  return api.call(accountEndpoints.update, { params: { id: accountId }, body }).then(accountOf);
}

export function useUpdateAccountMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (body: UpdateAccountRequest) => updateAccount(services.api, accountId, body),
    onSuccess: (account) => applyAccount(services, account),
  });
}

/** The countries whose numbers the account's forms send codes to. */
export function useUpdatePhoneCountriesMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (phoneCountries: PhoneCountry[]) =>
      services.api.call(accountEndpoints.update, { params: { id: accountId }, body: { phoneCountries } }),
    onSuccess: (info) => {
      services.queryClient.setQueryData(accountKeys.companyInfo(accountId), info);
      applyAccount(services, accountOf(info));
    },
  });
}

/** How long a verification stands as consent in the contactability verdict (issue #35): 1–60 months. */
export function useUpdateConsentMaxAgeMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (consentMaxAgeMonths: number) =>
      services.api.call(accountEndpoints.update, {
        params: { id: accountId },
        body: { consentMaxAgeMonths },
      }),
    onSuccess: (info) => services.queryClient.setQueryData(accountKeys.companyInfo(accountId), info),
  });
}

/** Owners make a second factor mandatory for every member (issue #38 item 3). */
export function useUpdateRequireMfaMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (requireMfa: boolean) =>
      services.api.call(accountEndpoints.update, { params: { id: accountId }, body: { requireMfa } }),
    onSuccess: (info) => services.queryClient.setQueryData(accountKeys.companyInfo(accountId), info),
  });
}

/** The multipart field of the logo upload (the same rules as the profile picture). */
export const ACCOUNT_IMAGE_FIELD = PROFILE_IMAGE_FIELD;

export function uploadAccountImage(api: ApiClient, accountId: number, file: File): Promise<Account> {
  const formData = new FormData();
  formData.append(ACCOUNT_IMAGE_FIELD, file, file.name);
  return api.call(accountEndpoints.uploadImage, { params: { id: accountId }, formData }).then(accountOf);
}

export function useUploadAccountImageMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (file: File) => uploadAccountImage(services.api, accountId, file),
    onSuccess: (account) => applyAccount(services, account),
  });
}

export function deleteAccountImage(api: ApiClient, accountId: number): Promise<Account> {
  return api.call(accountEndpoints.deleteImage, { params: { id: accountId } }).then(accountOf);
}

export function useDeleteAccountImageMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: () => deleteAccountImage(services.api, accountId),
    onSuccess: (account) => applyAccount(services, account),
  });
}

/** The account's carrier lookup settings and this month's counts (issue #36): owners only, reading included. */
export const lookupSettingsKey = (accountId: number) =>
  [...accountKeys.detail(accountId), 'lookups'] as const;

export function lookupSettingsQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: lookupSettingsKey(accountId),
    queryFn: ({ signal }) => api.call(lookupEndpoints.get, { params: { id: accountId }, signal }),
  });
}

/** Saves the settings; the answer (the settings and this month's counts) replaces the read. */
export function useUpdateLookupSettingsMutation(accountId: number) {
  const services = useServices();
  return useMutation({
    mutationFn: (body: UpdateLookupSettingsRequest) =>
      services.api.call(lookupEndpoints.update, { params: { id: accountId }, body }),
    onSuccess: (settings: LookupSettings) =>
      services.queryClient.setQueryData(lookupSettingsKey(accountId), settings),
  });
}
