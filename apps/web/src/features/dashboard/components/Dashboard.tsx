import { Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { DashboardSearch, dashboardPresets, VerificationReport } from '@veriform/contracts';
import { lazy, type ReactNode, Suspense } from 'react';
import { RetryAlert } from '../../../components/errors/RetryAlert';
import { AnchorLink, ButtonLink } from '../../../components/links';
import { useServices } from '../../../lib/services';
import { verificationSearchDefaults } from '../../../lib/verification-search';
import { historyReportParams, reportKeys, reportParams, verificationReportQueryOptions } from '../api';
import { categoryLabel, MUTED } from '../format';
import { ActiveForms } from './ActiveForms';
import { CarrierLookups } from './CarrierLookups';
import { Funnel } from './Funnel';
import { RankedList } from './RankedList';
import { PerDayChartSkeleton, ReportGrid, ReportSkeleton } from './ReportGrid';
import { StatCards } from './StatCards';

/**
 * The chart is its own chunk (recharts, d3 and their state library: most of the dashboard's weight). The numbers,
 * funnel and lists show as soon as the report is here; the chart's box keeps its size until its code arrives.
 */
const PerDayChart = lazy(() => import('./PerDayChart').then((module) => ({ default: module.PerDayChart })));

export type DashboardPreset = (typeof dashboardPresets)[number];

/** Whether a report holds nothing at all: no verification and no code sent. */
function isEmptyReport(report: VerificationReport): boolean {
  return report.totals.verifications === 0 && report.funnel.codesSent === 0;
}

/**
 * The report's sections. Active forms load on their own and never wait for the report; without a report (first
 * load, or while the past-year check runs) every other section keeps its place with skeletons.
 */
export function ReportSections({
  accountId,
  search,
  report,
}: {
  accountId: number;
  search: DashboardSearch;
  report: VerificationReport | undefined;
}) {
  const activeForms = <ActiveForms accountId={accountId} search={search} />;
  if (!report) return <ReportSkeleton activeForms={activeForms} />;
  return (
    <ReportGrid
      stats={<StatCards report={report} />}
      perDay={
        <Suspense fallback={<PerDayChartSkeleton />}>
          <PerDayChart perDay={report.perDay} />
        </Suspense>
      }
      funnel={<Funnel funnel={report.funnel} />}
      topForms={
        <RankedList
          label="Top forms"
          empty="No verifications in this range."
          items={report.byForm.map((form) => ({
            key: String(form.verifyFormId),
            count: form.verifications,
            label: (
              <AnchorLink to="/forms/$verifyFormId" params={{ verifyFormId: String(form.verifyFormId) }}>
                {form.verifyFormName}
              </AnchorLink>
            ),
          }))}
        />
      }
      categories={
        <RankedList
          label="Categories"
          empty="No verifications in this range."
          items={report.byCategory.map((row) => ({
            key: row.category,
            count: row.verifications,
            label: categoryLabel(row.category),
          }))}
        />
      }
      activeForms={activeForms}
    />
  );
}

/** A new account (no verification and no code in a year): what to do first, instead of a page of zeros. */
export function FirstStepsState() {
  return (
    <Paper withBorder radius="md" p="xl" component="section" aria-labelledby="dashboard-first-steps">
      <Stack align="center" gap="sm" ta="center" maw={520} mx="auto">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden="true">
          <IconChartBar />
        </ThemeIcon>
        <Title order={2} size="h4" id="dashboard-first-steps">
          No verifications yet
        </Title>
        <Text c={MUTED} size="sm">
          This report fills in as people confirm their phone numbers with your forms. To get there:
        </Text>
        <List type="ordered" size="sm" ta="left" spacing={4}>
          <List.Item>Create a verification form and give it a banner.</List.Item>
          <List.Item>Switch it to Active, then share its link or QR code.</List.Item>
          <List.Item>
            Try it yourself first with a test number from{' '}
            <AnchorLink to="/settings/company-info">Company Info</AnchorLink>: it sends no message.
          </List.Item>
        </List>
        <ButtonLink to="/forms/" mt="xs">
          Go to Forms
        </ButtonLink>
      </Stack>
    </Paper>
  );
}

/** The dashboard of one account: the filter bar bound to the URL, then the report (or why there is none). */
export function Dashboard({
  accountId,
  search,
  filters,
  canSearchData,
  notices,
}: {
  accountId: number;
  search: DashboardSearch;
  /** The filter bar (the activity log's, composed by the route), shown above the report and its error. */
  filters: ReactNode;
  /** Whether the activity log is open to this membership (SPEC §6): then the totals link to their rows. */
  canSearchData: boolean;
  /** What needs doing besides the report (the revocations card, composed by the route), above the report. */
  notices?: ReactNode;
}) {
  const { api } = useServices();
  const params = reportParams(search);
  const {
    data: report,
    error,
    refetch,
    isPlaceholderData,
    isFetching,
  } = useQuery({
    ...verificationReportQueryOptions(api, accountId, params),
    // While other filters load, keep this account's numbers on screen (marked busy), never another account's.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === reportKeys.all(accountId)[1] ? previous : undefined,
  });
  // Zero in the filtered range: only the account's history (the last year) tells a new account from a quiet week.
  const emptyHere = report !== undefined && !isPlaceholderData && isEmptyReport(report);
  const pastYear = useQuery({
    ...verificationReportQueryOptions(api, accountId, historyReportParams(params.tz)),
    enabled: emptyHere,
  });
  const neverUsed = emptyHere && pastYear.data !== undefined && isEmptyReport(pastYear.data);

  if (neverUsed) return <FirstStepsState />;

  if (!report && error)
    return (
      <>
        {filters}
        <RetryAlert
          title="The report could not be loaded"
          error={error}
          onRetry={refetch}
          retrying={isFetching}
        />
      </>
    );

  // The past-year check is still running: keep the skeletons rather than flash a page of zeros.
  const shown = emptyHere && pastYear.isPending ? undefined : report;
  return (
    <>
      {filters}
      {canSearchData && (
        <Group justify="flex-end" mt={-8} mb="xs">
          <AnchorLink
            to="/activity-log/"
            // The log's default range is all time: the dashboard's preset is always written out.
            search={{ ...verificationSearchDefaults, ...search }}
            size="sm"
          >
            See these verifications in the activity log
          </AnchorLink>
        </Group>
      )}
      {notices}
      <div aria-busy={isPlaceholderData || shown === undefined || undefined}>
        <ReportSections accountId={accountId} search={search} report={shown} />
      </div>
      {shown && <CarrierLookups accountId={accountId} params={params} />}
    </>
  );
}
