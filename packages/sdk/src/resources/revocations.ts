import { type ListPromise, listOf } from '../pagination.ts';
import type { RecordRevocationParams, Revocation, RevocationListParams } from '../types.ts';
import { answer, type PostOptions, type RequestOptions, Resource } from './resource.ts';

/** `/api/v1/revocations`: revocations of consent from every channel, recorded, read and acknowledged. */
export class Revocations extends Resource {
  /** One received elsewhere (a call, an e-mail, a letter): open at once. Needs `revocations:write`. */
  create(params: RecordRevocationParams, options?: PostOptions): Promise<Revocation> {
    return answer(this.api.POST('/api/v1/revocations', { body: params, ...this.writeInit(options) }));
  }

  /** Newest received first; `await` it for one page, `for await` over it for every revocation. */
  list(params: RevocationListParams = {}, options?: RequestOptions): ListPromise<Revocation> {
    return listOf(params, (query) =>
      answer(this.api.GET('/api/v1/revocations', { params: { query }, ...this.readInit(options) })),
    );
  }

  get(id: string, options?: RequestOptions): Promise<Revocation> {
    return answer(
      this.api.GET('/api/v1/revocations/{id}', { params: { path: { id } }, ...this.readInit(options) }),
    );
  }

  /** Says it is honoured, once: a second call throws a `revocation_not_open` problem (409). */
  acknowledge(id: string, options?: PostOptions): Promise<Revocation> {
    return answer(
      this.api.POST('/api/v1/revocations/{id}/acknowledge', {
        params: { path: { id } },
        ...this.writeInit(options),
      }),
    );
  }
}
