import type { InitialData } from '@veriform/contracts';
import type { Services } from './services';

/** What every route's `beforeLoad` and loader receive. */
export interface RouterContext extends Services {
  /** The page data the server sent with the first page (token validity lives in its `extra`). */
  initialData: InitialData;
}
