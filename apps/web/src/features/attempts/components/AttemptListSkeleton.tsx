import { ListSkeleton } from '../../../components/data-list/ListSkeleton';
import { attemptColumns } from './columns';

/**
 * The placeholder while the attempts load, as cards or a table like the rows will be. Its own module, importing
 * neither the table nor the cards: the route's pending state may load before the route's own chunk.
 */
export function AttemptListSkeleton({ rows = 5 }: { rows?: number }) {
  return <ListSkeleton label="Loading codes sent" columns={attemptColumns} rows={rows} />;
}
