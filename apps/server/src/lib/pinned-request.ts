import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/** The one address a request connects to, checked by its caller beforehand. */
export type PinnedAddress = { address: string; family: number };

export type PinnedAnswer = {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most `maxBytes` of the answer's body. */
  body: Buffer;
  /** `performance.now()` when the status line arrived. */
  respondedAt: number;
};

/**
 * One HTTP(S) request to the outside world, connected to `target` only and reading at most `maxBytes` of the answer:
 * the shape shared by webhook deliveries and the domain proof's file fetch (ADR 20).
 *
 * The URL's host still goes in the Host header and the TLS server name, but the connection never resolves it again: a
 * DNS answer that changes between the caller's check and the connect (rebinding) cannot reach an internal address.
 * Nothing past `maxBytes` is read, so a server streaming an endless answer cannot hold the caller; the answer is
 * destroyed once read.
 */
export function pinnedRequest(
  url: URL,
  target: PinnedAddress,
  options: {
    method: 'GET' | 'POST';
    headers: OutgoingHttpHeaders;
    body?: Buffer;
    maxBytes: number;
    signal: AbortSignal;
  },
): Promise<PinnedAnswer> {
  // net.connect asks with all: true when it may try several address families; either way it gets only ours.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let responded = false;
    const request = send(url, {
      method: options.method,
      headers: options.headers,
      lookup: pinned,
      // A fresh socket per request: a pooled one could have been opened for an earlier, differently resolved answer.
      agent: false,
      signal: options.signal,
    });
    request.on('error', (error) => {
      // Once the status is in, the server has answered; a socket that dies mid-body only shortens what is read.
      if (!responded) reject(error);
    });
    request.on('response', (answer) => {
      responded = true;
      const respondedAt = performance.now();
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = (): void => {
        if (done) return;
        done = true;
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body: Buffer.concat(chunks).subarray(0, options.maxBytes),
          respondedAt,
        });
        answer.destroy();
      };
      answer.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= options.maxBytes) finish();
      });
      answer.on('end', finish);
      answer.on('error', finish);
      answer.on('close', finish);
    });
    request.end(options.body);
  });
}
