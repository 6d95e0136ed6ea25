import type {
  AuthResponse,
  CompanyInfo,
  FollowInvitation,
  InitialData,
  Invitation,
  Membership,
  TeamMembership,
  User,
} from '@veriform/contracts';
import { anonymousUser } from '@veriform/contracts';
import type { FetchLike } from '../lib/api-client';

export type Answer = [status: number, body?: unknown];
type Handler = (request: {
  body: unknown;
  url: URL;
  headers: Record<string, string>;
}) => Answer | Promise<Answer>;

export interface RecordedRequest {
  method: string;
  path: string;
  url: URL;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * A fake server behind the API client's fetch boundary: handlers per "METHOD /path" and a log of every request.
 * POST /api/auth/csrf answers by default.
 */
export function createFakeServer(handlers: Record<string, Handler | Answer> = {}) {
  const requests: RecordedRequest[] = [];
  const routes = new Map<string, Handler | Answer>(Object.entries(handlers));
  if (!routes.has('POST /api/auth/csrf'))
    routes.set('POST /api/auth/csrf', [200, { csrfToken: 'csrf-fetched' }]);

  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input, 'http://localhost');
    const method = init.method ?? 'GET';
    const headers = { ...(init.headers as Record<string, string>) };
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    requests.push({ method, path: url.pathname, url, body, headers });
    const route = routes.get(`${method} ${url.pathname}`);
    if (!route) return new Response(JSON.stringify({ detail: 'Not found.' }), { status: 404 });
    const [status, payload] = typeof route === 'function' ? await route({ body, url, headers }) : route;
    return new Response(payload === undefined ? null : JSON.stringify(payload), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  };

  return {
    fetch,
    requests,
    on(key: string, handler: Handler | Answer) {
      routes.set(key, handler);
    },
    calls: (key: string) => requests.filter((r) => `${r.method} ${r.path}` === key),
  };
}

export function makeUser(over: Partial<User> = {}): User {
  return {
    id: 1,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    uploadedProfileImage: null,
    isAuthenticated: true,
    emailIsVerified: true,
    emailVerifiedAsOf: '2026-01-01T00:00:00Z',
    ...over,
  };
}

export function makeMembership(over: Partial<Membership> = {}): Membership {
  return {
    id: 11,
    role: 'owner',
    canSearchData: true,
    canViewReports: true,
    account: { id: 21, displayName: 'Acme Corp', uploadedProfileImage: null },
    ...over,
  };
}

/**
 * What the account routes answer (`GET|PATCH /api/accounts/{id}`): the company info of `makeMembership()`'s account
 * with the settings' defaults, for tests to override what they look at. One home, so a new setting is added once.
 */
export function makeCompanyInfo(over: Partial<CompanyInfo> = {}): CompanyInfo {
  return {
    ...makeMembership().account,
    phoneCountries: ['US'],
    auditRetentionYears: 2,
    consentMaxAgeMonths: 18,
    requireMfa: false,
    ...over,
  };
}

export function makeInitialData(over: Partial<InitialData> = {}): InitialData {
  return {
    user: anonymousUser,
    memberships: [],
    currentMembership: null,
    csrfToken: 'csrf-initial',
    extra: {},
    ...over,
  };
}

export function authResponse(user: User, memberships: Membership[] = []): AuthResponse {
  return { csrfToken: 'csrf-rotated', user, memberships, currentMembership: memberships[0] ?? null };
}

export function makeTeamMembership(
  over: Partial<Omit<TeamMembership, 'user'>> & { user?: Partial<TeamMembership['user']> } = {},
): TeamMembership {
  const { user, ...rest } = over;
  return {
    ...makeMembership(),
    created: '2026-01-01T00:00:00Z',
    mfa: { totp: false, passkeys: 0 },
    ...rest,
    user: { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', uploadedProfileImage: null, ...user },
  };
}

export function teamList<T>(results: T[]) {
  return { count: results.length, pageNumber: 1, pageSize: 100, results };
}

export function makeInvitation(over: Partial<Invitation> = {}): Invitation {
  return {
    id: 31,
    email: 'bob@example.com',
    role: 'member',
    canSearchData: false,
    canViewReports: false,
    account: makeMembership().account,
    invitedBy: { name: 'Ada Lovelace', email: 'ada@example.com' },
    created: '2026-01-01T00:00:00Z',
    expiresAt: '2026-01-08T00:00:00Z',
    lastSentAt: '2026-01-01T00:00:00Z',
    status: 'pending',
    ...over,
  };
}

export function makeFollowInvitation(over: Partial<FollowInvitation> = {}): FollowInvitation {
  return {
    hasError: false,
    key: 'inv-key-1',
    email: 'bob@example.com',
    role: 'member',
    accountName: 'Acme Corp',
    invitedByName: 'Ada Lovelace',
    expiresAt: '2026-01-08T00:00:00Z',
    userExists: false,
    ...over,
  };
}
