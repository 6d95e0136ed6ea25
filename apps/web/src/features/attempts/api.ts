import { queryOptions } from '@tanstack/react-query';
import {
  type DeliveryStatus,
  deliveryStatusSchema,
  type VerificationAttemptList,
  type VerificationAttemptSearch,
  verificationAttemptEndpoints,
  verificationAttemptSearchSchema,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import { type ApiClient, buildQueryString, type QueryParams } from '../../lib/api-client';
import { browserTimeZone } from '../../lib/time-zone';
import { searchValuesAsText } from '../../lib/verification-search';
import {
  joined,
  type VerificationFilterParams,
  verificationFilterParams,
  withJoinedLists,
} from '../verifications/api';

/**
 * The activity log's attempts (issue #18 item 6): every code sent, verified or not, with what became of its message.
 * Keys start with the account scope, so switching accounts reloads them. This module runs in route loaders (the main
 * bundle): no UI imports here.
 */
export const attemptKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'verification-attempts'] as const,
  lists: (accountId: number) => [...attemptKeys.all(accountId), 'list'] as const,
  list: (accountId: number, params: AttemptListParams) => [...attemptKeys.lists(accountId), params] as const,
};

/** The log's filters plus the delivery statuses, exactly as sent (undefined values are left out of the URL). */
export type AttemptFilterParams = VerificationFilterParams & {
  deliveryStatus?: readonly DeliveryStatus[] | undefined;
};

/** The list call's query without the account (also the cache key). */
export type AttemptListParams = AttemptFilterParams & {
  pageNumber?: number | undefined;
  pageSize?: number | undefined;
};

/**
 * `validateSearch` of /activity-log/attempts: read as the log reads its own (numbers in a hand-written link back to
 * text first, see searchValuesAsText); the router's list and a comma-separated one are both taken (csvList).
 */
export function validateAttemptSearch(raw: Record<string, unknown>): VerificationAttemptSearch {
  return verificationAttemptSearchSchema.parse(searchValuesAsText(raw));
}

/** The defaults, kept out of the URL (the plain link is /activity-log/attempts). */
export const attemptSearchDefaults: VerificationAttemptSearch = verificationAttemptSearchSchema.parse({});

/** The statuses in the order a message goes through them (a shared link may list them in any order, or twice). */
export function attemptFilterParams(search: VerificationAttemptSearch): AttemptFilterParams {
  const chosen = new Set(search.deliveryStatus ?? []);
  const statuses = deliveryStatusSchema.options.filter((s) => chosen.has(s));
  return { ...verificationFilterParams(search), deliveryStatus: statuses.length ? statuses : undefined };
}

export function attemptListParams(search: VerificationAttemptSearch): AttemptListParams {
  return { ...attemptFilterParams(search), pageNumber: search.pageNumber, pageSize: search.pageSize };
}

export function fetchAttempts(
  api: ApiClient,
  accountId: number,
  params: AttemptListParams,
  signal?: AbortSignal,
): Promise<VerificationAttemptList> {
  return api.call(verificationAttemptEndpoints.list, {
    signal,
    query: { account: accountId, ...withJoinedLists(params), deliveryStatus: joined(params.deliveryStatus) },
  });
}

export function attemptListQueryOptions(api: ApiClient, accountId: number, params: AttemptListParams) {
  return queryOptions({
    queryKey: attemptKeys.list(accountId, params),
    queryFn: ({ signal }) => fetchAttempts(api, accountId, params, signal),
  });
}

/**
 * The address of the CSV of every matching attempt, newest first. Read by the page's export (a stream with progress),
 * not through the api client.
 */
export function attemptExportUrl(accountId: number, search: VerificationAttemptSearch): string {
  const query: QueryParams = {
    account: accountId,
    ...attemptFilterParams(search),
    // The file's Created column is written in this zone, so the export names it even for "all time".
    tz: search.tz ?? browserTimeZone(),
  };
  return `${verificationAttemptEndpoints.exportCsv.path}${buildQueryString(query)}`;
}
