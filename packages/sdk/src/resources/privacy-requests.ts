import { type ListPromise, listOf } from '../pagination.ts';
import type {
  ExtendPrivacyRequestParams,
  FilePrivacyRequestParams,
  PrivacyRequest,
  PrivacyRequestListParams,
} from '../types.ts';
import { answer, type PostOptions, type RequestOptions, Resource } from './resource.ts';

/**
 * `/api/v1/privacy-requests`: data-subject requests (access, erasure, restriction) filed, followed, extended once,
 * carried out, and an access request's bundle downloaded.
 */
export class PrivacyRequests extends Resource {
  /** Filed: open, due by its law. Needs `privacy:write`. */
  create(params: FilePrivacyRequestParams, options?: PostOptions): Promise<PrivacyRequest> {
    return answer(this.api.POST('/api/v1/privacy-requests', { body: params, ...this.writeInit(options) }));
  }

  /** Newest received first; `await` it for one page, `for await` over it for every request. */
  list(params: PrivacyRequestListParams = {}, options?: RequestOptions): ListPromise<PrivacyRequest> {
    return listOf(params, (query) =>
      answer(this.api.GET('/api/v1/privacy-requests', { params: { query }, ...this.readInit(options) })),
    );
  }

  get(id: string, options?: RequestOptions): Promise<PrivacyRequest> {
    return answer(
      this.api.GET('/api/v1/privacy-requests/{id}', { params: { path: { id } }, ...this.readInit(options) }),
    );
  }

  /** The one extension, with the reason the requester is told. */
  extend(id: string, params: ExtendPrivacyRequestParams, options?: PostOptions): Promise<PrivacyRequest> {
    return answer(
      this.api.POST('/api/v1/privacy-requests/{id}/extend', {
        params: { path: { id } },
        body: params,
        ...this.writeInit(options),
      }),
    );
  }

  /** Starts its job (status `running`); a second call throws a `privacy_request_not_open` problem (409). */
  carryOut(id: string, options?: PostOptions): Promise<PrivacyRequest> {
    return answer(
      this.api.POST('/api/v1/privacy-requests/{id}/carry-out', {
        params: { path: { id } },
        body: {},
        ...this.writeInit(options),
      }),
    );
  }

  /** An answered access request's bundle: the ZIP's bytes (`data.json` and one CSV per kind). */
  async bundle(id: string, options?: RequestOptions): Promise<Uint8Array> {
    const buffer = await answer(
      this.api.GET('/api/v1/privacy-requests/{id}/bundle', {
        params: { path: { id } },
        parseAs: 'arrayBuffer',
        ...this.readInit(options),
      }),
    );
    return new Uint8Array(buffer);
  }
}
