import type {
  Certificate,
  CertificateKeys,
  PublicCertificate,
  VerificationCertificateStanding,
} from '@veriform/contracts';
import { parseKeys, verifyCertificateFile } from '@veriform/verify-certificate';
import { describe, expect, it } from 'vitest';
import { newOwner } from '../../test-support/teams.ts';
import { useTwilioTestApp } from '../../test-support/twilio-app.ts';
import { LOOKUP_NUMBERS, STAND_IN_CARRIER } from '../../test-support/twilio-lookup.ts';
import {
  APPROVED_AT,
  approvedVerification,
  createForm,
  linkCarrierLookups,
} from '../verifications/test-helpers.ts';
import { pdfLines } from './pdf-text.test-support.ts';

/**
 * What a certificate says of the number (issue #36): the carrier's answers when the code was requested are signed
 * (facts of that moment), the latest reassigned-number check is in its standing and printed on its PDF, unsigned
 * (checks come later), so a check leaves the signed bytes as they were.
 */

const { t } = useTwilioTestApp();

describe('a certificate’s number checks', () => {
  it('signs the carrier’s answers; the standing, the public page and the PDF give the latest check, the signed bytes unchanged by it', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const made = await approvedVerification(t, form, { phone: LOOKUP_NUMBERS.reassignedYes });
    const swappedAt = new Date(APPROVED_AT.getTime() - 86_400_000);
    await linkCarrierLookups(t, owner.accountId, made, {
      lineType: 'mobile',
      carrierName: STAND_IN_CARRIER,
      lastSimSwapAt: swappedAt,
      withinWindow: true,
      windowDays: 7,
    });
    const base = `/api/verifications/${made.verificationId}`;

    const file = await owner.c.get(`${base}/certificate`);
    expect(file.statusCode, file.body).toBe(200);
    const { certificate } = file.json<{ certificate: Certificate }>();
    expect(certificate.carrier).toEqual({ lineType: 'mobile', name: STAND_IN_CARRIER });
    expect(certificate.simSwap).toEqual({
      lastSwapAt: swappedAt.toISOString(),
      withinWindow: true,
      windowDays: 7,
    });
    const keys = parseKeys(
      (
        await t.app.inject({ method: 'GET', url: '/.well-known/veriform-certificate-keys.json' })
      ).json<CertificateKeys>(),
    );
    expect(verifyCertificateFile(Buffer.from(file.body), keys).verdict).toBe('authentic');

    const standing = async () =>
      (await owner.c.get(`${base}/certificate/standing`)).json<VerificationCertificateStanding>();
    expect((await standing()).reassignment).toBeNull();
    const pdfBefore = await owner.c.get(`${base}/certificate.pdf`);
    expect(pdfLines(pdfBefore.rawPayload).join(' ')).toContain(
      'never checked when this PDF was made (not part of the signed certificate)',
    );

    const checked = await owner.c.post(`${base}/reassignment-checks`);
    expect(checked.statusCode, checked.body).toBe(201);
    const checkedAt = checked.json<{ checkedAt: string }>().checkedAt;
    const reassignment = { checkedAt, lastVerifiedDate: '2026-03-10', answer: 'yes', errorCode: null };
    expect((await standing()).reassignment).toEqual(reassignment);
    const certId = (await standing()).certificateId ?? '';
    const publicPage = await t.app.inject({ method: 'GET', url: `/api/public/certificates/${certId}` });
    expect(publicPage.json<PublicCertificate>()).toMatchObject({
      reassignment,
      certificate: { carrier: certificate.carrier, simSwap: certificate.simSwap },
    });

    // The PDF's lines wrap: they are read joined by spaces. The signed file is the same bytes; the PDF prints the check beside it, sealed as ever.
    expect((await owner.c.get(`${base}/certificate`)).body).toBe(file.body);
    const pdf = await owner.c.get(`${base}/certificate.pdf`);
    const text = pdfLines(pdf.rawPayload).join(' ');
    expect(text).toContain(`Mobile (${STAND_IN_CARRIER})`);
    expect(text).toContain("WITHIN the account's 7-day window before the code");
    expect(text).toContain('Reassigned since consent: checked');
    expect(text).toContain('for consent of 2026-03-10');
    expect(verifyCertificateFile(pdf.rawPayload, keys).verdict).toBe('authentic');
  });

  it('says not looked up when the carrier was not asked', async () => {
    const owner = await newOwner(t.app);
    const form = await createForm(owner);
    const made = await approvedVerification(t, form, { phone: '+12015550188' });
    const base = `/api/verifications/${made.verificationId}`;
    const { certificate } = (await owner.c.get(`${base}/certificate`)).json<{ certificate: Certificate }>();
    expect(certificate).toMatchObject({ carrier: null, simSwap: null });
    const text = pdfLines((await owner.c.get(`${base}/certificate.pdf`)).rawPayload).join(' ');
    expect(text).toMatch(/Line type\s*not looked up/);
  });
});
