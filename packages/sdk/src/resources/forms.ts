import { type ListPromise, listOf } from '../pagination.ts';
import type { Form, FormListParams } from '../types.ts';
import { answer, type RequestOptions, Resource } from './resource.ts';

/** `/api/v1/forms`: the account's verification forms (a verification starts from a live one). */
export class Forms extends Resource {
  list(params: FormListParams = {}, options?: RequestOptions): ListPromise<Form> {
    return listOf(params, (query) =>
      answer(this.api.GET('/api/v1/forms', { params: { query }, ...this.readInit(options) })),
    );
  }
}
