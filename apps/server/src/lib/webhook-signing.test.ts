import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signDelivery } from './webhook-signing.ts';

const body = JSON.stringify({
  type: 'verification.approved',
  timestamp: '2026-11-24T20:00:00.000Z',
  data: { id: 'ver_1', status: 'approved', phone: '+4915112345678' },
});

function verify(secret: string, payload: string, headers: Record<string, string>): unknown {
  return new Webhook(secret).verify(payload, headers);
}

describe('newWebhookSecret', () => {
  it('makes a whsec_ secret of 24 random bytes that differs every time', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });
});

describe('signDelivery', () => {
  it('sends the id and the timestamp in unix seconds', () => {
    const headers = signDelivery({
      id: 'evt_1',
      timestamp: new Date('2026-11-24T20:00:00.900Z'),
      body,
      secrets: [newWebhookSecret()],
    });
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toBe(String(Date.UTC(2026, 10, 24, 20) / 1000));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('verifies with the standardwebhooks package', () => {
    const secret = newWebhookSecret();
    const headers = signDelivery({ id: 'evt_1', timestamp: new Date(), body, secrets: [secret] });
    expect(verify(secret, body, headers)).toEqual(JSON.parse(body));
    expect(() => verify(newWebhookSecret(), body, headers)).toThrow('No matching signature');
  });

  it('signs with both secrets during a rotation, so a receiver holding either one verifies', () => {
    const previous = newWebhookSecret();
    const next = newWebhookSecret();
    const headers = signDelivery({ id: 'evt_2', timestamp: new Date(), body, secrets: [previous, next] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(previous, body, headers)).toEqual(JSON.parse(body));
    expect(verify(next, body, headers)).toEqual(JSON.parse(body));
    expect(() => verify(newWebhookSecret(), body, headers)).toThrow('No matching signature');
  });

  it('fails verification when the body is changed', () => {
    const secret = newWebhookSecret();
    const headers = signDelivery({ id: 'evt_3', timestamp: new Date(), body, secrets: [secret] });
    const changed = body.replace('approved', 'failed');
    expect(() => verify(secret, changed, headers)).toThrow('No matching signature');
  });

  it('fails verification when the timestamp or the id is changed', () => {
    const secret = newWebhookSecret();
    const headers = signDelivery({ id: 'evt_4', timestamp: new Date(), body, secrets: [secret] });
    const earlier = String(Number(headers['webhook-timestamp']) - 10);
    expect(() => verify(secret, body, { ...headers, 'webhook-timestamp': earlier })).toThrow(
      'No matching signature',
    );
    expect(() => verify(secret, body, { ...headers, 'webhook-id': 'evt_5' })).toThrow(
      'No matching signature',
    );
  });

  it('does not cover the URL: the signature is exactly the one over id, timestamp and body', () => {
    const secret = newWebhookSecret();
    const timestamp = new Date();
    const headers = signDelivery({ id: 'evt_6', timestamp, body, secrets: [secret] });
    // The reference signer has no URL input at all; matching it byte for byte means a proxy rewriting the address
    // (host, path, scheme) cannot break verification.
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('evt_6', timestamp, body));
  });

  it('refuses to sign without a secret', () => {
    expect(() => signDelivery({ id: 'evt_7', timestamp: new Date(), body, secrets: [] })).toThrow();
    expect(() => signDelivery({ id: 'evt_7', timestamp: new Date(), body, secrets: ['whsec_'] })).toThrow();
  });
});
