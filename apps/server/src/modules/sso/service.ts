import {
  type AuditTarget,
  type PutSsoRequest,
  SSO_CALLBACK_PATH,
  type SsoConnection,
  type SsoErrorCode,
  type SsoSettingsResponse,
  ssoTexts,
} from '@veriform/contracts';
import type { Db } from '@veriform/db';
import { schema, transaction } from '@veriform/db';
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import {
  allowInsecureRequests,
  authorizationCodeGrant,
  buildAuthorizationUrl,
  ClientSecretBasic,
  Configuration,
  calculatePKCECodeChallenge,
  clockSkew,
  customFetch,
  discovery,
  fetchUserInfo,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
  type ServerMetadata,
} from 'openid-client';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256Hex } from '../../lib/crypto.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError } from '../../lib/errors.ts';
import type { UserRow } from '../../lib/rows.ts';
import type { Sealer } from '../../lib/sealed.ts';
import type { HostResolver } from '../../lib/webhook-url.ts';
import { type AccountContext, assertStillCan, type RequestOrigin } from '../../plugins/account-context.ts';
import { type AuditLog, changesOf } from '../audit/index.ts';
import { verifiedDomainsOf } from '../domains/index.ts';
import { toApiMembership } from '../memberships/index.ts';
import type { WebhookEvents } from '../webhooks/index.ts';
import { pinnedFetch } from './outbound.ts';

const { accounts, authChallenges, memberships, sessions, ssoConnections, ssoIdentities, users } = schema;

type ConnectionRow = typeof ssoConnections.$inferSelect;

/** How long the browser has at the provider between start and callback. */
export const SSO_CHALLENGE_TTL_MS = 10 * 60 * 1000;
/** A provider's discovered metadata (endpoints, keys' URL) is reused this long, per process. */
const METADATA_TTL_MS = 5 * 60 * 1000;
const SCOPE = 'openid email';

/** What the callback's state row keeps between start and callback (auth_challenges.payload). */
const challengePayloadSchema = z.object({
  accountId: z.number().int(),
  issuer: z.string(),
  nonce: z.string(),
  codeVerifier: z.string(),
});

/** A sign-in through the provider that did not happen; `code` is what the login page is told (`?sso_error=`). */
export class SsoFailure extends Error {
  readonly code: SsoErrorCode;
  constructor(code: SsoErrorCode, cause?: unknown) {
    super(`Single sign-on failed: ${code}`, cause === undefined ? undefined : { cause });
    this.name = 'SsoFailure';
    this.code = code;
  }
}

export type SsoSignIn = { user: UserRow; membershipId: number };

/** The domain of an address (lower case), or null when it has none. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return null;
  return email
    .slice(at + 1)
    .trim()
    .toLowerCase();
}

/**
 * Whether the owners of the address's domain require single sign-on for it: a password sign-in for it is refused
 * (auth's login asks this first). One indexed read of sso_connections by domain.
 */
export async function ssoRequiredFor(db: Db, email: string): Promise<boolean> {
  const domain = domainOfEmail(email);
  if (!domain) return false;
  const [row] = await db
    .select({ required: ssoConnections.required })
    .from(ssoConnections)
    .where(eq(ssoConnections.domain, domain))
    .limit(1);
  return row?.required === true;
}

/** auth's login asks this first: 400 (`ssoTexts.required`) when the address's domain requires single sign-on. */
export async function refusePasswordUnderSso(db: Db, email: string): Promise<void> {
  if (await ssoRequiredFor(db, email)) throw AppError.nonField('validation_error', ssoTexts.required);
}

/**
 * Single sign-on through OpenID Connect (issue #38 item 4, ADR 50). Owners connect a provider for one of the
 * account's verified domains (settings); people of that domain then sign in through it: `start` stores state, nonce
 * and PKCE verifier (one-use, 10 minutes) and answers the provider's authorization URL; `finish` takes the state once,
 * lets openid-client exchange the code and check the ID token (issuer, audience, nonce, expiry, signature), and finds
 * or makes the person and their membership. Every request to the provider goes through the app's outbound rules
 * (outbound.ts).
 */
