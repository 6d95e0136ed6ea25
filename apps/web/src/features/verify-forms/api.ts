import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  BANNER_IMAGE_FIELD,
  type ConsentVersionList,
  type CreateVerifyFormRequest,
  consentEndpoints,
  type FormListSearch,
  type PublishConsentVersionRequest,
  type UpdateVerifyFormRequest,
  type VerifyForm,
  type VerifyFormList,
  verifyFormEndpoints,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import type { ApiClient } from '../../lib/api-client';
import { type Services, useServices } from '../../lib/services';
import { browserTimeZone } from '../../lib/time-zone';

/**
 * One place per verify-form endpoint (SPEC §7): the fetcher, then its query options or mutation hook. The endpoints
 * themselves (method, path, schemas) are the contract's `verifyFormEndpoints` and `consentEndpoints`. Keys start with
 * the account scope, so switching accounts reloads them; the account id keeps two accounts' forms apart.
 */
export const verifyFormKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'verify-forms'] as const,
  lists: (accountId: number) => [...verifyFormKeys.all(accountId), 'list'] as const,
  list: (accountId: number, search: FormListSearch) => [...verifyFormKeys.lists(accountId), search] as const,
  detail: (accountId: number, formId: number) =>
    [...verifyFormKeys.all(accountId), 'detail', formId] as const,
  categories: (accountId: number) => [...verifyFormKeys.all(accountId), 'categories'] as const,
  stats: (accountId: number, formId: number) => [...verifyFormKeys.all(accountId), 'stats', formId] as const,
};

/**
 * Every change of one form (details, live switch, banner, consent text) runs under this mutation key, so the page can
 * tell when the server has applied it (the form page's preview reloads then, not at the optimistic update).
 */
export const verifyFormChangeKey = (formId: number) => ['verify-form-change', formId] as const;

export function fetchVerifyForms(
  api: ApiClient,
  accountId: number,
  search: FormListSearch,
  signal?: AbortSignal,
): Promise<VerifyFormList> {
  const custom = search.created__date__preset === 'custom';
  return api.call(verifyFormEndpoints.list, {
    signal,
    query: {
      account: accountId,
      isLive: search.isLive,
      status: search.status,
      language: search.language,
      category__in: search.category__in?.length ? search.category__in : undefined,
      created__date__preset: search.created__date__preset,
      created__date__gte: custom ? search.created__date__gte : undefined,
      created__date__lte: custom ? search.created__date__lte : undefined,
      tz: search.created__date__preset === 'all' ? undefined : (search.tz ?? browserTimeZone()),
      q: search.q || undefined,
      o: search.o,
      pageNumber: search.pageNumber,
      pageSize: search.pageSize,
    },
  });
}

export function verifyFormListQueryOptions(api: ApiClient, accountId: number, search: FormListSearch) {
  return queryOptions({
    queryKey: verifyFormKeys.list(accountId, search),
    queryFn: ({ signal }) => fetchVerifyForms(api, accountId, search, signal),
  });
}

export function fetchFormCategories(api: ApiClient, accountId: number, signal?: AbortSignal) {
  return api.call(verifyFormEndpoints.categories, { query: { account: accountId }, signal });
}

export function formCategoriesQueryOptions(api: ApiClient, accountId: number) {
  return queryOptions({
    queryKey: verifyFormKeys.categories(accountId),
    queryFn: ({ signal }) => fetchFormCategories(api, accountId, signal),
    select: (data) => data.results,
  });
}

export function fetchVerifyForm(api: ApiClient, formId: number, signal?: AbortSignal): Promise<VerifyForm> {
  return api.call(verifyFormEndpoints.get, { params: { id: formId }, signal });
}

export function verifyFormQueryOptions(api: ApiClient, accountId: number, formId: number) {
  return queryOptions({
    queryKey: verifyFormKeys.detail(accountId, formId),
    queryFn: ({ signal }) => fetchVerifyForm(api, formId, signal),
  });
}

export function fetchVerifyFormStats(api: ApiClient, formId: number, signal?: AbortSignal) {
  return api.call(verifyFormEndpoints.stats, { params: { id: formId }, signal });
}

export function verifyFormStatsQueryOptions(api: ApiClient, accountId: number, formId: number) {
  return queryOptions({
    queryKey: verifyFormKeys.stats(accountId, formId),
    queryFn: ({ signal }) => fetchVerifyFormStats(api, formId, signal),
  });
}

/** A form answer: the detail is replaced; lists and categories are read again. */
async function applyForm({ queryClient }: Services, form: VerifyForm) {
  queryClient.setQueryData(verifyFormKeys.detail(form.account, form.id), form);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: verifyFormKeys.lists(form.account) }),
    queryClient.invalidateQueries({ queryKey: verifyFormKeys.categories(form.account) }),
  ]);
}

export function createVerifyForm(api: ApiClient, body: CreateVerifyFormRequest): Promise<VerifyForm> {
  return api.call(verifyFormEndpoints.create, { body });
}

export function useCreateVerifyFormMutation() {
  const services = useServices();
  return useMutation({
    mutationFn: (body: CreateVerifyFormRequest) => createVerifyForm(services.api, body),
    onSuccess: (form) => applyForm(services, form),
  });
}

export function updateVerifyForm(
  api: ApiClient,
  formId: number,
  body: UpdateVerifyFormRequest,
): Promise<VerifyForm> {
  return api.call(verifyFormEndpoints.update, { params: { id: formId }, body });
}

