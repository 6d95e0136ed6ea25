import type { PaginationProps } from '@mantine/core';
import { lazy, Suspense } from 'react';

// Most lists fit on one page: the pager's code (~3 KB gzip) is fetched when a list needs it, not with every visit.
const Pagination = lazy(() => import('./pagination-code').then((module) => ({ default: module.Pagination })));

/** Mantine's Pagination, fetched when first shown; meanwhile a row of its height (size md) keeps the page still. */
export function DeferredPagination(props: PaginationProps) {
  return (
    <Suspense fallback={<div style={{ height: 'calc(2rem * var(--mantine-scale))' }} />}>
      <Pagination {...props} />
    </Suspense>
  );
}
