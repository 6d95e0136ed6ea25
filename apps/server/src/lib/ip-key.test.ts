import { describe, expect, it } from 'vitest';
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
