import type { ListPromise } from '../pagination.ts';
import { listOf } from '../pagination.ts';
import type {
  CheckResult,
  CheckVerificationParams,
  ReassignmentCheck,
  ReassignmentCheckList,
  RefreshLink,
  SignedCertificate,
  StartVerificationParams,
  Verification,
  VerificationListParams,
} from '../types.ts';
import { answer, type PostOptions, type RequestOptions, Resource } from './resource.ts';

/** A certificate as the server answered it: the parsed object, and the exact bytes that were signed. */
export type CertificateFile = { data: SignedCertificate; bytes: Uint8Array };

/** `/api/v1/verifications`: a code sent to a number (or an address), checked, resent, canceled, certified. */
export class Verifications extends Resource {
  /** Sends a code (`to`), or answers a hosted link (no `to`). Needs `verifications:write`. */
  start(params: StartVerificationParams, options?: PostOptions): Promise<Verification> {
    return answer(this.api.POST('/api/v1/verifications', { body: params, ...this.writeInit(options) }));
  }

  get(id: string, options?: RequestOptions): Promise<Verification> {
    return answer(
      this.api.GET('/api/v1/verifications/{id}', { params: { path: { id } }, ...this.readInit(options) }),
    );
  }

  /** Newest first; `await` it for one page, `for await` over it for every verification. */
  list(params: VerificationListParams = {}, options?: RequestOptions): ListPromise<Verification> {
    return listOf(params, (query) =>
      answer(this.api.GET('/api/v1/verifications', { params: { query }, ...this.readInit(options) })),
    );
  }

  /** Always answers what happened (`approved`, `incorrect`…); throws only for an unknown id or a refused request. */
  check(id: string, params: CheckVerificationParams, options?: PostOptions): Promise<CheckResult> {
    return answer(
      this.api.POST('/api/v1/verifications/{id}/check', {
        params: { path: { id } },
        body: params,
        ...this.writeInit(options),
      }),
    );
  }

  /** A new code to the same number: a new verification that replaces this one. */
  resend(id: string, options?: PostOptions): Promise<Verification> {
    return answer(
      this.api.POST('/api/v1/verifications/{id}/resend', {
        params: { path: { id } },
        ...this.writeInit(options),
      }),
    );
  }

  cancel(id: string, options?: PostOptions): Promise<Verification> {
    return answer(
      this.api.POST('/api/v1/verifications/{id}/cancel', {
        params: { path: { id } },
        ...this.writeInit(options),
      }),
    );
  }

  /**
   * A fresh verification link for an approved verification whose consent is reassigned, stale or revoked: the
   * verification made through `hostedUrl` refreshes this one and keeps its `externalRefId`. Needs `verifications:write`.
   */
  refresh(id: string, options?: PostOptions): Promise<RefreshLink> {
    return answer(
      this.api.POST('/api/v1/verifications/{id}/refresh', {
        params: { path: { id } },
        ...this.writeInit(options),
      }),
    );
  }

  /**
   * Asks whether the approved verification's number was reassigned since its consent (US numbers), and keeps the
   * answer as proof: `yes`, `no` or `no_data`. Needs `verifications:write`.
   */
  checkReassignment(id: string, options?: PostOptions): Promise<ReassignmentCheck> {
    return answer(
      this.api.POST('/api/v1/verifications/{id}/reassignment-checks', {
        params: { path: { id } },
        ...this.writeInit(options),
      }),
    );
  }

  /** Every reassigned-number check of the verification, newest first. Needs `verifications:read`. */
  reassignmentChecks(id: string, options?: RequestOptions): Promise<ReassignmentCheckList> {
    return answer(
      this.api.GET('/api/v1/verifications/{id}/reassignment-checks', {
        params: { path: { id } },
        ...this.readInit(options),
      }),
    );
  }

  /** The signed certificate of an approved verification; keep `bytes` as they are to check them later. */
  async certificate(id: string, options?: RequestOptions): Promise<CertificateFile> {
    const buffer = await answer(
      this.api.GET('/api/v1/verifications/{id}/certificate', {
        params: { path: { id } },
        parseAs: 'arrayBuffer',
        ...this.readInit(options),
      }),
    );
    const bytes = new Uint8Array(buffer);
    const data: SignedCertificate = JSON.parse(new TextDecoder().decode(bytes));
    return { data, bytes };
  }

  /** The same certificate as a PDF, sealed over every byte. */
  async certificatePdf(id: string, options?: RequestOptions): Promise<Uint8Array> {
    const buffer = await answer(
      this.api.GET('/api/v1/verifications/{id}/certificate.pdf', {
        params: { path: { id } },
        parseAs: 'arrayBuffer',
        ...this.readInit(options),
      }),
    );
    return new Uint8Array(buffer);
  }
}
