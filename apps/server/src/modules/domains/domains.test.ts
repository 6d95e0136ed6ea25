import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AccountDomain,
  DOMAIN_CHECKS_PER_HOUR,
  DOMAIN_PROOF_FILE_PATH,
  domainTexts,
  MAX_ACCOUNT_DOMAINS,
} from '@veriform/contracts';
import { schema } from '@veriform/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, openTestDb, type TestApp, useTestApp } from '../../test-support/app.ts';
import { TestClient } from '../../test-support/client.ts';
import { startTestDnsServer, type TestDnsServer } from '../../test-support/dns-server.ts';
import { createPublicForm } from '../../test-support/public-verify.ts';
import { join, newOwner, nextIp, type Owner } from '../../test-support/teams.ts';
import { createTxtLookup } from './proof.ts';

const { auditEvents, accountDomains } = schema;

let dns: TestDnsServer;
/** Host names of the file proof, as the test's stand-in for the operating system's resolver says (none by default). */
const hosts = new Map<string, string[]>();
const resolveHost = async (hostname: string) => hosts.get(hostname) ?? [];

// DOMAIN_PROOF_ALLOW_HTTP on, as in development: a loopback host with a port is a domain, fetched over http://.
const t = useTestApp(async () => {
  dns = await startTestDnsServer();
  return {
    env: { DOMAIN_PROOF_ALLOW_HTTP: 'true' },
    lookupTxt: createTxtLookup({ servers: [dns.address] }),
    resolveHost,
  };
});
afterAll(() => dns?.close());

const domainsUrl = (accountId: number) => `/api/accounts/${accountId}/domains`;
const domainUrl = (accountId: number, domainId: number | string) => `${domainsUrl(accountId)}/${domainId}`;
const checkUrl = (accountId: number, domainId: number | string) => `${domainUrl(accountId, domainId)}/check`;

async function add(owner: Owner, domain: string): Promise<AccountDomain> {
  const response = await owner.c.post(domainsUrl(owner.accountId), { domain });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<AccountDomain>();
}

const remove = (owner: Owner, domainId: number) =>
  owner.c.request({ method: 'DELETE', url: domainUrl(owner.accountId, domainId) });

async function eventsOf(accountId: number, action: string) {
  return t.db.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.accountId, accountId), eq(auditEvents.action, action)));
}

let domainCounter = 0;
/** A fresh domain per test (the DNS server's table and the check limits are shared by the file). */
const freshDomain = (label = 'acme') => `${label}${++domainCounter}.example.com`;

type Reply = { status: number; body?: string; headers?: Record<string, string> };

