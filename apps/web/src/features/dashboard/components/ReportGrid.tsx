import { Grid, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { SectionCard } from '../../../components/layout/SectionCard';
import { FunnelSkeleton } from './Funnel';
import { RankedListSkeleton } from './RankedList';
import { StatCards } from './StatCards';

// This module must not import the chart: the route's pending component uses it, and that stays in the main bundle
// (the router plugin splits only the route's component), while recharts belongs in the dashboard's chunk alone.

/** The chart's height, shared by the chart and its skeleton so the page does not move when it draws. */
export const CHART_HEIGHT = 260;

/**
 * The dashboard's layout: headline numbers, then the chart beside the funnel, then top forms, categories and active
 * forms. Every slot keeps its place whether it holds content or a skeleton.
 */
export function ReportGrid(slots: {
  stats: ReactNode;
  perDay: ReactNode;
  funnel: ReactNode;
  topForms: ReactNode;
  categories: ReactNode;
  activeForms: ReactNode;
}) {
  return (
    <Stack gap="lg">
      {slots.stats}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <SectionCard title="Verifications per day">{slots.perDay}</SectionCard>
        </Grid.Col>
        {/* Five steps, a channel switch and the failure reasons: wider than the lists below. */}
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <SectionCard title="Funnel">{slots.funnel}</SectionCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <SectionCard title="Top forms">{slots.topForms}</SectionCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <SectionCard title="Categories">{slots.categories}</SectionCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <SectionCard title="Active forms">{slots.activeForms}</SectionCard>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** The chart's box while the report loads: same height, so the cards below stay put. */
export function PerDayChartSkeleton() {
  return (
    <>
      <Skeleton height={CHART_HEIGHT} radius="sm" />
      <Skeleton height={16} width="50%" radius="sm" />
    </>
  );
}

/** The whole report in skeletons (first load, and while the past-year check runs). */
export function ReportSkeleton({ activeForms }: { activeForms?: ReactNode }) {
  return (
    <ReportGrid
      stats={<StatCards report={undefined} />}
      perDay={<PerDayChartSkeleton />}
      funnel={<FunnelSkeleton />}
      topForms={<RankedListSkeleton />}
      categories={<RankedListSkeleton />}
      activeForms={activeForms ?? <RankedListSkeleton rows={3} />}
    />
  );
}
