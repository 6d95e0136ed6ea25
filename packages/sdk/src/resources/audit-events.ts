import { type ListPromise, listOf } from '../pagination.ts';
import type { AuditEvent, AuditEventListParams } from '../types.ts';
import { answer, type RequestOptions, Resource } from './resource.ts';

/** `/api/v1/audit-events`: who did what in the account, hash-chained (a test key's list is empty). */
export class AuditEvents extends Resource {
  list(params: AuditEventListParams = {}, options?: RequestOptions): ListPromise<AuditEvent> {
    return listOf(params, (query) =>
      answer(this.api.GET('/api/v1/audit-events', { params: { query }, ...this.readInit(options) })),
    );
  }
}
