import { queryOptions } from '@tanstack/react-query';
import {
  type ApiReassignmentCheck,
  type ApiRefreshLink,
  type VerificationDetail,
  type VerificationFilter,
  type VerificationList,
  type VerificationMethod,
  type VerificationMode,
  type VerificationSearch,
  type VerificationSort,
  type VerificationSource,
  type VerificationTimeline,
  verificationEndpoints,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import { type ApiClient, buildQueryString, type QueryParams } from '../../lib/api-client';
import { browserTimeZone } from '../../lib/time-zone';

/**
 * One place per verification endpoint (SPEC §7; the endpoints themselves are the contract's `verificationEndpoints`,
 * the timeline among them). Keys start with the account scope, so switching accounts reloads
 * them. This module runs in route loaders (the main bundle): no UI imports here.
 */
export const verificationKeys = {
  all: (accountId: number) => [...accountScope, accountId, 'verifications'] as const,
  lists: (accountId: number) => [...verificationKeys.all(accountId), 'list'] as const,
  list: (accountId: number, params: VerificationListParams) =>
    [...verificationKeys.lists(accountId), params] as const,
  detail: (accountId: number, verificationId: number) =>
    [...verificationKeys.all(accountId), 'detail', verificationId] as const,
  timeline: (accountId: number, verificationId: number) =>
    [...verificationKeys.detail(accountId, verificationId), 'timeline'] as const,
};

/** The filters exactly as sent (undefined values are left out of the URL). */
export type VerificationFilterParams = {
  /** Test data only when asked (issue #33); live is the server's default, kept out of the URL. */
  mode?: VerificationMode | undefined;
  verifyFormId__in?: readonly number[] | undefined;
  verifyFormCategory__in?: readonly string[] | undefined;
  verificationMethod__in?: readonly VerificationMethod[] | undefined;
  source?: VerificationSource | undefined;
  created__date__preset?: VerificationFilter['created__date__preset'] | undefined;
  created__date__gte?: string | undefined;
  created__date__lte?: string | undefined;
  tz?: string | undefined;
  q?: string | undefined;
};

/** The list call's query without the account (also the cache key: two URLs meaning the same page share it). */
export type VerificationListParams = VerificationFilterParams & {
  /** The log's own filter (issue #35): only revoked, only not revoked, or both (left out). */
  revoked?: boolean | undefined;
  o?: VerificationSort | undefined;
  pageNumber?: number | undefined;
  pageSize?: number | undefined;
};

/**
 * The route's search params as the API's: `all` or both methods mean no method filter; dates only with the custom
 * preset (a link may keep them from an earlier custom range); `tz` is the browser's zone unless the link carries one
 * (DESIGN §5: presets are the user's local days), and is left out for "all time", where it changes nothing.
 */
export function verificationFilterParams(
  filter: VerificationFilter & { mode?: VerificationMode | undefined },
): VerificationFilterParams {
  const custom = filter.created__date__preset === 'custom';
  const methods = [
    ...new Set(filter.verificationMethod__in?.filter((m): m is VerificationMethod => m !== 'all')),
  ];
  return {
    mode: filter.mode === 'test' ? 'test' : undefined,
    verifyFormId__in: filter.verifyFormId__in?.length ? filter.verifyFormId__in : undefined,
    verifyFormCategory__in: filter.verifyFormCategory__in?.length ? filter.verifyFormCategory__in : undefined,
    verificationMethod__in: methods.length === 1 ? methods : undefined,
    source: filter.source,
    created__date__preset: filter.created__date__preset,
    created__date__gte: custom ? filter.created__date__gte : undefined,
    created__date__lte: custom ? filter.created__date__lte : undefined,
    tz: filter.created__date__preset === 'all' ? undefined : (filter.tz ?? browserTimeZone()),
    q: filter.q || undefined,
  };
}

/** A list as the query string sends it (`1,2`: what buildQueryString makes of an array); the URL is the same. */
export const joined = (list: readonly (string | number)[] | undefined) => list?.join(',');

/**
 * The filters with their lists joined: the contract's query schemas type a list as the text that arrives (csvList), so
 * a call passes them that way.
 */
export function withJoinedLists<P extends VerificationFilterParams>(params: P) {
  return {
    ...params,
    verifyFormId__in: joined(params.verifyFormId__in),
    verifyFormCategory__in: joined(params.verifyFormCategory__in),
    verificationMethod__in: joined(params.verificationMethod__in),
  };
}

export function verificationListParams(search: VerificationSearch): VerificationListParams {
  return {
    ...verificationFilterParams(search),
    revoked: search.revoked,
    o: search.o,
    pageNumber: search.pageNumber,
    pageSize: search.pageSize,
  };
}

export function fetchVerifications(
  api: ApiClient,
  accountId: number,
  params: VerificationListParams,
  signal?: AbortSignal,
): Promise<VerificationList> {
  return api.call(verificationEndpoints.list, {
    signal,
    query: { account: accountId, ...withJoinedLists(params) },
  });
}

export function verificationListQueryOptions(
  api: ApiClient,
  accountId: number,
  params: VerificationListParams,
) {
  return queryOptions({
    queryKey: verificationKeys.list(accountId, params),
    queryFn: ({ signal }) => fetchVerifications(api, accountId, params, signal),
  });
}

export function fetchVerification(
  api: ApiClient,
  accountId: number,
  verificationId: number,
  signal?: AbortSignal,
): Promise<VerificationDetail> {
  return api.call(verificationEndpoints.get, {
    params: { id: verificationId },
    query: { account: accountId },
    signal,
  });
}

export function verificationQueryOptions(api: ApiClient, accountId: number, verificationId: number) {
  return queryOptions({
    queryKey: verificationKeys.detail(accountId, verificationId),
    queryFn: ({ signal }) => fetchVerification(api, accountId, verificationId, signal),
  });
}

export function fetchVerificationTimeline(
  api: ApiClient,
  accountId: number,
  verificationId: number,
  signal?: AbortSignal,
): Promise<VerificationTimeline> {
  return api.call(verificationEndpoints.timeline, {
    params: { id: verificationId },
    query: { account: accountId },
    signal,
  });
}

export function verificationTimelineQueryOptions(api: ApiClient, accountId: number, verificationId: number) {
  return queryOptions({
    queryKey: verificationKeys.timeline(accountId, verificationId),
    queryFn: ({ signal }) => fetchVerificationTimeline(api, accountId, verificationId, signal),
  });
}

/**
 * The address of the CSV of every matching row, in the log's order. Not a JSON call, so not through the api client:
 * the page reads the stream itself to show progress.
 */
export function verificationExportUrl(accountId: number, search: VerificationSearch): string {
  // The export takes the list's filters and sort without paging (verificationExportQuerySchema).
  const query: QueryParams = {
    account: accountId,
    ...verificationFilterParams(search),
    // The file's Created column is written in this zone, so the export names it even for "all time".
    tz: search.tz ?? browserTimeZone(),
    revoked: search.revoked,
    o: search.o,
  };
  return `${verificationEndpoints.exportCsv.path}${buildQueryString(query)}`;
}

/**
 * Asks now whether the verification's number was reassigned since its consent (issue #36, "Check for reassignment"):
 * the check made, or an error in the spec's format (400 why it cannot be checked, 429 the month's ceiling, 503 retry).
 */
/** A fresh verification link bound to the verification (issue #36 item 4): shown once, the server keeps its hash. */
export function refreshVerification(
  api: ApiClient,
  accountId: number,
  verificationId: number,
): Promise<ApiRefreshLink> {
  return api.call(verificationEndpoints.refresh, {
    params: { id: verificationId },
    query: { account: accountId },
    body: {},
  });
}

export function checkReassignment(
  api: ApiClient,
  accountId: number,
  verificationId: number,
): Promise<ApiReassignmentCheck> {
  return api.call(verificationEndpoints.checkReassignment, {
    params: { id: verificationId },
    query: { account: accountId },
    body: {},
  });
}
