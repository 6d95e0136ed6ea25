import type { PrivacyRequest } from '@veriform/contracts';
import { schema } from '@veriform/db';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { TestContext } from '../../test-support/app.ts';
import { jobsSettled } from '../../test-support/jobs.ts';
import type { Owner } from '../../test-support/teams.ts';

/**
 * Data-subject requests as the tests make them: filed through the app's API by an owner (a CCPA request from Ana Díaz
 * unless the body says otherwise), read back, carried out and waited for.
 */

export async function filed(owner: Owner, body: Record<string, unknown>): Promise<PrivacyRequest> {
  const response = await owner.c.post(`/api/privacy-requests?account=${owner.accountId}`, {
    law: 'ccpa',
    requester: { name: 'Ana Díaz' },
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<PrivacyRequest>();
}

export async function read(owner: Owner, id: string): Promise<PrivacyRequest> {
  const response = await owner.c.get(`/api/privacy-requests/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PrivacyRequest>();
}

/** Carried out and waited for: the job answered it (or gave up); the request as it then reads. */
export async function carriedOut(app: FastifyInstance, owner: Owner, id: string): Promise<PrivacyRequest> {
  const response = await owner.c.post(`/api/privacy-requests/${id}/carry-out`, {});
  expect(response.statusCode, response.body).toBe(202);
  expect(response.json<PrivacyRequest>().status).toBe('running');
  await jobsSettled(app);
  return read(owner, id);
}

/** A contactability verdict asked for the number (kept with it: an erasure reaches it). */
export async function verdictOf(owner: Owner, phone: string): Promise<void> {
  const response = await owner.c.post(`/api/contactability?account=${owner.accountId}`, {
    phone,
    purpose: 'informational',
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A carrier lookup of the number, as the line-type check stores one (an erasure reaches it). */
export async function lookupOf(t: TestContext, owner: Owner, phone: string): Promise<void> {
  const at = t.clock.now();
  await t.db.db.insert(schema.lookups).values({
    accountId: owner.accountId,
    kind: 'lineType',
    phone,
    status: 'answered',
    provider: 'twilio',
    answer: {
      phone_number: phone,
      national_format: phone.slice(2),
      line_type_intelligence: { type: 'mobile' },
    },
    lineType: 'mobile',
    askedAt: at,
    answeredAt: at,
  });
}
