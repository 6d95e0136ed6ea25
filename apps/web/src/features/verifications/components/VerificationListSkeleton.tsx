import { CardsSkeleton } from '../../../components/data-list/ListSkeleton';
import { useCompactLayout } from '../../../lib/use-compact-layout';
import { VerificationsTableSkeleton } from './VerificationsTable';

/**
 * The activity log's placeholder while its rows load, as cards or a table like the rows will be. Its own module: the
 * route's pending state is part of the app's start-up bundle, and the cards (with their Sort by select) are not.
 */
export function VerificationListSkeleton() {
  return useCompactLayout() ? (
    <CardsSkeleton label="Loading verifications" />
  ) : (
    <VerificationsTableSkeleton />
  );
}
