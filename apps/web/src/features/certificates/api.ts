import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type CertificateCheck,
  type CertificateUnlock,
  certificateEndpoints,
  fillPath,
  type PublicCertificate,
  type VerificationCertificateStanding,
  type VerificationDetail,
  verificationEndpoints,
} from '@veriform/contracts';
import { accountScope } from '../../lib/account-keys';
import { type ApiClient, buildQueryString, NotFoundError } from '../../lib/api-client';
import { useServices } from '../../lib/services';
import { verificationKeys } from '../verifications/api';

/**
 * One place per certificate endpoint (issue #19; the endpoints themselves are the contract's `certificateEndpoints`):
 * the public check page's (no login) and the verification detail page's (account-scoped, so their keys start with the
 * account scope and switching accounts reloads them).
 */
export const certificateKeys = {
  public: (certId: string) => ['public-certificates', certId] as const,
  standing: (accountId: number, verificationId: number) =>
    [...accountScope, accountId, 'verifications', 'certificate-standing', verificationId] as const,
};

/** What a certificate id looks like (`cert_` and base64url): anything else is not found without asking. */
export function isCertificateId(value: string): boolean {
  return /^cert_[A-Za-z0-9_-]{1,64}$/.test(value);
}

/** The public check page of a certificate: the address the PDF's QR code and link point at. */
export function certificatePagePath(certId: string): string {
  return `/certificates/${encodeURIComponent(certId)}`;
}

/** Null when there is no such certificate (404). */
export async function fetchPublicCertificate(
  api: ApiClient,
  certId: string,
  signal?: AbortSignal,
): Promise<PublicCertificate | null> {
  if (!isCertificateId(certId)) return null;
  try {
    return await api.call(certificateEndpoints.publicCertificate, { params: { certId }, signal });
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

export function publicCertificateQueryOptions(api: ApiClient, certId: string) {
  return queryOptions({
    queryKey: certificateKeys.public(certId),
    queryFn: ({ signal }) => fetchPublicCertificate(api, certId, signal),
  });
}

export function checkCertificateFile(api: ApiClient, file: File): Promise<CertificateCheck> {
  const formData = new FormData();
  formData.append('file', file);
  return api.call(certificateEndpoints.check, { formData });
}

export function useCheckCertificateMutation() {
  const { api } = useServices();
  return useMutation({ mutationFn: (file: File) => checkCertificateFile(api, file) });
}

export function unlockCertificate(
  api: ApiClient,
  certId: string,
  cellPhone: string,
): Promise<CertificateUnlock> {
  return api.call(certificateEndpoints.unlock, { params: { certId }, body: { cellPhone } });
}

export function useUnlockCertificateMutation(certId: string) {
  const { api } = useServices();
  return useMutation({ mutationFn: (cellPhone: string) => unlockCertificate(api, certId, cellPhone) });
}

// ---- The verification detail page (session, account-scoped) -------------------------------------------------------

/**
 * The certificate's PDF or signed JSON: plain downloads (the server answers them as attachments), so links rather than
 * calls; the first download issues the certificate.
 */
export function certificateDownloadUrl(
  accountId: number,
  verificationId: number,
  format: 'pdf' | 'json',
): string {
  const { path } = format === 'pdf' ? certificateEndpoints.pdf : certificateEndpoints.json;
  return `${fillPath(path, { id: verificationId })}${buildQueryString({ account: accountId })}`;
}

/** Issues nothing. */
export function fetchCertificateStanding(
  api: ApiClient,
  accountId: number,
  verificationId: number,
  signal?: AbortSignal,
): Promise<VerificationCertificateStanding> {
  return api.call(certificateEndpoints.standing, {
    params: { id: verificationId },
    query: { account: accountId },
    signal,
  });
}

export function certificateStandingQueryOptions(api: ApiClient, accountId: number, verificationId: number) {
  return queryOptions({
    queryKey: certificateKeys.standing(accountId, verificationId),
    queryFn: ({ signal }) => fetchCertificateStanding(api, accountId, verificationId, signal),
  });
}

export function revokeCertificate(
  api: ApiClient,
  accountId: number,
  verificationId: number,
  reason: string,
): Promise<VerificationCertificateStanding> {
  return api.call(certificateEndpoints.revoke, {
    params: { id: verificationId },
    query: { account: accountId },
    body: { reason },
  });
}

export function useRevokeCertificateMutation(accountId: number, verificationId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (reason: string) => revokeCertificate(api, accountId, verificationId, reason),
    onSuccess: (standing) =>
      queryClient.setQueryData(certificateKeys.standing(accountId, verificationId), standing),
    // Revoked meanwhile by another owner, or not: the menu shows what the server has.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: certificateKeys.standing(accountId, verificationId) }),
  });
}

export function redactVerification(
  api: ApiClient,
  accountId: number,
  verificationId: number,
): Promise<VerificationDetail> {
  return api.call(verificationEndpoints.redact, {
    params: { id: verificationId },
    query: { account: accountId },
    body: {},
  });
}

export function useRedactVerificationMutation(accountId: number, verificationId: number) {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: () => redactVerification(api, accountId, verificationId),
    onSuccess: (verification) => {
      queryClient.setQueryData(verificationKeys.detail(accountId, verificationId), verification);
      // The redaction's answer leaves out what the carrier said and the latest check (issue #36): read it whole again.
      void queryClient.invalidateQueries({
        queryKey: verificationKeys.detail(accountId, verificationId),
        exact: true,
      });
      // The list shows the number too, and the certificate's standing is now redacted.
      void queryClient.invalidateQueries({ queryKey: verificationKeys.lists(accountId) });
      void queryClient.invalidateQueries({ queryKey: certificateKeys.standing(accountId, verificationId) });
      void queryClient.invalidateQueries({ queryKey: verificationKeys.timeline(accountId, verificationId) });
    },
  });
}