export function useUpdateVerifyFormMutation(accountId: number, formId: number) {
  const services = useServices();
  return useMutation({
    mutationKey: verifyFormChangeKey(formId),
    mutationFn: (body: UpdateVerifyFormRequest) => updateVerifyForm(services.api, formId, body),
    onSuccess: (form) => applyForm(services, form),
    onError: () => services.queryClient.invalidateQueries({ queryKey: verifyFormKeys.all(accountId) }),
  });
}

type ListSnapshot = [readonly unknown[], VerifyFormList | undefined][];

/**
 * The live toggle (PATCH isLive): every cached list and the detail show the new state at once, and go back to what
 * they were if the server refuses.
 */
export function useToggleVerifyFormMutation(accountId: number, formId: number) {
  const services = useServices();
  const { queryClient } = services;
  return useMutation({
    mutationKey: verifyFormChangeKey(formId),
    mutationFn: ({ form, isLive }: { form: VerifyForm; isLive: boolean }) =>
      updateVerifyForm(services.api, form.id, { isLive }),
    onMutate: async ({ form, isLive }) => {
      const listKey = verifyFormKeys.lists(accountId);
      const detailKey = verifyFormKeys.detail(accountId, form.id);
      await Promise.all([
        queryClient.cancelQueries({ queryKey: listKey }),
        queryClient.cancelQueries({ queryKey: detailKey }),
      ]);
      const lists: ListSnapshot = queryClient.getQueriesData<VerifyFormList>({ queryKey: listKey });
      const detail = queryClient.getQueryData<VerifyForm>(detailKey);
      queryClient.setQueriesData<VerifyFormList>({ queryKey: listKey }, (list) =>
        list
          ? { ...list, results: list.results.map((f) => (f.id === form.id ? { ...f, isLive } : f)) }
          : list,
      );
      if (detail) queryClient.setQueryData(detailKey, { ...detail, isLive });
      return { lists, detail, detailKey };
    },
    onError: (_error, _variables, snapshot) => {
      if (!snapshot) return;
      for (const [key, data] of snapshot.lists) queryClient.setQueryData(key, data);
      if (snapshot.detail) queryClient.setQueryData(snapshot.detailKey, snapshot.detail);
    },
    onSuccess: (form) => applyForm(services, form),
  });
}

export function deleteVerifyForm(api: ApiClient, formId: number): Promise<unknown> {
  return api.call(verifyFormEndpoints.remove, { params: { id: formId } });
}

export function useDeleteVerifyFormMutation(accountId: number, formId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: () => deleteVerifyForm(api, formId),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: verifyFormKeys.detail(accountId, formId) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: verifyFormKeys.lists(accountId) }),
        queryClient.invalidateQueries({ queryKey: verifyFormKeys.categories(accountId) }),
      ]);
    },
  });
}

export { BANNER_IMAGE_FIELD };

export function uploadBannerImage(api: ApiClient, formId: number, file: File): Promise<VerifyForm> {
  const formData = new FormData();
  formData.append(BANNER_IMAGE_FIELD, file, file.name);
  return api.call(verifyFormEndpoints.uploadBanner, { params: { id: formId }, formData });
}

export function useUploadBannerMutation(formId: number) {
  const services = useServices();
  return useMutation({
    mutationKey: verifyFormChangeKey(formId),
    mutationFn: (file: File) => uploadBannerImage(services.api, formId, file),
    onSuccess: (form) => applyForm(services, form),
  });
}

export function deleteBannerImage(api: ApiClient, formId: number): Promise<VerifyForm> {
  return api.call(verifyFormEndpoints.deleteBanner, { params: { id: formId } });
}

export function useDeleteBannerMutation(formId: number) {
  const services = useServices();
  return useMutation({
    mutationKey: verifyFormChangeKey(formId),
    mutationFn: () => deleteBannerImage(services.api, formId),
    onSuccess: (form) => applyForm(services, form),
  });
}

// ---- Consent versions (issue #18) ------------------------------------------------------------------------------

export const consentVersionKeys = {
  list: (accountId: number, formId: number) => [...verifyFormKeys.all(accountId), 'consent', formId] as const,
};

/** Both languages: the page shows each one's history. */
export function fetchConsentVersions(api: ApiClient, formId: number, signal?: AbortSignal) {
  return api.call(consentEndpoints.list, { params: { id: formId }, query: {}, signal });
}

export function consentVersionsQueryOptions(api: ApiClient, accountId: number, formId: number) {
  return queryOptions({
    queryKey: consentVersionKeys.list(accountId, formId),
    queryFn: ({ signal }) => fetchConsentVersions(api, formId, signal),
    select: (data) => data.results,
  });
}

export function usePublishConsentMutation(accountId: number, formId: number) {
  const services = useServices();
  return useMutation({
    // A change of what the public page shows: the form page's preview reloads once it is saved and read back.
    mutationKey: verifyFormChangeKey(formId),
    mutationFn: async (body: PublishConsentVersionRequest) => {
      const before = services.queryClient.getQueryData<ConsentVersionList>(
        consentVersionKeys.list(accountId, formId),
      );
      const version = await services.api.call(consentEndpoints.publish, { params: { id: formId }, body });
      return { version, created: !before?.results.some((v) => v.id === version.id) };
    },
    onSettled: () =>
      services.queryClient.invalidateQueries({ queryKey: consentVersionKeys.list(accountId, formId) }),
  });
}
