import type {
  CheckCodeResponse,
  PublicConsent,
  PublicPageData,
  SendCodeResponse,
  VerifyForm,
} from '@veriform/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TestClient } from './client.ts';
import { latestCodeTo } from './codes.ts';
import { initialDataOf } from './outbox.ts';
import { nextIp, type Owner } from './teams.ts';

/** Public verification in tests: live forms, consumers with their own address, fresh cell phone numbers. */

let phoneCounter = 0;
/**
 * A fresh US cell phone number per call, typed as a consumer would and as stored (E.164). Area code 415 with an
 * exchange of 200–899 parses as FIXED_LINE_OR_MOBILE, which the page accepts.
 */
export function newCellPhone(): { typed: string; e164: string } {
  phoneCounter += 1;
  const exchange = 200 + (Math.floor(phoneCounter / 10_000) % 700);
  const line = String(phoneCounter % 10_000).padStart(4, '0');
  return { typed: `(415) ${exchange}-${line}`, e164: `+1415${exchange}${line}` };
}

/** A form of the owner's account, live unless `isLive: false`. */
export async function createPublicForm(
  owner: Owner,
  options: { name?: string; language?: 'en' | 'es'; category?: string; isLive?: boolean } = {},
): Promise<VerifyForm> {
  const created = await owner.c.post('/api/verify-forms', {
    account: owner.accountId,
    name: options.name ?? 'Loan application',
    ...(options.language ? { language: options.language } : {}),
    ...(options.category !== undefined ? { category: options.category } : {}),
  });
  if (created.statusCode !== 201) throw new Error(`create form: ${created.statusCode} ${created.body}`);
  const form = created.json<VerifyForm>();
  if (options.isLive === false) return form;
  const live = await owner.c.patch(`/api/verify-forms/${form.id}`, { isLive: true });
  if (live.statusCode !== 200) throw new Error(`make form live: ${live.statusCode} ${live.body}`);
  return live.json<VerifyForm>();
}

/**
 * A consumer: nobody logged in, from an address of its own, holding the CSRF token of the public page it opened
 * (as the real page does).
 */
export class Consumer extends TestClient {
  /** The consent version the opened page showed (issue #18): the page sends it back with its tick. */
  shownConsent: PublicConsent | null = null;
  /** The page view the opened page's data carried (issue #18): the page sends it back with send-code. */
  pageViewId: string | null = null;

  async open(publicId: string, query = ''): Promise<{ page: LightMyRequestResponse; data: PublicPageData }> {
    const page = await this.get(`/f/${publicId}${query}`);
    const data = initialDataOf(page.body) as PublicPageData;
    this.csrfToken = data.csrfToken;
    this.shownConsent = data.form?.consent ?? null;
    this.pageViewId = data.form?.pageViewId ?? null;
    return { page, data };
  }

  /** What the page adds to send-code once its box is ticked: the version shown, accepted. */
  consentFields(): { consentVersionId?: string; consentAccepted?: boolean } {
    return this.shownConsent ? { consentVersionId: this.shownConsent.versionId, consentAccepted: true } : {};
  }

  /** What the page adds to send-code to link the code to its opening (issue #18). */
  pageFields(): { pageViewId?: string } {
    return this.pageViewId ? { pageViewId: this.pageViewId } : {};
  }

  sendCode(publicId: string, body: unknown) {
    return this.post(`/api/public/verify-forms/${publicId}/send-code`, body);
  }

  check(attemptId: string, code: unknown) {
    return this.post(`/api/public/attempts/${attemptId}/check`, { code });
  }
}

export async function newConsumer(app: FastifyInstance, publicId: string, ip = nextIp()): Promise<Consumer> {
  const consumer = new Consumer(app, ip);
  await consumer.open(publicId);
  return consumer;
}

/** The whole journey by text message: open the page, ask for a code, read it from the outbox, type it back. */
export async function verifyPhone(
  app: FastifyInstance,
  publicId: string,
  options: { cellPhone?: string; externalRefId?: string; consumer?: Consumer } = {},
): Promise<{ sent: SendCodeResponse; verified: CheckCodeResponse; e164: string }> {
  const consumer = options.consumer ?? (await newConsumer(app, publicId));
  const phone = options.cellPhone ? { typed: options.cellPhone, e164: '' } : newCellPhone();
  const response = await consumer.sendCode(publicId, {
    cellPhone: phone.typed,
    method: 'sms',
    ...(options.externalRefId ? { externalRefId: options.externalRefId } : {}),
    ...consumer.consentFields(),
    ...consumer.pageFields(),
  });
  if (response.statusCode !== 201) throw new Error(`send-code: ${response.statusCode} ${response.body}`);
  const sent = response.json<SendCodeResponse>();
  const e164 = phone.e164 || sent.cellPhone.replace(/[^\d+]/g, '');
  const code = await latestCodeTo(app, e164);
  const checked = await consumer.check(sent.attemptId, code);
  if (checked.statusCode !== 200) throw new Error(`check: ${checked.statusCode} ${checked.body}`);
  return { sent, verified: checked.json<CheckCodeResponse>(), e164 };
}

/**
 * Adds a test number to the owner's account (its fixed `code` verifies it, nothing is sent): the set-up of the tests of
 * test mode, API v1 and the verdict. Fails loudly when the app refuses it.
 */
export async function addTestNumber(owner: Owner, cellPhone: string, code = '123456'): Promise<void> {
  const response = await owner.c.post('/api/test-phone-numbers', {
    account: owner.accountId,
    cellPhone,
    code,
  });
  if (response.statusCode !== 201)
    throw new Error(`adding test number ${cellPhone}: ${response.statusCode} ${response.body}`);
}