/** A real HTTP server on 127.0.0.1 that serves the proof file as the test says: the owner's web server. */
async function startFileServer(reply: (path: string) => Reply) {
  const paths: string[] = [];
  const server = createServer((request, response: ServerResponse) => {
    paths.push(request.url ?? '');
    const answer = reply(request.url ?? '');
    response.writeHead(answer.status, answer.headers ?? { 'content-type': 'text/plain' });
    response.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    paths,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('POST /api/accounts/{id}/domains', () => {
  it('adds a domain with its token, the TXT record and the file to publish, unverified; listed; audited', async () => {
    const owner = await newOwner(t.app);
    const response = await owner.c.post(domainsUrl(owner.accountId), { domain: 'acme.example.com' });
    expect(response.statusCode, response.body).toBe(201);
    const domain = response.json<AccountDomain>();
    expect(domain.token).toMatch(/^veriform-domain-verification=[0-9A-Za-z]{32}$/);
    expect(domain).toEqual({
      id: expect.any(Number),
      domain: 'acme.example.com',
      token: domain.token,
      dnsRecord: { type: 'TXT', name: '_veriform.acme.example.com', value: domain.token },
      fileUrl: 'https://acme.example.com/.well-known/veriform-domain-verification.txt',
      created: expect.any(String),
      verifiedAt: null,
      verifiedBy: null,
      lastCheckedAt: null,
      lastCheckResult: null,
    });
    // Every domain its own token.
    expect((await add(owner, 'other.example.com')).token).not.toBe(domain.token);

    const list = await owner.c.get(domainsUrl(owner.accountId));
    expect(list.statusCode).toBe(200);
    expect(list.json<{ results: AccountDomain[] }>().results.map((d) => d.domain)).toEqual([
      'acme.example.com',
      'other.example.com',
    ]);
    const [event] = await eventsOf(owner.accountId, 'domain.added');
    expect(event?.targets).toEqual([{ type: 'domain', id: String(domain.id), name: 'acme.example.com' }]);
    const [row] = await t.db.db.select().from(accountDomains).where(eq(accountDomains.id, domain.id));
    expect(row?.createdByUserId).toBe(owner.userId);
  });

  it('normalises what was typed: spaces, capitals, a trailing dot; an internationalised name in its ASCII form', async () => {
    const owner = await newOwner(t.app);
    expect((await add(owner, '  WWW.Example.COM. ')).domain).toBe('www.example.com');
    const idn = await add(owner, 'Bücher.example');
    expect(idn.domain).toBe('xn--bcher-kva.example');
    expect(idn.dnsRecord.name).toBe('_veriform.xn--bcher-kva.example');
    expect(idn.fileUrl).toBe('https://xn--bcher-kva.example/.well-known/veriform-domain-verification.txt');
  });

  it('refuses on `domain` what is no host name, saying what is wrong', async () => {
    const owner = await newOwner(t.app);
    const cases: [string, string][] = [
      ['', domainTexts.required],
      ['   ', domainTexts.required],
      ['https://acme.example.com', domainTexts.scheme],
      ['acme.example.com/about', domainTexts.path],
      ['acme.example.com?x=1', domainTexts.path],
      ['acme.example.com:8443', domainTexts.port],
      ['192.0.2.10', domainTexts.ipAddress],
      ['0x7f.1', domainTexts.ipAddress],
      ['[2001:db8::1]', domainTexts.ipAddress],
      ['2001:db8::1', domainTexts.ipAddress],
      ['localhost', domainTexts.oneLabel],
      ['exa_mple.com', domainTexts.invalid],
      ['-acme.example.com', domainTexts.invalid],
      ['acme..example.com', domainTexts.invalid],
      ['user@acme.example.com', domainTexts.invalid],
      ['acme.example.123', domainTexts.invalid],
      [
        `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`,
        domainTexts.tooLong,
      ],
    ];
    for (const [domain, message] of cases) {
      const response = await owner.c.post(domainsUrl(owner.accountId), { domain });
      expect(response.statusCode, domain).toBe(400);
      expect(response.json(), domain).toEqual({ domain: [message], MainCode_: 'validation_error' });
    }
    const missing = await owner.c.post(domainsUrl(owner.accountId), {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('domain');
    expect(
      await t.db.db.select().from(accountDomains).where(eq(accountDomains.accountId, owner.accountId)),
    ).toEqual([]);
  });

  it('refuses the same domain twice on one account, however typed, also when added at once; another account may add it', async () => {
    const owner = await newOwner(t.app);
    await add(owner, 'twice.example.com');
    const again = await owner.c.post(domainsUrl(owner.accountId), { domain: 'TWICE.example.com.' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ domain: [domainTexts.duplicate], MainCode_: 'validation_error' });

    const racing = await Promise.all(
      Array.from({ length: 16 }, () =>
        owner.c.post(domainsUrl(owner.accountId), { domain: 'race.example.com' }),
      ),
    );
    expect(racing.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(racing.filter((r) => r.statusCode === 400)).toHaveLength(15);

    const other = await newOwner(t.app, 'Someone Else');
    expect((await add(other, 'twice.example.com')).domain).toBe('twice.example.com');
  });

  it(`holds at most ${MAX_ACCOUNT_DOMAINS} domains per account, also when many are added at once`, async () => {
    const owner = await newOwner(t.app);
    const answers = await Promise.all(
      Array.from({ length: MAX_ACCOUNT_DOMAINS + 6 }, (_, i) =>
        owner.c.post(domainsUrl(owner.accountId), { domain: `d${i}.many.example.com` }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(MAX_ACCOUNT_DOMAINS);
    const refused = answers.filter((r) => r.statusCode === 400);
    expect(refused).toHaveLength(6);
    expect(refused[0]?.json()).toEqual({
      nonFieldErrors: [domainTexts.tooMany],
      MainCode_: 'validation_error',
    });
    // Removing one makes room again.
    const first = answers.find((r) => r.statusCode === 201)?.json<AccountDomain>();
    if (!first) throw new Error('none added');
    expect((await remove(owner, first.id)).statusCode).toBe(204);
    await add(owner, 'room.many.example.com');
  });
});

describe('who may', () => {
  it('another account’s id or domain is 404; a member reads the list but may not add, check or remove (403)', async () => {
    const owner = await newOwner(t.app);
    const stranger = await newOwner(t.app, 'Stranger Co');
    const domain = await add(owner, freshDomain());
    const theirs = await add(stranger, freshDomain());

    expect((await stranger.c.get(domainsUrl(owner.accountId))).statusCode).toBe(404);
    expect((await stranger.c.post(domainsUrl(owner.accountId), { domain: 'x.example.com' })).statusCode).toBe(
      404,
    );
    expect((await stranger.c.post(checkUrl(owner.accountId, domain.id))).statusCode).toBe(404);
    expect(
      (await stranger.c.request({ method: 'DELETE', url: domainUrl(owner.accountId, domain.id) })).statusCode,
    ).toBe(404);
    // Another account's domain id under one's own account: not found either.
    expect((await owner.c.post(checkUrl(owner.accountId, theirs.id))).statusCode).toBe(404);
    expect((await remove(owner, theirs.id)).statusCode).toBe(404);
    expect((await owner.c.post(checkUrl(owner.accountId, 'abc'))).statusCode).toBe(404);

    const member = await join(t.app, owner);
    const listed = await member.c.get(domainsUrl(owner.accountId));
    expect(listed.statusCode).toBe(200);
    expect(listed.json<{ results: AccountDomain[] }>().results.map((d) => d.id)).toEqual([domain.id]);
    expect((await member.c.post(domainsUrl(owner.accountId), { domain: 'y.example.com' })).statusCode).toBe(
      403,
    );
    expect((await member.c.post(checkUrl(owner.accountId, domain.id))).statusCode).toBe(403);
    expect(
      (await member.c.request({ method: 'DELETE', url: domainUrl(owner.accountId, domain.id) })).statusCode,
    ).toBe(403);
    expect((await stranger.c.get(domainsUrl(stranger.accountId))).json().results).toHaveLength(1);
  });
});

describe('POST /api/accounts/{id}/domains/{domainId}/check: the DNS TXT record', () => {
  it('verifies the domain when _veriform.<domain> holds the token (split into strings too); audited once', async () => {
    const owner = await newOwner(t.app);
    const name = freshDomain();
    const domain = await add(owner, name);
    dns.txt.set(`_veriform.${name}`, [['v=spf1 -all'], [domain.token.slice(0, 20), domain.token.slice(20)]]);

    const response = await owner.c.post(checkUrl(owner.accountId, domain.id));
    expect(response.statusCode, response.body).toBe(200);
    const verified = response.json<AccountDomain>();
    expect(verified).toMatchObject({
      id: domain.id,
      verifiedAt: t.clock.now().toISOString(),
      verifiedBy: 'dns',
      lastCheckedAt: t.clock.now().toISOString(),
      lastCheckResult: 'Verified by the DNS TXT record.',
    });
    expect(dns.asked).toContain(`_veriform.${name}`);
    const events = await eventsOf(owner.accountId, 'domain.verified');
    expect(events).toHaveLength(1);
    expect(events[0]?.changes).toEqual({ method: 'dns' });

    // Checked again: as it is, no lookup, nothing recorded.
    const asked = dns.asked.length;
    const again = await owner.c.post(checkUrl(owner.accountId, domain.id));
    expect(again.statusCode).toBe(200);
    expect(again.json<AccountDomain>().verifiedAt).toBe(verified.verifiedAt);
    expect(dns.asked.length).toBe(asked);
    expect(await eventsOf(owner.accountId, 'domain.verified')).toHaveLength(1);
  });

  it('says what was found when it is not the token: no record, other records, a failing DNS server; kept as the last result', async () => {
    const owner = await newOwner(t.app);
    const missing = await add(owner, freshDomain());
    const refused = await owner.c.post(checkUrl(owner.accountId, missing.id));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      nonFieldErrors: [
        `DNS: no TXT record _veriform.${missing.domain}.`,
        `File: ${missing.domain} has no address (no A or AAAA record).`,
      ],
      MainCode_: 'validation_error',
    });

    const other = freshDomain();
    const wrong = await add(owner, other);
    dns.txt.set(`_veriform.${other}`, [['v=spf1 -all'], ['veriform-domain-verification=somebodyElse']]);
    const mismatch = await owner.c.post(checkUrl(owner.accountId, wrong.id));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().nonFieldErrors[0]).toBe(
      `DNS: TXT records found at _veriform.${other}: "v=spf1 -all", "veriform-domain-verification=somebodyElse"; none matches the token.`,
    );

    const empty = freshDomain();
    const noTxt = await add(owner, empty);
    dns.txt.set(`_veriform.${empty}`, []);
    const none = await owner.c.post(checkUrl(owner.accountId, noTxt.id));
    expect(none.json().nonFieldErrors[0]).toBe(`DNS: no TXT record _veriform.${empty}.`);

    const broken = freshDomain();
    const failing = await add(owner, broken);
    dns.failing.add(`_veriform.${broken}`);
    const servfail = await owner.c.post(checkUrl(owner.accountId, failing.id));
    expect(servfail.json().nonFieldErrors[0]).toBe(
      `DNS: the lookup of _veriform.${broken} failed (ESERVFAIL).`,
    );

    const listed = (await owner.c.get(domainsUrl(owner.accountId))).json<{ results: AccountDomain[] }>()
      .results;
    const shown = listed.find((d) => d.id === wrong.id);
    expect(shown?.verifiedAt).toBeNull();
    expect(shown?.lastCheckedAt).toBe(t.clock.now().toISOString());
    expect(shown?.lastCheckResult).toContain('none matches the token.');
    expect(await eventsOf(owner.accountId, 'domain.verified')).toHaveLength(0);
  });

  it('many checks at once that all find the token: one verification, one audit event, the same answer', async () => {
    const owner = await newOwner(t.app);
    const name = freshDomain();
    const domain = await add(owner, name);
    dns.txt.set(`_veriform.${name}`, [[domain.token]]);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => owner.c.post(checkUrl(owner.accountId, domain.id))),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    expect(new Set(answers.map((r) => r.json<AccountDomain>().verifiedAt)).size).toBe(1);
    expect(await eventsOf(owner.accountId, 'domain.verified')).toHaveLength(1);
  });
});

describe('POST …/check: limits', () => {
  it(`${DOMAIN_CHECKS_PER_HOUR} checks of one domain an hour, counted at once; removing and adding it again starts no new count`, async () => {
    const owner = await newOwner(t.app);
    const name = freshDomain('limited');
    const domain = await add(owner, name);
    const answers = await Promise.all(
      Array.from({ length: DOMAIN_CHECKS_PER_HOUR + 6 }, () =>
        owner.c.post(checkUrl(owner.accountId, domain.id)),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(DOMAIN_CHECKS_PER_HOUR);
    const limited = answers.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(6);
    expect(limited[0]?.headers['retry-after']).toBeDefined();
    expect(limited[0]?.json().detail).toMatch(
      /^This domain was checked too often\. Try again in \d+ minutes\.$/,
    );

    expect((await remove(owner, domain.id)).statusCode).toBe(204);
    const again = await add(owner, name);
    expect((await owner.c.post(checkUrl(owner.accountId, again.id))).statusCode).toBe(429);
    // Another domain of the account is not held up.
    const other = await add(owner, freshDomain('unlimited'));
    expect((await owner.c.post(checkUrl(owner.accountId, other.id))).statusCode).toBe(400);
    // An hour later the domain may be checked again.
    t.clock.advance(60 * 60 * 1000 + 1000);
    dns.txt.set(`_veriform.${name}`, [[again.token]]);
    expect((await owner.c.post(checkUrl(owner.accountId, again.id))).statusCode).toBe(200);
  });
});

describe('POST …/check: the file under /.well-known/ (a real server on loopback, DOMAIN_PROOF_ALLOW_HTTP)', () => {
  it('verifies the domain when the file answers 200 with the token', async () => {
    let token = '';
    const server = await startFileServer((path) =>
      path === DOMAIN_PROOF_FILE_PATH ? { status: 200, body: `${token}\n` } : { status: 404 },
    );
    try {
      const owner = await newOwner(t.app);
      const domain = await add(owner, server.host);
      token = domain.token;
      expect(domain.fileUrl).toBe(`http://${server.host}${DOMAIN_PROOF_FILE_PATH}`);
      const response = await owner.c.post(checkUrl(owner.accountId, domain.id));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<AccountDomain>()).toMatchObject({
        verifiedBy: 'file',
        lastCheckResult: 'Verified by the file.',
      });
      expect(server.paths).toEqual([DOMAIN_PROOF_FILE_PATH]);
      expect((await eventsOf(owner.accountId, 'domain.verified'))[0]?.changes).toEqual({ method: 'file' });
    } finally {
      await server.close();
    }
  });

  it('says what the file answered: a status, other content, an empty file, a redirect to another host', async () => {
    let reply: Reply = { status: 404 };
    const server = await startFileServer(() => reply);
    try {
      const owner = await newOwner(t.app);
      const domain = await add(owner, server.host);
      const url = `http://${server.host}${DOMAIN_PROOF_FILE_PATH}`;
      const fileFinding = async () => {
        const response = await owner.c.post(checkUrl(owner.accountId, domain.id));
        expect(response.statusCode, response.body).toBe(400);
        return response.json<{ nonFieldErrors: string[] }>().nonFieldErrors[1];
      };
      expect(await fileFinding()).toBe(`File: ${url} answered 404.`);
      reply = { status: 200, body: '<html><body>Welcome to\u0007 our site</body></html>' };
      expect(await fileFinding()).toBe(
        `File: ${url} holds "<html><body>Welcome to our site</body></html>", not the token.`,
      );
      reply = { status: 200, body: `veriform-domain-verification=${'x'.repeat(200)}` };
      expect(await fileFinding()).toBe(
        `File: ${url} holds "veriform-domain-verification=${'x'.repeat(51)}…", not the token.`,
      );
      reply = { status: 200, body: ' \n' };
      expect(await fileFinding()).toBe(`File: ${url} is empty.`);
      reply = { status: 302, headers: { location: 'http://elsewhere.example.net/token.txt' } };
      expect(await fileFinding()).toBe(
        `File: ${url} redirects to http://elsewhere.example.net; the file must be served by ${server.host} itself.`,
      );
      // A token past the first 4 KB is not read.
      reply = { status: 200, body: `${'#'.repeat(5000)}\n${domain.token}\n` };
      expect(await fileFinding()).toMatch(/^File: .* holds "#{80}…", not the token\.$/);
      // The DNS half of the same answers: a loopback host has no TXT record to look up.
      const response = await owner.c.post(checkUrl(owner.accountId, domain.id));
      expect(response.json().nonFieldErrors[0]).toBe(
        `DNS: a local host (${server.host}) has no TXT record to look up.`,
      );
    } finally {
      await server.close();
    }
  });

  it('follows a redirect on the same host', async () => {
    let token = '';
    const server = await startFileServer((path) =>
      path === DOMAIN_PROOF_FILE_PATH
        ? { status: 301, headers: { location: '/proof/token.txt' } }
        : path === '/proof/token.txt'
          ? { status: 200, body: `# Veriform\n${token}\n` }
          : { status: 404 },
    );
    try {
      const owner = await newOwner(t.app);
      const domain = await add(owner, server.host);
      token = domain.token;
      const response = await owner.c.post(checkUrl(owner.accountId, domain.id));
      expect(response.statusCode, response.body).toBe(200);
      expect(server.paths).toEqual([DOMAIN_PROOF_FILE_PATH, '/proof/token.txt']);
    } finally {
      await server.close();
    }
  });

  it('a server that refuses the connection is said so', async () => {
    const server = await startFileServer(() => ({ status: 200 }));
    await server.close();
    const owner = await newOwner(t.app);
    const domain = await add(owner, server.host);
    const response = await owner.c.post(checkUrl(owner.accountId, domain.id));
    expect(response.json().nonFieldErrors[1]).toBe(`File: ${server.host} refused the connection.`);
  });
});

describe('without DOMAIN_PROOF_ALLOW_HTTP (production)', () => {
  let strict: TestApp & { close(): Promise<void> };
  beforeAll(async () => {
    const db = await openTestDb();
    const built = await buildTestApp(db, {
      lookupTxt: createTxtLookup({ servers: [dns.address] }),
      resolveHost,
    });
    strict = {
      ...built,
      close: async () => {
        await built.app.close();
        await db.close();
      },
    };
  });
  afterAll(() => strict?.close());

  it('refuses a loopback host with a port, and never fetches a file from a private or local address', async () => {
    const owner = await newOwner(strict.app);
    for (const domain of ['127.0.0.1:8080', 'localhost:3000']) {
      const response = await owner.c.post(domainsUrl(owner.accountId), { domain });
      expect(response.statusCode, domain).toBe(400);
      expect(response.json()).toEqual({ domain: [domainTexts.port], MainCode_: 'validation_error' });
    }

    // A name the owner points at an internal address: the file is not fetched (the TXT record still counts).
    const name = freshDomain('internal');
    hosts.set(name, ['10.0.0.5']);
    const response = await owner.c.post(domainsUrl(owner.accountId), { domain: name });
    const domain = response.json<AccountDomain>();
    expect(domain.fileUrl).toBe(`https://${name}${DOMAIN_PROOF_FILE_PATH}`);
    const checked = await owner.c.post(checkUrl(owner.accountId, domain.id));
    expect(checked.statusCode).toBe(400);
    expect(checked.json().nonFieldErrors[1]).toBe(
      `File: ${name} resolves to a private or local address, which is not fetched.`,
    );
    hosts.set(name, ['203.0.113.10', '127.0.0.1']);
    const mixed = await owner.c.post(checkUrl(owner.accountId, domain.id));
    expect(mixed.json().nonFieldErrors[1]).toBe(
      `File: ${name} resolves to a private or local address, which is not fetched.`,
    );
    dns.txt.set(`_veriform.${name}`, [[domain.token]]);
    expect((await owner.c.post(checkUrl(owner.accountId, domain.id))).statusCode).toBe(200);
  });
});

describe('DELETE /api/accounts/{id}/domains/{domainId}', () => {
  it('removes the domain (verified or not), audited; it is then not found', async () => {
    const owner = await newOwner(t.app);
    const name = freshDomain();
    const domain = await add(owner, name);
    dns.txt.set(`_veriform.${name}`, [[domain.token]]);
    expect((await owner.c.post(checkUrl(owner.accountId, domain.id))).statusCode).toBe(200);

    expect((await remove(owner, domain.id)).statusCode).toBe(204);
    expect((await owner.c.get(domainsUrl(owner.accountId))).json().results).toEqual([]);
    expect((await remove(owner, domain.id)).statusCode).toBe(404);
    expect((await owner.c.post(checkUrl(owner.accountId, domain.id))).statusCode).toBe(404);
    const [event] = await eventsOf(owner.accountId, 'domain.removed');
    expect(event?.targets).toEqual([{ type: 'domain', id: String(domain.id), name }]);
    expect(event?.changes).toEqual({ verified: true });
  });
});

describe('the public verification page', () => {
  it('names the company’s first verified domain beside its name; none while it has verified none', async () => {
    const owner = await newOwner(t.app, 'Page Co');
    const form = await createPublicForm(owner);
    const shown = async () => {
      const response = await new TestClient(t.app, nextIp()).get(`/api/public/verify-forms/${form.publicId}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ company: string; companyDomain: string | null }>();
    };
    const unproven = await add(owner, freshDomain('page'));
    expect(await shown()).toMatchObject({ company: 'Page Co', companyDomain: null });

    const first = freshDomain('page');
    const proven = await add(owner, first);
    dns.txt.set(`_veriform.${first}`, [[proven.token]]);
    expect((await owner.c.post(checkUrl(owner.accountId, proven.id))).statusCode).toBe(200);
    t.clock.advance(1000);
    dns.txt.set(`_veriform.${unproven.domain}`, [[unproven.token]]);
    expect((await owner.c.post(checkUrl(owner.accountId, unproven.id))).statusCode).toBe(200);
    expect(await shown()).toMatchObject({ company: 'Page Co', companyDomain: first });

    expect((await remove(owner, proven.id)).statusCode).toBe(204);
    expect(await shown()).toMatchObject({ companyDomain: unproven.domain });
  });
});
