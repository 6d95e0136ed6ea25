import { webhookTexts } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkWebhookUrl,
  type HostResolver,
  isPublicAddress,
  resolveWebhookTarget,
  type WebhookUrlPolicy,
} from './webhook-url.ts';

const development: WebhookUrlPolicy = { requireHttps: false, allowPrivate: false };
const production: WebhookUrlPolicy = { requireHttps: true, allowPrivate: false };
const allowPrivate: WebhookUrlPolicy = { requireHttps: false, allowPrivate: true };

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

/** Names the tests make up, each with what it "resolves" to; anything else does not resolve. */
const names: Record<string, string[]> = {
  'hooks.example.com': [PUBLIC_V4, PUBLIC_V6],
  'internal.example.com': ['10.1.2.3'],
  'rebind.example.com': [PUBLIC_V4, '127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:169.254.169.254'],
  'v6-local.example.com': ['fd00:ec2::254'],
  'cgnat.example.com': ['100.100.100.200'],
  'loopback.example.com': ['127.0.0.1', '::1'],
  'rebind-private.example.com': ['127.0.0.1', '10.0.0.1'],
  'link-local-v6.example.com': ['fe80::1'],
  'unspecified.example.com': ['0.0.0.0'],
};
const lookups: string[] = [];
const resolver: HostResolver = async (hostname) => {
  lookups.push(hostname);
  const addresses = names[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};

describe('isPublicAddress', () => {
  it('accepts global unicast IPv4 and IPv6', () => {
    for (const address of [PUBLIC_V4, '8.8.8.8', '1.1.1.1', PUBLIC_V6, '2001:4860:4860::8888']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('refuses loopback, private, link-local, metadata, CGNAT, unspecified, broadcast, multicast, reserved', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '169.254.0.1',
      '100.64.0.1',
      '100.100.100.200',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '240.0.0.1',
      '192.0.0.192',
      '198.18.0.1',
      '::1',
      '::',
      'fc00::1',
      'fd00:ec2::254',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:7f00:1',
      '::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:a9fe:a9fe::1',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe('checkWebhookUrl (no network)', () => {
  it('accepts https anywhere and http outside production', () => {
    expect(checkWebhookUrl(`https://${PUBLIC_V4}/hooks`, production).ok).toBe(true);
    expect(checkWebhookUrl('https://hooks.example.com:8443/in?x=1', production).ok).toBe(true);
    expect(checkWebhookUrl('http://hooks.example.com/in', development).ok).toBe(true);
    expect(checkWebhookUrl('http://hooks.example.com/in', production)).toEqual({
      ok: false,
      reason: 'https_only',
      message: webhookTexts.httpsOnly,
    });
  });

  it('refuses other schemes, unparseable text and user names or passwords in the URL', () => {
    for (const url of [
      'ftp://hooks.example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'hooks',
      '',
    ]) {
      expect(checkWebhookUrl(url, development), url).toMatchObject({ ok: false, reason: 'bad_url' });
    }
    for (const url of ['https://user:pw@hooks.example.com/', 'https://user@hooks.example.com/']) {
      expect(checkWebhookUrl(url, development), url).toEqual({
        ok: false,
        reason: 'credentials',
        message: webhookTexts.credentialsInUrl,
      });
    }
  });

  it('refuses literal private addresses in every spelling the URL parser turns into one', () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/',
      'http://192.168.0.1/',
      'http://100.64.1.1/',
      'http://0.0.0.0/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
    ]) {
      expect(checkWebhookUrl(url, development), url).toEqual({
        ok: false,
        reason: 'private_address',
        message: webhookTexts.privateAddress,
      });
    }
  });

  it('refuses the metadata services’ and private networks’ names, a trailing dot or capitals included', () => {
    for (const url of [
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.GOOGLE.INTERNAL./',
      'http://metadata/',
      'http://metadata.goog/',
      'http://instance-data/latest/',
      'http://ip-10-0-0-1.ec2.internal/',
      'http://localhost:3000/',
      'http://api.localhost/',
      'http://printer.local/',
    ]) {
      expect(checkWebhookUrl(url, development), url).toMatchObject({ ok: false, reason: 'private_address' });
    }
  });

  it('with private URLs allowed (tests, development), loopback and private names pass', () => {
    for (const url of ['http://127.0.0.1:4000/hook', 'http://localhost/', 'http://[::1]:9/']) {
      expect(checkWebhookUrl(url, allowPrivate).ok, url).toBe(true);
    }
    expect(checkWebhookUrl('http://127.0.0.1/', { requireHttps: true, allowPrivate: true })).toMatchObject({
      reason: 'https_only',
    });
  });
});

describe('resolveWebhookTarget', () => {
  it('answers every address of a public name, and literal addresses without a lookup', async () => {
    lookups.length = 0;
    expect(await resolveWebhookTarget('https://hooks.example.com/in', production, resolver)).toMatchObject({
      ok: true,
      addresses: [PUBLIC_V4, PUBLIC_V6],
    });
    expect(await resolveWebhookTarget(`https://[${PUBLIC_V6}]/in`, production, resolver)).toMatchObject({
      ok: true,
      addresses: [PUBLIC_V6],
    });
    expect(lookups).toEqual(['hooks.example.com']);
  });

  it('refuses a name when ANY of its addresses is private, link-local, metadata, mapped or CGNAT', async () => {
    for (const host of [
      'internal.example.com',
      'rebind.example.com',
      'metadata.example.com',
      'mapped.example.com',
      'v6-local.example.com',
      'cgnat.example.com',
    ]) {
      expect(await resolveWebhookTarget(`https://${host}/`, production, resolver), host).toEqual({
        ok: false,
        reason: 'private_address',
        message: webhookTexts.privateAddress,
      });
    }
  });

  it('refuses a name that does not resolve, and does not look up names refused by their text', async () => {
    lookups.length = 0;
    expect(await resolveWebhookTarget('https://nowhere.example.com/', production, resolver)).toEqual({
      ok: false,
      reason: 'unresolvable',
      message: webhookTexts.unresolvable,
    });
    expect(
      await resolveWebhookTarget('https://metadata.google.internal/', production, resolver),
    ).toMatchObject({
      reason: 'private_address',
    });
    expect(lookups).toEqual(['nowhere.example.com']);
  });

  it('with private URLs allowed, a loopback name resolves and is answered; other private names stay refused', async () => {
    expect(await resolveWebhookTarget('http://loopback.example.com/', allowPrivate, resolver)).toMatchObject({
      ok: true,
      addresses: ['127.0.0.1', '::1'],
    });
    for (const host of [
      'internal.example.com',
      'rebind-private.example.com',
      'metadata.example.com',
      'mapped.example.com',
      'v6-local.example.com',
      'cgnat.example.com',
      'link-local-v6.example.com',
      'unspecified.example.com',
    ]) {
      expect(await resolveWebhookTarget(`http://${host}/`, allowPrivate, resolver), host).toEqual({
        ok: false,
        reason: 'private_address',
        message: webhookTexts.privateAddress,
      });
    }
  });
});

// Issue #33 item 11: WEBHOOKS_ALLOW_PRIVATE_URLS opens loopback only.
describe('with private URLs allowed (tests, development)', () => {
  it.each(['127.0.0.1', '127.255.255.254', '[::1]', '[::ffff:127.0.0.1]', 'localhost', 'hooks.localhost'])(
    'opens loopback %s',
    (host) => {
      expect(checkWebhookUrl(`http://${host}:4010/hook`, allowPrivate).ok).toBe(true);
    },
  );

  it.each([
    ['metadata (link-local)', '169.254.169.254'],
    ['link-local', '169.254.0.1'],
    ['10/8', '10.0.0.1'],
    ['10/8 (top)', '10.255.255.255'],
    ['172.16/12', '172.16.0.1'],
    ['172.16/12 (top)', '172.31.255.254'],
    ['192.168/16', '192.168.1.1'],
    ['100.64/10 (CGNAT)', '100.64.0.1'],
    ['100.64/10 (Alibaba metadata)', '100.100.100.200'],
    ['0.0.0.0', '0.0.0.0'],
    ['0/8', '0.1.2.3'],
    ['fe80::/10', '[fe80::1]'],
    ['fc00::/7', '[fc00::1]'],
    ['fd00::/8 (AWS metadata v6)', '[fd00:ec2::254]'],
    ['::', '[::]'],
    ['IPv4-mapped metadata', '[::ffff:169.254.169.254]'],
    ['IPv4-mapped metadata (hex)', '[::ffff:a9fe:a9fe]'],
    ['IPv4-mapped 10/8', '[::ffff:10.0.0.1]'],
    ['IPv4-mapped 192.168/16', '[::ffff:192.168.0.1]'],
    ['IPv4-mapped 0.0.0.0', '[::ffff:0.0.0.0]'],
    ['metadata as a decimal number', '2852039166'],
    ['metadata in hex', '0xa9.0xfe.0xa9.0xfe'],
    ['10/8 in octal', '012.0.0.1'],
    ['metadata name', 'metadata.google.internal'],
    ['.internal', 'ip-10-0-0-1.ec2.internal'],
    ['.local', 'printer.local'],
  ])('keeps %s refused (%s)', (_range, host) => {
    expect(checkWebhookUrl(`http://${host}/latest/meta-data/`, allowPrivate)).toMatchObject({
      ok: false,
      reason: 'private_address',
    });
  });
});
