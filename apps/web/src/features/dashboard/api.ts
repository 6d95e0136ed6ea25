import { queryOptions } from '@tanstack/react-query';
import {
  type DashboardSearch,
  type FormListSearch,
  formListSearchSchema,
  type LookupSummary,
  localToday,
  lookupSummaryEndpoints,
  type VerificationReport,
  verificationEndpoints,
} from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';
import { browserTimeZone } from '../../lib/time-zone';
import {
  type VerificationFilterParams,
  verificationFilterParams,
  verificationKeys,
  withJoinedLists,
} from '../verifications/api';
import { verifyFormListQueryOptions } from '../verify-forms/api';

/**
 * The report's query string without the account: exactly what is sent, so two URLs that mean the same report (a
 * stray `all` in the method list, dates kept from an earlier custom range) share one cache entry. Always with a zone:
 * every dashboard preset is a range of local days.
 */
export type ReportParams = VerificationFilterParams & {
  created__date__preset: DashboardSearch['created__date__preset'];
  tz: string;
};

/**
 * One place per endpoint (SPEC §7). The report lives under the account's verifications key, so anything that
 * invalidates verifications (a new one, an account switch) reloads the report too. The key holds the resolved `tz`:
 * the same preset means other days in another time zone.
 */
export const reportKeys = {
  all: (accountId: number) => [...verificationKeys.all(accountId), 'report'] as const,
  report: (accountId: number, params: ReportParams) => [...reportKeys.all(accountId), params] as const,
};

/** The dashboard's search params as the report call's: the activity log's reading of the same filters. */
export function reportParams(search: DashboardSearch): ReportParams {
  return {
    ...verificationFilterParams(search),
    created__date__preset: search.created__date__preset,
    // Presets are days in the user's zone (DESIGN §5); a link may carry another zone, which then wins.
    tz: search.tz ?? browserTimeZone(),
  };
}

/** The longest range the report serves (the server cuts longer ones to a year, ending on the range's last day). */
export const HISTORY_DAYS = 366;

/**
 * The account's recent history: the last year up to today in `tz`, no other filter. The dashboard asks for it only
 * when the filtered report is empty, to tell a new account (first steps) from a quiet week (zeros). The report is
 * always bounded on the server, so "ever" is the longest range it answers; an account silent for a whole year is
 * shown the first steps again, which is what it needs.
 */
export function historyReportParams(tz: string, now: Date = new Date()): ReportParams {
  const today = localToday(now, tz);
  const start = new Date(`${today}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - (HISTORY_DAYS - 1));
  return {
    created__date__preset: 'custom',
    created__date__gte: start.toISOString().slice(0, 10),
    created__date__lte: today,
    tz,
  };
}

export function fetchVerificationReport(
  api: ApiClient,
  accountId: number,
  params: ReportParams,
  signal?: AbortSignal,
): Promise<VerificationReport> {
  return api.call(verificationEndpoints.report, {
    signal,
    query: { account: accountId, ...withJoinedLists(params) },
  });
}

export function verificationReportQueryOptions(api: ApiClient, accountId: number, params: ReportParams) {
  return queryOptions({
    queryKey: reportKeys.report(accountId, params),
    queryFn: ({ signal }) => fetchVerificationReport(api, accountId, params, signal),
  });
}

/** The most live forms the dashboard lists (the list API's largest page). */
export const ACTIVE_FORMS_MAX = 100;

/**
 * The forms list's search for the dashboard's "Active forms" (SPEC §2: isLive true, same filters). Only the filters
 * that pick forms carry over: categories. The date range, the method and the text search pick verifications — a form
 * made two months ago is still live this week, and a phone number matches no form name. Form ids have no list
 * parameter; the panel keeps the chosen ones from this page.
 */
export function activeFormsSearch(search: DashboardSearch): FormListSearch {
  return formListSearchSchema.parse({
    isLive: true,
    status: 'active',
    category__in: search.verifyFormCategory__in?.length ? search.verifyFormCategory__in : undefined,
    o: 'name',
    pageSize: ACTIVE_FORMS_MAX,
  });
}

// The live forms (isLive, status active), through the forms module's one place for the forms list.
export function activeFormsQueryOptions(api: ApiClient, accountId: number, search: DashboardSearch) {
  return verifyFormListQueryOptions(api, accountId, activeFormsSearch(search));
}

/** The carrier lookups' count (issue #36): the report's dates only, as the server reads them. */
export type LookupSummaryParams = Pick<
  ReportParams,
  'created__date__preset' | 'created__date__gte' | 'created__date__lte' | 'tz'
>;

export function lookupSummaryParams(params: ReportParams): LookupSummaryParams {
  const { created__date__preset, created__date__gte, created__date__lte, tz } = params;
  return {
    created__date__preset,
    tz,
    ...(created__date__gte === undefined ? {} : { created__date__gte }),
    ...(created__date__lte === undefined ? {} : { created__date__lte }),
  };
}

/** Under the report's key: what reloads the report (a new verification, an account switch) reloads these too. */
export function lookupSummaryQueryOptions(api: ApiClient, accountId: number, params: LookupSummaryParams) {
  return queryOptions({
    queryKey: [...reportKeys.all(accountId), 'lookups', params] as const,
    queryFn: ({ signal }): Promise<LookupSummary> =>
      api.call(lookupSummaryEndpoints.summary, { signal, query: { account: accountId, ...params } }),
  });
}
