import ipaddr from 'ipaddr.js';

/**
 * Where a session's IP is, as far as the server can tell on its own (issue #38): "Loopback", "Private network"
 * (RFC 1918, IPv6 unique-local fc00::/7, link-local, carrier-grade NAT) or null for a public address. There is no
 * GeoIP database here and no outside service is asked (a person's addresses stay ours): the list shows the IP itself
 * for public addresses (ADR 49).
 */
export function describePlace(ip: string | null): string | null {
  if (!ip || !ipaddr.isValid(ip)) return null;
  const range = ipaddr.process(ip).range();
  if (range === 'loopback') return 'Loopback';
  if (
    range === 'private' ||
    range === 'uniqueLocal' ||
    range === 'linkLocal' ||
    range === 'carrierGradeNat'
  ) {
    return 'Private network';
  }
  return null;
}
