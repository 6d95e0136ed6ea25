import { type ListPromise, listOf } from '../pagination.ts';
import type { Event, EventListParams } from '../types.ts';
import { answer, type RequestOptions, Resource } from './resource.ts';

/** `/api/v1/events`: the account's events of the last 30 days, as webhooks deliver them. */
export class Events extends Resource {
  list(params: EventListParams = {}, options?: RequestOptions): ListPromise<Event> {
    return listOf(params, (query) =>
      answer(this.api.GET('/api/v1/events', { params: { query }, ...this.readInit(options) })),
    );
  }

  get(id: string, options?: RequestOptions): Promise<Event> {
    return answer(
      this.api.GET('/api/v1/events/{id}', { params: { path: { id } }, ...this.readInit(options) }),
    );
  }
}
