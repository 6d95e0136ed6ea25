import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv6 } from 'node:net';
import type { Config } from '../config.ts';

/**
 * The request id on every log line of a request (Fastify binds it as `reqId` to `request.log`) and in the
 * `X-Request-Id` answer header, so a user's report or a proxy's log leads to the server's lines. A random UUID, or
 * the proxy's own id when the request comes from a trusted proxy (TRUST_PROXY) and the id is short and plain (no
 * spaces, quotes or line breaks can reach the log); from anyone else the header is ignored, so clients cannot
 * make their requests look like another's.
 */

export const REQUEST_ID_HEADER = 'x-request-id';
const WELL_FORMED = /^[A-Za-z0-9._:-]{8,128}$/;

function proxyList(addresses: string[]): BlockList {
  const list = new BlockList();
  for (const entry of addresses) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address = '', bits] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits) list.addSubnet(address, Number(bits), type);
    else list.addAddress(address, type);
  }
  return list;
}

/** Whether the connection's peer is a proxy we trust (the first hop, in Fastify's trustProxy terms). */
export function peerIsTrustedProxy(
  trustProxy: Config['trustProxy'],
): (address: string | undefined) => boolean {
  if (trustProxy === true) return () => true;
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return () => trustProxy >= 1;
  const list = proxyList(trustProxy);
  return (address) => {
    if (!address) return false;
    const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
    try {
      return list.check(plain, isIPv6(plain) ? 'ipv6' : 'ipv4');
    } catch {
      return false;
    }
  };
}

/** Fastify's `genReqId`. */
export function requestIdGenerator(config: Config): (request: IncomingMessage) => string {
  const trusted = peerIsTrustedProxy(config.trustProxy);
  return (request) => {
    const incoming = request.headers[REQUEST_ID_HEADER];
    if (typeof incoming === 'string' && WELL_FORMED.test(incoming) && trusted(request.socket.remoteAddress)) {
      return incoming;
    }
    return randomUUID();
  };
}
