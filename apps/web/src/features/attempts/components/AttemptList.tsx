import { useCompactLayout } from '../../../lib/use-compact-layout';
import { AttemptCards } from './AttemptCards';
import type { AttemptRowsProps } from './AttemptCells';
import { AttemptsTable } from './AttemptsTable';

/** The attempts: a table on wide screens, cards on small ones (nothing cut off or hidden sideways). */
export function AttemptList(props: AttemptRowsProps) {
  return useCompactLayout() ? <AttemptCards {...props} /> : <AttemptsTable {...props} />;
}
