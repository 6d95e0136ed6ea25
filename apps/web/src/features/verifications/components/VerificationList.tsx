import { useCompactLayout } from '../../../lib/use-compact-layout';
import { VerificationCards } from './VerificationCards';
import { type VerificationRowsProps, VerificationsTable } from './VerificationsTable';

/** The activity log's rows: a table on wide screens, cards on small ones (nothing cut off or hidden sideways). */
export function VerificationList(props: VerificationRowsProps) {
  return useCompactLayout() ? <VerificationCards {...props} /> : <VerificationsTable {...props} />;
}
