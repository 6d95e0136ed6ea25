import ipaddr from 'ipaddr.js';

/**
 * The key every per-IP limit counts under. An IPv6 host is handed a whole /64 (one subscriber), so counting each
 * address separately would let one client spray 2^64 keys; it is counted as its /64. IPv4-mapped IPv6 addresses
 * count as the IPv4 address they carry. Anything unparseable counts as itself.
 */
export function ipKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`);
  return `${prefix.toString()}/64`;
}
