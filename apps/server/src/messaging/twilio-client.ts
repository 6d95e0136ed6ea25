import type Twilio from 'twilio';
import type { Config } from '../config.ts';

export type TwilioClient = ReturnType<typeof Twilio>;

/**
 * The one way the app reaches Twilio: the code texts (sms.ts) and the carrier lookups (lookup.ts), with the account
 * credentials of config.ts. The Twilio SDK (~0.3 s to import) loads with the first call, not at start. Its documented
 * way to point it elsewhere is a custom `httpClient` (the API hosts are fixed in the generated code): with
 * TWILIO_API_URL (tests and local development only) every request's origin, api.twilio.com's and
 * lookups.twilio.com's alike, is rewritten to it. `timeoutMs` is the default of each request (a request may set its
 * own).
 */
export async function twilioClient(
  settings: NonNullable<Config['twilio']>,
  timeoutMs: number,
): Promise<TwilioClient> {
  const { default: twilio } = await import('twilio');
  type RequestOptions = Parameters<Twilio.RequestClient['request']>[0];
  class RedirectingRequestClient extends twilio.RequestClient {
    readonly #origin: string;
    constructor(origin: string, timeout: number) {
      super({ timeout });
      this.#origin = origin;
    }
    override request<TData>(opts: RequestOptions & { data?: TData }) {
      const uri = new URL(opts.uri);
      const target = new URL(this.#origin);
      uri.protocol = target.protocol;
      uri.host = target.host;
      return super.request<TData>({ ...opts, uri: uri.toString() });
    }
  }
  return twilio(settings.accountSid, settings.authToken, {
    timeout: timeoutMs,
    ...(settings.apiUrl ? { httpClient: new RedirectingRequestClient(settings.apiUrl, timeoutMs) } : {}),
  });
}
