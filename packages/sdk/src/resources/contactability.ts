import { type ListPromise, listOf } from '../pagination.ts';
import type {
  ContactabilityBatchParams,
  ContactabilityCheckListParams,
  ContactabilityParams,
  ContactabilityVerdict,
} from '../types.ts';
import { answer, type PostOptions, type RequestOptions, Resource } from './resource.ts';

/** `/api/v1/contactability`: "may I contact this number now?", one number or up to 1,000, every verdict kept. */
export class Contactability extends Resource {
  /** The verdict for one number (now, unless `at`). Needs `contactability:read`. */
  check(params: ContactabilityParams, options?: RequestOptions): Promise<ContactabilityVerdict> {
    return answer(
      this.api.GET('/api/v1/contactability', { params: { query: params }, ...this.readInit(options) }),
    );
  }

  /** The verdicts for up to 1,000 numbers, in the order asked. */
  async checkBatch(
    params: ContactabilityBatchParams,
    options?: PostOptions,
  ): Promise<ContactabilityVerdict[]> {
    const { results } = await answer(
      this.api.POST('/api/v1/contactability', { body: params, ...this.writeInit(options) }),
    );
    return results;
  }

  /** The verdicts given, newest first: the proof that the account checked before contacting. */
  listChecks(
    params: ContactabilityCheckListParams = {},
    options?: RequestOptions,
  ): ListPromise<ContactabilityVerdict> {
    return listOf(params, (query) =>
      answer(this.api.GET('/api/v1/contactability/checks', { params: { query }, ...this.readInit(options) })),
    );
  }
}
