import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type AuditEventList,
  type AuditExportQuery,
  type AuditFilter,
  type AuditSearch,
  accountEndpoints,
  auditEndpoints,
  type CompanyInfo,
  can,
  fillPath,
  type Membership,
} from '@veriform/contracts';
import { accountKeys, accountScope } from '../../lib/account-keys';
import { type ApiClient, buildQueryString } from '../../lib/api-client';
import { useServices } from '../../lib/services';
import { browserTimeZone } from '../../lib/time-zone';

/**
 * One place per audit-log endpoint (issue #16; owners only; the endpoints themselves are the contract's
 * `auditEndpoints`). Keys start with the account scope, so switching accounts reloads them. This module runs in the
 * route loader (the main bundle): no UI imports here.
 */
export const auditKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'audit-events'] as const,
  list: (accountId: number, params: AuditListParams) =>
    [...auditKeys.all(accountId), 'list', params] as const,
};

/** Who sees Settings → Audit log: the owners, mirroring the capability the server's routes declare. */
export function canReadAuditLog(membership: Membership | null): boolean {
  return membership !== null && can(membership, 'readAuditLog');
}

/** The filters exactly as sent (undefined values are left out of the URL). */
export type AuditFilterParams = {
  [K in keyof AuditFilter]?: AuditFilter[K] | undefined;
};

/** The list call's query without the account (also the cache key). */
export type AuditListParams = AuditFilterParams & { pageNumber?: number; pageSize?: number };

/**
 * The route's search params as the API's, as the activity log sends its own: the days of a custom range only with
 * the custom preset, and the browser's zone (unless the link carries one) whenever a preset needs local days.
 */
export function auditFilterParams(filter: AuditFilter): AuditFilterParams {
  const custom = filter.created__date__preset === 'custom';
  return {
    action: filter.action,
    actorType: filter.actorType,
    actorId: filter.actorId || undefined,
    targetType: filter.targetType,
    targetId: filter.targetId || undefined,
    created__date__preset: filter.created__date__preset,
    created__date__gte: custom ? filter.created__date__gte : undefined,
    created__date__lte: custom ? filter.created__date__lte : undefined,
    tz: filter.created__date__preset === 'all' ? undefined : (filter.tz ?? browserTimeZone()),
  };
}

export function auditListParams(search: AuditSearch): AuditListParams {
  return { ...auditFilterParams(search), pageNumber: search.pageNumber, pageSize: search.pageSize };
}

export function fetchAuditEvents(
  api: ApiClient,
  accountId: number,
  params: AuditListParams,
  signal?: AbortSignal,
): Promise<AuditEventList> {
  return api.call(auditEndpoints.list, { query: { account: accountId, ...params }, signal });
}

export function auditEventListQueryOptions(api: ApiClient, accountId: number, params: AuditListParams) {
  return queryOptions({
    queryKey: auditKeys.list(accountId, params),
    queryFn: ({ signal }) => fetchAuditEvents(api, accountId, params, signal),
  });
}

/**
 * The export's address for these filters: a plain download link (the browser saves the stream), so not through the
 * api client. The zone goes along even for "all time": the CSV's times are written in it.
 */
export function auditExportUrl(
  accountId: number,
  filter: AuditFilter,
  format: AuditExportQuery['format'],
): string {
  const query = {
    account: accountId,
    format,
    ...auditFilterParams(filter),
    tz: filter.tz ?? browserTimeZone(),
  };
  return `${fillPath(auditEndpoints.export.path)}${buildQueryString(query)}`;
}

/** How many years the log keeps events (issue #16 item 6): the account's `auditRetentionYears`. */
export function updateAuditRetention(
  api: ApiClient,
  accountId: number,
  auditRetentionYears: number,
): Promise<CompanyInfo> {
  return api.call(accountEndpoints.update, { params: { id: accountId }, body: { auditRetentionYears } });
}

export function useUpdateAuditRetentionMutation(accountId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (years: number) => updateAuditRetention(api, accountId, years),
    onSuccess: (info) => {
      queryClient.setQueryData(accountKeys.companyInfo(accountId), info);
      // The change is itself an event (account.updated): the list shows it on top.
      void queryClient.invalidateQueries({ queryKey: auditKeys.all(accountId) });
    },
  });
}
