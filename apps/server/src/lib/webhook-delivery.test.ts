import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliverWebhook, type ResolveHost } from './webhook-delivery.ts';
import { isPublicAddress } from './webhook-url.ts';

type Seen = {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
};

type Receiver = { port: number; url: string; seen: Seen[]; connections: () => number };

const receivers: Array<ReturnType<typeof createServer>> = [];

afterEach(async () => {
  for (const server of receivers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

async function startReceiver(
  answer: (response: ServerResponse, request: IncomingMessage) => void,
): Promise<Receiver> {
  const seen: Seen[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({ method: request.method, url: request.url, headers: request.headers, body });
      answer(response, request);
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  receivers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}/hooks/veriform`, seen, connections: () => connections };
}

const signed = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1795000000', 'webhook-signature': 'v1,abc=' };
const body = JSON.stringify({
  type: 'verification.approved',
  timestamp: '2026-11-24T20:00:00.000Z',
  data: {},
});

describe('deliverWebhook', () => {
  it('posts the body as JSON with the signature headers; a 200 is a success with latency and the answer', async () => {
    const receiver = await startReceiver((response) => response.writeHead(200).end('thanks'));
    const result = await deliverWebhook({ url: receiver.url, headers: signed, body, allowPrivate: true });
    expect(result).toEqual({
      ok: true,
      statusCode: 200,
      latencyMs: expect.any(Number),
      responseSnippet: 'thanks',
      error: null,
    });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(receiver.seen).toHaveLength(1);
    expect(receiver.seen[0]).toMatchObject({ method: 'POST', url: '/hooks/veriform', body });
    expect(receiver.seen[0]?.headers).toMatchObject({ ...signed, 'content-type': 'application/json' });
  });

  it('reports a 500 as a failure with its status and answer', async () => {
    const receiver = await startReceiver((response) => response.writeHead(500).end('database down'));
    const result = await deliverWebhook({ url: receiver.url, headers: signed, body, allowPrivate: true });
    expect(result).toMatchObject({
      ok: false,
      statusCode: 500,
      responseSnippet: 'database down',
      error: null,
    });
  });

  it('does not follow a redirect: a 3xx is a failure and the receiver is hit once', async () => {
    const receiver = await startReceiver((response, request) =>
      request.url === '/elsewhere'
        ? response.writeHead(200).end('followed')
        : response.writeHead(302, { location: '/elsewhere' }).end(),
    );
    const result = await deliverWebhook({ url: receiver.url, headers: signed, body, allowPrivate: true });
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: 'redirect_not_followed' });
    await new Promise((done) => setTimeout(done, 50));
    expect(receiver.seen.map((request) => request.url)).toEqual(['/hooks/veriform']);
  });

  it('gives up on a receiver that never answers', async () => {
    const receiver = await startReceiver(() => {});
    const result = await deliverWebhook({
      url: receiver.url,
      headers: signed,
      body,
      allowPrivate: true,
      timeoutMs: 300,
    });
    expect(result).toMatchObject({ ok: false, statusCode: null, responseSnippet: '', error: 'timeout' });
    expect(result.latencyMs).toBeGreaterThanOrEqual(290);
    expect(result.latencyMs).toBeLessThan(3000);
  });

  it('reads only the first 1 KB of an endless answer, then hangs up', async () => {
    let closed: () => void = () => {};
    const hungUp = new Promise<void>((done) => {
      closed = done;
    });
    const receiver = await startReceiver((response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(700);
      const timer = setInterval(() => response.write(chunk), 5);
      response.on('close', () => {
        clearInterval(timer);
        closed();
      });
    });
    const result = await deliverWebhook({
      url: receiver.url,
      headers: signed,
      body,
      allowPrivate: true,
      timeoutMs: 5000,
    });
    expect(result).toMatchObject({
      ok: true,
      statusCode: 200,
      error: null,
      responseSnippet: 'x'.repeat(1024),
    });
    await hungUp;
  });

  it('reports a refused connection and a name that does not resolve, without throwing', async () => {
    const receiver = await startReceiver((response) => response.end());
    const port = receiver.port;
    const server = receivers.pop();
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
    const refused = await deliverWebhook({
      url: `http://127.0.0.1:${port}/`,
      headers: signed,
      body,
      allowPrivate: true,
    });
    expect(refused).toMatchObject({ ok: false, statusCode: null, error: 'connection_failed' });

    const unknown: ResolveHost = () => Promise.reject(new Error('ENOTFOUND'));
    const dns = await deliverWebhook({
      url: 'https://nowhere.test/',
      headers: signed,
      body,
      resolve: unknown,
      allowPrivate: false,
    });
    expect(dns).toMatchObject({ ok: false, statusCode: null, error: 'dns_failed' });

    const ftp = await deliverWebhook({
      url: 'ftp://example.com/',
      headers: signed,
      body,
      allowPrivate: false,
    });
    expect(ftp).toMatchObject({ ok: false, error: 'invalid_url' });
  });

  it('refuses loopback, private, metadata and mapped addresses without connecting', async () => {
    const receiver = await startReceiver((response) => response.end('should not be reached'));
    const resolve = vi.fn<ResolveHost>();
    const hosts = [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '0.0.0.0',
      '100.64.0.1',
    ];
    for (const host of hosts) {
      const result = await deliverWebhook({
        url: `http://${host}:${receiver.port}/hooks/veriform`,
        headers: signed,
        body,
        resolve,
        allowPrivate: false,
      });
      expect(result, host).toMatchObject({ ok: false, statusCode: null, error: 'blocked_address' });
    }
    expect(resolve).not.toHaveBeenCalled();
    expect(receiver.connections()).toBe(0);
  });

  it('refuses a name that resolves to an internal address without connecting', async () => {
    const receiver = await startReceiver((response) => response.end('should not be reached'));
    for (const address of ['127.0.0.1', '10.1.2.3', '::ffff:169.254.169.254', 'fd00:ec2::254']) {
      const resolve = vi
        .fn<ResolveHost>()
        .mockResolvedValue({ address, family: address.includes(':') ? 6 : 4 });
      const result = await deliverWebhook({
        url: `http://hooks.example.test:${receiver.port}/`,
        headers: signed,
        body,
        resolve,
        allowPrivate: false,
      });
      expect(result, address).toMatchObject({ ok: false, error: 'blocked_address' });
      expect(resolve).toHaveBeenCalledTimes(1);
    }
    expect(receiver.connections()).toBe(0);
  });

  it('with private URLs allowed, still refuses link-local, private and mapped addresses without connecting', async () => {
    // Issue #33 item 11: WEBHOOKS_ALLOW_PRIVATE_URLS opens loopback only; the check is made again at send time.
    const receiver = await startReceiver((response) => response.end('should not be reached'));
    const never = vi.fn<ResolveHost>();
    for (const host of [
      '169.254.169.254',
      '10.0.0.1',
      '192.168.0.1',
      '[fe80::1]',
      '[::ffff:169.254.169.254]',
    ]) {
      const result = await deliverWebhook({
        url: `http://${host}:${receiver.port}/`,
        headers: signed,
        body,
        resolve: never,
        allowPrivate: true,
      });
      expect(result, host).toMatchObject({ ok: false, statusCode: null, error: 'blocked_address' });
    }
    for (const address of [
      '169.254.169.254',
      '172.16.0.1',
      '100.64.0.1',
      '0.0.0.0',
      'fd00:ec2::254',
      'fe80::1',
    ]) {
      const resolve = vi
        .fn<ResolveHost>()
        .mockResolvedValue({ address, family: address.includes(':') ? 6 : 4 });
      const result = await deliverWebhook({
        url: `http://hooks.example.test:${receiver.port}/`,
        headers: signed,
        body,
        resolve,
        allowPrivate: true,
      });
      expect(result, address).toMatchObject({ ok: false, error: 'blocked_address' });
    }
    expect(receiver.connections()).toBe(0);
  });

  it('resolves once and connects to that address, keeping the name as Host (DNS rebinding)', async () => {
    const receiver = await startReceiver((response) => response.writeHead(204).end());
    // The first answer is the receiver; any later one points where nothing listens. The name itself is reserved and
    // resolves nowhere, so reaching the receiver proves the connection used the first answer and no second lookup.
    const resolve = vi
      .fn<ResolveHost>()
      .mockResolvedValueOnce({ address: '127.0.0.1', family: 4 })
      .mockResolvedValue({ address: '10.255.255.1', family: 4 });
    const result = await deliverWebhook({
      url: `http://example.test:${receiver.port}/hooks/veriform`,
      headers: signed,
      body,
      resolve,
      allowPrivate: true,
    });
    expect(result).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('example.test');
    expect(receiver.seen[0]?.headers.host).toBe(`example.test:${receiver.port}`);
  });
});

describe('isPublicAddress', () => {
  it('accepts public unicast addresses', () => {
    for (const ip of ['8.8.8.8', '93.184.215.14', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(ip), ip).toBe(true);
  });

  it('refuses every internal, special or embedded form', () => {
    const internal = [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      'not-an-address',
    ];
    for (const ip of internal) expect(isPublicAddress(ip), ip).toBe(false);
  });
});