export function createSsoService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'domainProofAllowHttp'>;
  sealer: Sealer;
  audit: AuditLog;
  webhookEvents: WebhookEvents;
  resolveHost: HostResolver;
}) {
  const { db, clock, config, sealer, audit, webhookEvents } = deps;
  const allowHttp = config.domainProofAllowHttp;
  const outbound = pinnedFetch({ allowHttp, resolveHost: deps.resolveHost });
  const redirectUri = `${config.publicUrl}${SSO_CALLBACK_PATH}`;
  const metadataCache = new Map<string, { metadata: ServerMetadata; until: number }>();

  const secretContext = (accountId: number) => `sso:${accountId}`;
  const connectionTarget = (row: { accountId: number; domain: string }): AuditTarget => ({
    type: 'sso_connection',
    id: String(row.accountId),
    name: row.domain,
  });

  const toDto = (row: ConnectionRow): SsoConnection => ({
    domain: row.domain,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecretSet: row.clientSecretSealed.length > 0,
    defaultRole: row.defaultRole,
    required: row.required,
    redirectUri,
    updatedAt: row.updatedAt.toISOString(),
  });

  async function connectionOf(executor: Db, accountId: number): Promise<ConnectionRow | undefined> {
    const [row] = await executor
      .select()
      .from(ssoConnections)
      .where(eq(ssoConnections.accountId, accountId))
      .limit(1);
    return row;
  }

  /** The provider's metadata, discovered at `issuer` (openid-client checks that it names that issuer). */
  async function discover(issuer: string, clientId: string, secret: string): Promise<ServerMetadata> {
    const found = await discovery(new URL(issuer), clientId, undefined, ClientSecretBasic(secret), {
      [customFetch]: outbound,
      timeout: 10,
      ...(allowHttp ? { execute: [allowInsecureRequests] } : {}),
    });
    const metadata = { ...found.serverMetadata() };
    metadataCache.set(issuer, { metadata, until: clock.now().getTime() + METADATA_TTL_MS });
    return metadata;
  }

  /**
   * openid-client's configuration for a connection. Its checks of times (the ID token's expiry) run on the app's
   * clock: the skew is the app clock's distance from the system's.
   */
  async function clientOf(row: ConnectionRow): Promise<Configuration> {
    const secret = sealer.open(row.clientSecretSealed, secretContext(row.accountId));
    const cached = metadataCache.get(row.issuer);
    const metadata =
      cached && cached.until > clock.now().getTime()
        ? cached.metadata
        : await discover(row.issuer, row.clientId, secret);
    const skew = Math.round((clock.now().getTime() - Date.now()) / 1000);
    const configuration = new Configuration(
      metadata,
      row.clientId,
      { client_secret: secret, [clockSkew]: skew },
      ClientSecretBasic(secret),
    );
    configuration[customFetch] = outbound;
    configuration.timeout = 10;
    if (allowHttp) allowInsecureRequests(configuration);
    return configuration;
  }

  async function settings(ctx: AccountContext): Promise<SsoSettingsResponse> {
    const [row, verifiedDomains] = await Promise.all([
      connectionOf(db, ctx.accountId),
      verifiedDomainsOf(db, ctx.accountId),
    ]);
    return { connection: row ? toDto(row) : null, verifiedDomains, redirectUri };
  }

  /**
   * Connects (or changes) the account's provider. The domain must be one of the account's verified domains and no
   * other account's; the issuer must answer OpenID discovery (checked now, so the owner hears of a typo at once). The
   * secret is sealed; left out, the stored one is kept. Audited without the secret.
   */
  async function save(ctx: AccountContext, body: PutSsoRequest): Promise<SsoSettingsResponse> {
    const domain = body.domain.trim().toLowerCase();
    const verified = await verifiedDomainsOf(db, ctx.accountId);
    if (!verified.includes(domain))
      throw AppError.field('validation_error', 'domain', ssoTexts.domainNotVerified);
    const [taken] = await db
      .select({ accountId: ssoConnections.accountId })
      .from(ssoConnections)
      .where(and(eq(ssoConnections.domain, domain), ne(ssoConnections.accountId, ctx.accountId)))
      .limit(1);
    if (taken) throw AppError.field('validation_error', 'domain', ssoTexts.domainTaken);
    const existing = await connectionOf(db, ctx.accountId);
    const secret =
      body.clientSecret ??
      (existing ? sealer.open(existing.clientSecretSealed, secretContext(ctx.accountId)) : undefined);
    if (secret === undefined)
      throw AppError.field('validation_error', 'clientSecret', ssoTexts.secretRequired);
    const issuer = body.issuer;
    try {
      await discover(issuer, body.clientId, secret);
    } catch {
      throw AppError.field('validation_error', 'issuer', ssoTexts.discoveryFailed);
    }
    const now = clock.now();
    const values = {
      domain,
      issuer,
      clientId: body.clientId,
      clientSecretSealed: sealer.seal(secret, secretContext(ctx.accountId)),
      defaultRole: body.defaultRole,
      required: body.required,
      updatedAt: now,
    };
    try {
      const row = await transaction(db, async (tx) => {
        await tx
          .select({ id: accounts.id })
          .from(accounts)
          .where(eq(accounts.id, ctx.accountId))
          .for('update');
        await assertStillCan(tx, ctx, 'manageCompany');
        const before = await connectionOf(tx, ctx.accountId);
        const [saved] = await tx
          .insert(ssoConnections)
          .values({ accountId: ctx.accountId, createdAt: now, ...values })
          .onConflictDoUpdate({ target: ssoConnections.accountId, set: values })
          .returning();
        if (!saved) throw new Error('SSO connection upsert returned no row');
        const fields = ['domain', 'issuer', 'clientId', 'defaultRole', 'required'] as const;
        const changes = before
          ? (changesOf(before, saved, fields) ?? {})
          : Object.fromEntries(fields.map((field) => [field, [null, saved[field]]]));
        // Whether the secret was replaced, never the secret.
        if (body.clientSecret !== undefined) changes.clientSecret = [before ? 'set' : null, 'replaced'];
        await audit.record(tx, ctx, {
          action: 'account.sso_changed',
          targets: [connectionTarget(saved)],
          changes,
        });
        return saved;
      });
      return { connection: toDto(row), verifiedDomains: verified, redirectUri };
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.field('validation_error', 'domain', ssoTexts.domainTaken);
      throw error;
    }
  }

  /**
   * The provider's authorization URL for the address's domain, after storing the one-use state (its SHA-256 is the
   * row's key), the nonce and the PKCE verifier. 400 when the address has no domain with a connection.
   */
  async function start(email: string): Promise<URL> {
    const address = email.trim().toLowerCase();
    const domain = domainOfEmail(address);
    if (!domain || !z.email().safeParse(address).success)
      throw AppError.field('validation_error', 'email', ssoTexts.invalidEmail);
    const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.domain, domain)).limit(1);
    // A connection whose domain has since been removed or lost its proof signs no one in.
    if (!row || !(await verifiedDomainsOf(db, row.accountId)).includes(domain))
      throw AppError.field('validation_error', 'email', ssoTexts.noConnection(domain));
    let client: Configuration;
    try {
      client = await clientOf(row);
    } catch (error) {
      throw new SsoFailure('unavailable', error);
    }
    const state = randomState();
    const nonce = randomNonce();
    const codeVerifier = randomPKCECodeVerifier();
    const url = buildAuthorizationUrl(client, {
      redirect_uri: redirectUri,
      scope: SCOPE,
      state,
      nonce,
      code_challenge: await calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      login_hint: address,
    });
    const now = clock.now();
    await db.insert(authChallenges).values({
      idHash: sha256Hex(state),
      kind: 'sso',
      payload: { accountId: row.accountId, issuer: row.issuer, nonce, codeVerifier },
      expiresAt: new Date(now.getTime() + SSO_CHALLENGE_TTL_MS),
      createdAt: now,
    });
    return url;
  }

  /** The state's row, taken (deleted) at most once: of two callbacks with one state, one gets it. */
  async function takeChallenge(state: string) {
    const [row] = await db
      .delete(authChallenges)
      .where(
        and(
          eq(authChallenges.idHash, sha256Hex(state)),
          eq(authChallenges.kind, 'sso'),
          gt(authChallenges.expiresAt, clock.now()),
        ),
      )
      .returning();
    if (!row) return undefined;
    const payload = challengePayloadSchema.safeParse(row.payload);
    return payload.success ? payload.data : undefined;
  }

  async function recordFailure(accountId: number, domain: string, code: SsoErrorCode): Promise<void> {
    await transaction(db, (tx) =>
      audit.recordAsSystemFor(
        tx,
        accountId,
        { id: 'sso', name: 'Single sign-on' },
        {
          action: 'auth.sso_failed',
          targets: [connectionTarget({ accountId, domain })],
          changes: { reason: code },
        },
      ),
    );
  }

  /** The verified address the provider vouches for: the ID token's claims, else its userinfo endpoint's. */
  async function claimedEmail(
    client: Configuration,
    tokens: Awaited<ReturnType<typeof authorizationCodeGrant>>,
  ): Promise<{ subject: string; email: string | undefined; verified: boolean; name: string }> {
    const claims = tokens.claims();
    if (!claims) throw new SsoFailure('provider');
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = claims.email_verified === true;
    let name = typeof claims.name === 'string' ? claims.name : '';
    if (email === undefined || claims.email_verified === undefined) {
      const info = await fetchUserInfo(client, tokens.access_token, claims.sub);
      email = typeof info.email === 'string' ? info.email : undefined;
      verified = info.email_verified === true;
      name ||= typeof info.name === 'string' ? info.name : '';
    }
    return { subject: claims.sub, email: email?.trim().toLowerCase(), verified, name: name.slice(0, 200) };
  }

  /**
   * The provider's answer (the callback's query): the state taken once, the code exchanged and the ID token checked
   * by openid-client, the address required verified and of the connection's domain. Then the person: by their
   * identity (issuer + subject), else by address (linked now), else made (no usable password; address verified); a
   * membership with the default role at their first sign-in. Throws SsoFailure for every refusal.
   */
  async function finish(query: URLSearchParams, origin: RequestOrigin): Promise<SsoSignIn> {
    const state = query.get('state');
    const challenge = state ? await takeChallenge(state) : undefined;
    if (!challenge) throw new SsoFailure('expired');
    const row = await connectionOf(db, challenge.accountId);
    if (!row || row.issuer !== challenge.issuer) throw new SsoFailure('expired');
    const fail = async (code: SsoErrorCode, cause?: unknown): Promise<never> => {
      await recordFailure(row.accountId, row.domain, code);
      throw new SsoFailure(code, cause);
    };

    let client: Configuration;
    try {
      client = await clientOf(row);
    } catch (error) {
      return fail('unavailable', error);
    }
    const currentUrl = new URL(redirectUri);
    currentUrl.search = query.toString();
    let found: Awaited<ReturnType<typeof claimedEmail>>;
    try {
      const tokens = await authorizationCodeGrant(client, currentUrl, {
        pkceCodeVerifier: challenge.codeVerifier,
        expectedState: state ?? '',
        expectedNonce: challenge.nonce,
        idTokenExpected: true,
      });
      found = await claimedEmail(client, tokens);
    } catch (error) {
      return fail('provider', error);
    }
    if (!found.email || !found.verified) return fail('email_unverified');
    if (domainOfEmail(found.email) !== row.domain) return fail('wrong_domain');
    const email = found.email;

    const now = clock.now();
    try {
      return await transaction(db, async (tx) => {
        const [identity] = await tx
          .select({ id: ssoIdentities.id, userId: ssoIdentities.userId })
          .from(ssoIdentities)
          .where(and(eq(ssoIdentities.issuer, row.issuer), eq(ssoIdentities.subject, found.subject)))
          .limit(1);
        let user: UserRow | undefined;
        if (identity) {
          [user] = await tx.select().from(users).where(eq(users.id, identity.userId)).limit(1);
        } else {
          [user] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
          user ??= (
            await tx
              .insert(users)
              .values({
                email,
                name: found.name,
                // No password signs this person in until they set one (a reset): argon2 never verifies it.
                passwordHash: `!sso-${randomToken()}`,
                emailIsVerified: true,
                emailVerifiedAsOf: now,
                createdAt: now,
              })
              .returning()
          )[0];
        }
        if (!user) throw new Error('SSO user neither found nor made');
        if (identity) {
          await tx.update(ssoIdentities).set({ lastSignInAt: now }).where(eq(ssoIdentities.id, identity.id));
        } else {
          await tx.insert(ssoIdentities).values({
            issuer: row.issuer,
            subject: found.subject,
            userId: user.id,
            accountId: row.accountId,
            createdAt: now,
            lastSignInAt: now,
          });
        }
        const [updated] = await tx
          .update(users)
          .set({
            lastLoginAt: now,
            // The provider vouched for the address: it is verified (it may not have been, linked by address).
            ...(user.emailIsVerified ? {} : { emailIsVerified: true, emailVerifiedAsOf: now }),
          })
          .where(eq(users.id, user.id))
          .returning();
        const signedIn = updated ?? user;
        const [inserted] = await tx
          .insert(memberships)
          .values({ userId: user.id, accountId: row.accountId, role: row.defaultRole, createdAt: now })
          .onConflictDoNothing({ target: [memberships.userId, memberships.accountId] })
          .returning();
        const [membership] = inserted
          ? [inserted]
          : await tx
              .select()
              .from(memberships)
              .where(and(eq(memberships.userId, user.id), eq(memberships.accountId, row.accountId)))
              .limit(1);
        if (!membership) throw new Error('SSO membership neither made nor found');
        if (inserted) {
          await webhookEvents.emit(tx, row.accountId, {
            type: 'membership.created',
            data: toApiMembership(inserted, signedIn),
          });
        }
        await audit.recordForUserIn(tx, row.accountId, signedIn, origin, {
          action: 'auth.sso_login',
          targets: [
            { type: 'user', id: String(signedIn.id), name: signedIn.email },
            connectionTarget(row),
            { type: 'membership', id: String(membership.id), name: signedIn.email },
          ],
          // A membership made by this sign-in: its role.
          changes: inserted ? { role: [null, inserted.role] } : undefined,
        });
        return { user: signedIn, membershipId: membership.id };
      });
    } catch (error) {
      // Two first sign-ins of one new person at once: the unique index decides; the other tries again.
      if (isUniqueViolation(error)) throw new SsoFailure('expired', error);
      throw error;
    }
  }

  /** The new session opens in the account the person signed in to through its provider. */
  async function enterAccount(sessionIdHash: string, membershipId: number): Promise<void> {
    await db
      .update(sessions)
      .set({ currentMembershipId: membershipId })
      .where(eq(sessions.idHash, sessionIdHash));
  }

  return { settings, save, start, finish, enterAccount, redirectUri };
}

export type SsoService = ReturnType<typeof createSsoService>;
