import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test-support/app.ts';
import { ipKey } from './ip-key.ts';

describe('ipKey', () => {
  it('counts an IPv6 client by its /64, whatever the spelling', () => {
    expect(ipKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:DB8:1:2::')).toBe('2001:db8:1:2::/64');
    expect(ipKey('2001:db8::5')).toBe('2001:db8::/64');
    expect(ipKey('::1')).toBe('::/64');
  });

  it('keeps IPv4 as is, also when it arrives IPv4-mapped', () => {
    expect(ipKey('203.0.113.9')).toBe('203.0.113.9');
    expect(ipKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts something that is not an address as itself', () => {
    expect(ipKey('unknown')).toBe('unknown');
  });
});

describe('the per-IP limits of real requests', () => {
  const t = useTestApp();

  it('the backstop limit counts an IPv6 client by its /64 too', async () => {
    const remaining = async (remoteAddress: string) =>
      Number(
        (await t.app.inject({ method: 'GET', url: '/api/no-such-route', remoteAddress })).headers[
          'x-ratelimit-remaining'
        ],
      );
    const first = await remaining('2001:db8:7:1::1');
    expect(first).toBeGreaterThan(0);
    // Another address of the same /64 draws on the same allowance; another /64 has its own.
    expect(await remaining('2001:db8:7:1:ffff::2')).toBe(first - 1);
    expect(await remaining('2001:db8:7:2::1')).toBe(first);
  });

  it('the backstop limit counts IPv4 clients of a dual-stack socket (IPv4-mapped) each apart', async () => {
    const remaining = async (remoteAddress: string) =>
      Number(
        (await t.app.inject({ method: 'GET', url: '/api/no-such-route', remoteAddress })).headers[
          'x-ratelimit-remaining'
        ],
      );
    const first = await remaining('::ffff:203.0.113.7');
    expect(first).toBeGreaterThan(0);
    expect(await remaining('::ffff:198.51.100.7')).toBe(first);
    expect(await remaining('203.0.113.7')).toBe(first - 1);
  });
});
