import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type GrantInstance, type ProviderContext } from 'oidc-provider';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback, for the single sign-on tests and the
 * browser journey (issue #38 item 4). One client is registered with the app's callback URL. Its login page is a
 * minimal form of ours (an address, "Sign in"): whoever types an address is that person — a test stand-in for the
 * company's identity provider, where the password check is the provider's business, not ours. Consent is implied
 * (the grant is made for `openid email` at once).
 *
 * `people` says what the provider answers for an address typed at its login: by default the address itself,
 * verified, with a subject made from it; a test sets another address (`email`), `emailVerified: false`, or another
 * subject.
 */

export type OidcPerson = { sub: string; email: string; emailVerified: boolean };

export type TestOidcProvider = {
  /** The issuer identifier, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who an address typed at the login is (set before signing in to change the default). */
  people: Map<string, OidcPerson>;
  /**
   * Follows the provider's pages from the authorization URL (the app's redirect to the provider), signs in as
   * `login`, and answers the URL the provider sends the browser back to (the app's callback, with `code`, `state`,
   * `iss`), without requesting it.
   */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
};

export type OidcProviderOptions = {
  /** The app's callback URL (`<PUBLIC_URL>/auth/sso/callback`), registered for the client. */
  redirectUri: string;
  /** The host the issuer identifier names (default 127.0.0.1); the server listens on 127.0.0.1 either way. */
  issuerHost?: string;
  clientId?: string;
  clientSecret?: string;
  /** ID tokens' lifetime in seconds (the provider's default is an hour). */
  idTokenTtlSeconds?: number;
};

function personFor(people: Map<string, OidcPerson>, login: string): OidcPerson {
  const known = people.get(login);
  if (known) return known;
  const person = { sub: `sub-${login}`, email: login, emailVerified: true };
  people.set(login, person);
  return person;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Test identity provider</h1>
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label for="login">Email</label> <input id="login" name="login" type="email" autocomplete="username" required>
<button type="submit">Sign in</button>
</form></main></body></html>`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.from(chunk));
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'veriform-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const people = new Map<string, OidcPerson>();
  const bySub = (sub: string) => [...people.values()].find((person) => person.sub === sub);

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${options.issuerHost ?? '127.0.0.1'}:${port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    async findAccount(_ctx, id) {
      const person = bySub(id);
      if (!person) return undefined;
      return {
        accountId: person.sub,
        claims: () => ({ sub: person.sub, email: person.email, email_verified: person.emailVerified }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The e-mail claims in the ID token itself (the app reads them there; it asks the userinfo endpoint otherwise).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async loadExistingGrant(ctx: ProviderContext): Promise<GrantInstance | undefined> {
      const clientOf = ctx.oidc.client;
      const accountId = ctx.oidc.session?.accountId;
      if (!clientOf || !accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: clientOf.clientId, accountId });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [signingKey] },
    // Every lifetime set (the provider prints a notice for each left to its default).
    ttl: {
      IdToken: options.idTokenTtlSeconds ?? 3600,
      AccessToken: 3600,
      AuthorizationCode: 60,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
    },
  });
  const handle = provider.callback();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([\w-]+)$/.exec((req.url ?? '').split('?')[0] ?? '');
    if (!match?.[1]) return handle(req, res);
    const uid = match[1];
    void (async () => {
      try {
        if (req.method === 'GET') {
          await provider.interactionDetails(req, res);
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(uid));
          return;
        }
        const login = (await readForm(req)).get('login')?.trim().toLowerCase() ?? '';
        const person = personFor(people, login);
        await provider.interactionFinished(req, res, { login: { accountId: person.sub } });
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    })();
  });

  async function signIn(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const remember = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
    };
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 12; hop++) {
      if (url.href.startsWith(options.redirectUri)) return url;
      const interaction =
        /^\/interaction\/[\w-]+$/.test(url.pathname) && url.origin === new URL(issuer).origin;
      const response = interaction
        ? await fetch(url, {
            method: 'POST',
            redirect: 'manual',
            headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ login }).toString(),
          })
        : await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader() } });
      remember(response);
      const location = response.headers.get('location');
      if (!location) throw new Error(`The provider answered ${response.status}: ${await response.text()}`);
      url = new URL(location, url);
    }
    throw new Error('The provider redirected too many times');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    signIn,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
