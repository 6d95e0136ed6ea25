import type { AuthResponse, SignupRequest } from '@veriform/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let counter = 0;
/** A fresh, valid sign-up payload (unique address per call). */
export function newSignup(overrides: Partial<SignupRequest> = {}): SignupRequest {
  counter += 1;
  const password = overrides.password ?? 'Correct-horse-9';
  return {
    email: `user${counter}-${Date.now()}@example.com`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    password,
    passwordConfirm: password,
    ...overrides,
  };
}

/**
 * A browser stand-in over app.inject: keeps cookies like a cookie jar, remembers the CSRF token from auth answers
 * and sends it in X-CSRFToken on unsafe requests.
 */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  readonly app: FastifyInstance;
  readonly ip: string;

  constructor(app: FastifyInstance, ip = '127.0.0.1') {
    this.app = app;
    this.ip = ip;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(options: {
    method: Method;
    url: string;
    body?: unknown;
    /** Sent as is; `content-type` defaults to application/json (set it in `headers` for anything else). */
    rawBody?: string | Buffer;
    headers?: Record<string, string>;
    csrf?: boolean;
  }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    const unsafe = !['GET', 'HEAD'].includes(options.method);
    if (unsafe && options.csrf !== false && this.csrfToken && !('x-csrftoken' in headers)) {
      headers['x-csrftoken'] = this.csrfToken;
    }
    let payload: string | Buffer | undefined;
    if (options.rawBody !== undefined) {
      payload = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await this.app.inject({
      method: options.method,
      url: options.url,
      headers,
      remoteAddress: this.ip,
      ...(payload !== undefined ? { payload } : {}),
    });
    for (const cookie of response.cookies) {
      const expired =
        cookie.maxAge === 0 || (cookie.expires instanceof Date && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    if (/^application\/json(;|$)/.test(response.headers['content-type']?.toString() ?? '')) {
      const json: unknown = response.json();
      if (json && typeof json === 'object' && 'csrfToken' in json && typeof json.csrfToken === 'string') {
        this.csrfToken = json.csrfToken;
      }
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, ...(headers ? { headers } : {}) });
  }

  post(url: string, body: unknown = {}, options: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    return this.request({ method: 'POST', url, body, ...options });
  }

  patch(url: string, body: unknown = {}, options: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    return this.request({ method: 'PATCH', url, body, ...options });
  }

  /** A multipart/form-data POST (see multipart.ts), like a browser's FormData upload. */
  postMultipart(url: string, form: { body: Buffer; contentType: string }, options: { csrf?: boolean } = {}) {
    return this.request({
      method: 'POST',
      url,
      rawBody: form.body,
      headers: { 'content-type': form.contentType },
      ...options,
    });
  }

  /** The same as a PATCH (the banner-image route). */
  patchMultipart(url: string, form: { body: Buffer; contentType: string }, options: { csrf?: boolean } = {}) {
    return this.request({
      method: 'PATCH',
      url,
      rawBody: form.body,
      headers: { 'content-type': form.contentType },
      ...options,
    });
  }

  /** Signs a new user up (logged in, address unverified); answers the payload and the auth response. */
  async signupNew(overrides: Partial<SignupRequest> = {}) {
    const payload = newSignup(overrides);
    const auth = await this.signup(payload);
    return { payload, auth, id: auth.user.id ?? 0 };
  }

  async fetchCsrf(): Promise<string> {
    const response = await this.post('/api/auth/csrf', {}, { csrf: false });
    if (response.statusCode !== 200) throw new Error(`csrf: ${response.statusCode} ${response.body}`);
    return this.csrfToken ?? '';
  }

  async signup(payload: SignupRequest = newSignup()): Promise<AuthResponse> {
    if (!this.csrfToken) await this.fetchCsrf();
    const response = await this.post('/api/auth/signup', payload);
    if (response.statusCode !== 200) throw new Error(`signup: ${response.statusCode} ${response.body}`);
    return response.json<AuthResponse>();
  }

  async login(email: string, password: string): Promise<LightMyRequestResponse> {
    if (!this.csrfToken) await this.fetchCsrf();
    return this.post('/api/auth/login', { email, password });
  }
}
