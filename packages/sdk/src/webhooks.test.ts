import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './webhooks.ts';

/**
 * verifyWebhook against deliveries signed by another implementation of Standard Webhooks (the `standardwebhooks`
 * package the docs' receiver uses); against the server's own deliveries it is tested in apps/server's sdk.test.ts.
 */

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const body = JSON.stringify({
  type: 'verification.approved',
  timestamp: '2026-01-01T00:00:00.000Z',
  data: { id: 'a1', status: 'approved' },
});

function signed(secret: string, at = new Date(), id = 'evt_1') {
  const signature = new Webhook(secret).sign(id, at, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

const failureOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return null;
};

describe('verifyWebhook', () => {
  it('answers the event of a signed delivery, from a string or bytes, Node headers or fetch Headers', () => {
    const secret = newSecret();
    const headers = signed(secret);
    const event = {
      id: 'evt_1',
      type: 'verification.approved',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: { id: 'a1', status: 'approved' },
    };
    expect(verifyWebhook({ payload: body, headers, secret })).toEqual(event);
    expect(
      verifyWebhook({ payload: new TextEncoder().encode(body), headers: new Headers(headers), secret }),
    ).toEqual(event);
    const shouting = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook({ payload: body, headers: shouting, secret: [newSecret(), secret] })).toEqual(event);
  });

  it('accepts either signature during a rotation, and refuses a body, an id or a secret that differ', () => {
    const [old, next] = [newSecret(), newSecret()];
    const both = signed(old);
    both['webhook-signature'] = `${signed(next)['webhook-signature']} ${both['webhook-signature']}`;
    expect(verifyWebhook({ payload: body, headers: both, secret: next }).id).toBe('evt_1');
    expect(verifyWebhook({ payload: body, headers: both, secret: old }).id).toBe('evt_1');
    const headers = signed(old);
    expect(failureOf(() => verifyWebhook({ payload: `${body} `, headers, secret: old }))).toBe(
      'bad_signature',
    );
    expect(
      failureOf(() =>
        verifyWebhook({ payload: body, headers: { ...headers, 'webhook-id': 'evt_2' }, secret: old }),
      ),
    ).toBe('bad_signature');
    expect(failureOf(() => verifyWebhook({ payload: body, headers, secret: newSecret() }))).toBe(
      'bad_signature',
    );
    expect(failureOf(() => verifyWebhook({ payload: body, headers: {}, secret: old }))).toBe(
      'missing_headers',
    );
  });

  it('refuses a timestamp more than the tolerance away from now, either way', () => {
    const secret = newSecret();
    const now = new Date();
    const ago = (seconds: number) => signed(secret, new Date(now.getTime() - seconds * 1000));
    expect(verifyWebhook({ payload: body, headers: ago(290), secret, now }).id).toBe('evt_1');
    expect(failureOf(() => verifyWebhook({ payload: body, headers: ago(310), secret, now }))).toBe(
      'timestamp_too_old',
    );
    expect(failureOf(() => verifyWebhook({ payload: body, headers: ago(-310), secret, now }))).toBe(
      'timestamp_too_new',
    );
    expect(verifyWebhook({ payload: body, headers: ago(3600), secret, now, toleranceSeconds: 7200 }).id).toBe(
      'evt_1',
    );
  });

  it('refuses a signed body that is not an event, and an empty secret', () => {
    const secret = newSecret();
    const notAnEvent = '[1,2]';
    const at = new Date();
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('evt_1', at, notAnEvent),
    };
    expect(failureOf(() => verifyWebhook({ payload: notAnEvent, headers, secret }))).toBe('bad_payload');
    expect(() => verifyWebhook({ payload: body, headers, secret: 'whsec_' })).toThrow(TypeError);
  });
});
