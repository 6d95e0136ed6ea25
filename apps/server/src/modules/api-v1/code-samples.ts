/**
 * One `curl` example per API v1 operation, shown by the docs page (OpenAPI's `x-codeSamples`) and run as written by
 * `docs.test.ts` against a listening app: an example that drifts from the server fails the suite. They read the key
 * and ids from the shell (`VERIFORM_API_KEY`, `FORM_ID`, `VERIFICATION_ID`, `EVENT_ID`, `REVOCATION_ID`, `PRIVACY_REQUEST_ID`), as the quick start sets
 * them; the verification examples use a test number, so a `vf_test_` key runs them without sending anything.
 */

const samples: Record<string, (base: string) => string> = {
  listForms: (base) => `curl "${base}/api/v1/forms?limit=10" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  startVerification: (base) => `curl "${base}/api/v1/verifications" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: lead-4711-verify-1" \\
  -d '{"formId": '"$FORM_ID"', "to": "+12015550123", "externalRefId": "lead-4711"}'`,
  getVerification: (base) => `curl "${base}/api/v1/verifications/$VERIFICATION_ID" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  checkVerification: (base) => `curl "${base}/api/v1/verifications/$VERIFICATION_ID/check" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"code": "123456"}'`,
  getVerificationCertificate: (base) => `curl "${base}/api/v1/verifications/$VERIFICATION_ID/certificate" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  getVerificationCertificatePdf: (
    base,
  ) => `curl "${base}/api/v1/verifications/$VERIFICATION_ID/certificate.pdf" --output certificate.pdf \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  refreshVerification: (base) => `curl -X POST "${base}/api/v1/verifications/$VERIFICATION_ID/refresh" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  createReassignmentCheck: (
    base,
  ) => `curl -X POST "${base}/api/v1/verifications/$VERIFICATION_ID/reassignment-checks" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  listReassignmentChecks: (
    base,
  ) => `curl "${base}/api/v1/verifications/$VERIFICATION_ID/reassignment-checks" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  listVerifications: (
    base,
  ) => `curl "${base}/api/v1/verifications?externalRefId=lead-4711&status=approved&limit=20" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  resendVerification: (base) => `curl -X POST "${base}/api/v1/verifications/$VERIFICATION_ID/resend" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  listAuditEvents: (base) => `curl "${base}/api/v1/audit-events?limit=50" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  cancelVerification: (base) => `curl -X POST "${base}/api/v1/verifications/$VERIFICATION_ID/cancel" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  listEvents: (base) => `curl "${base}/api/v1/events?type=verification.approved&limit=20" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  getEvent: (base) => `curl "${base}/api/v1/events/$EVENT_ID" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  checkContactability: (base) => `curl -G "${base}/api/v1/contactability" \\
  --data-urlencode "phone=+12015550123" -d channel=sms -d purpose=marketing \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  checkContactabilityBatch: (base) => `curl "${base}/api/v1/contactability" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"checks": [{"phone": "+12015550123", "purpose": "informational"}, {"phone": "+13055550147"}]}'`,
  listContactabilityChecks: (base) => `curl "${base}/api/v1/contactability/checks?limit=20" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  createRevocation: (base) => `curl "${base}/api/v1/revocations" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"phone": "+12015550123", "via": "phone_call", "note": "Asked our call centre to stop texting."}'`,
  listRevocations: (base) => `curl "${base}/api/v1/revocations?status=open&limit=20" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  getRevocation: (base) => `curl "${base}/api/v1/revocations/$REVOCATION_ID" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  acknowledgeRevocation: (base) => `curl -X POST "${base}/api/v1/revocations/$REVOCATION_ID/acknowledge" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  createPrivacyRequest: (base) => `curl "${base}/api/v1/privacy-requests" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"type": "access", "law": "ccpa", "phones": ["+12015550123"], "requester": {"name": "Ana Díaz", "email": "ana@example.com"}}'`,
  listPrivacyRequests: (base) => `curl "${base}/api/v1/privacy-requests?status=open&limit=20" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  getPrivacyRequest: (base) => `curl "${base}/api/v1/privacy-requests/$PRIVACY_REQUEST_ID" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  extendPrivacyRequest: (base) => `curl "${base}/api/v1/privacy-requests/$PRIVACY_REQUEST_ID/extend" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"reason": "The records are kept in two systems; we need more time to search both."}'`,
  carryOutPrivacyRequest: (
    base,
  ) => `curl -X POST "${base}/api/v1/privacy-requests/$PRIVACY_REQUEST_ID/carry-out" \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
  getPrivacyRequestBundle: (
    base,
  ) => `curl "${base}/api/v1/privacy-requests/$PRIVACY_REQUEST_ID/bundle" --output bundle.zip \\
  -H "Authorization: Bearer $VERIFORM_API_KEY"`,
};

/** The operations that have a sample (the docs test asserts every operation of the document is here). */
export const sampledOperations = Object.keys(samples);

type Operation = { operationId?: string; 'x-codeSamples'?: unknown };
type Document = { paths?: Record<string, Record<string, unknown> | undefined> };

const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' && value !== null && 'responses' in value;

export function codeSamplesOf<T extends Document>(document: T, publicUrl: string): T {
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem ?? {})) {
      if (!isOperation(operation) || !operation.operationId) continue;
      const sample = samples[operation.operationId];
      if (sample) operation['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: sample(publicUrl) }];
    }
  }
  return document;
}

/** The curl source of an operation's sample, for the test that runs them. */
export function codeSampleOf(operationId: string, publicUrl: string): string | undefined {
  return samples[operationId]?.(publicUrl);
}
