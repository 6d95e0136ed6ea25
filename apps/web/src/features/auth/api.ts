import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type AuthResponse,
  authResponseSchema,
  type DetailResponse,
  detailResponseSchema,
  type LoginRequest,
  type ResendVerificationEmailRequest,
  type SignupRequest,
  type TokenConfirmRequest,
} from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';
import { type Services, useServices } from '../../lib/services';
import { sessionQueryKey } from '../../lib/session';

/** One place per auth endpoint (SPEC §7, DESIGN §5): the fetcher, then its query options or mutation hook. */

// POST /api/auth/refresh-me — a read with a POST (it rotates the CSRF token), exposed as the session query.
export function refreshMe(api: ApiClient): Promise<AuthResponse> {
  return api.post('/api/auth/refresh-me', { schema: authResponseSchema });
}

/** The session query with a real fetcher: observe it to re-check the session (polling, window focus). */
export function sessionQueryOptions({ api, session }: Pick<Services, 'api' | 'session'>) {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: async () => session.fromAuthResponse(await refreshMe(api), 'keep'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

// POST /api/auth/login
export function login(api: ApiClient, body: LoginRequest): Promise<AuthResponse> {
  return api.post('/api/auth/login', { schema: authResponseSchema, body });
}

export function useLoginMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: LoginRequest) => login(api, body),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

// POST /api/auth/logout
export function logout(api: ApiClient): Promise<AuthResponse> {
  return api.post('/api/auth/logout', { schema: authResponseSchema });
}

export function useLogoutMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: () => logout(api),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

// POST /api/auth/signup
export function signup(api: ApiClient, body: SignupRequest): Promise<AuthResponse> {
  return api.post('/api/auth/signup', { schema: authResponseSchema, body });
}

export function useSignupMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: SignupRequest) => signup(api, body),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

// POST /api/auth/signup/resend-verification-email — the same answer whether or not the address exists.
export function resendVerificationEmail(
  api: ApiClient,
  body: ResendVerificationEmailRequest,
): Promise<DetailResponse> {
  return api.post('/api/auth/signup/resend-verification-email', { schema: detailResponseSchema, body });
}

export function useResendVerificationEmailMutation() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (body: ResendVerificationEmailRequest) => resendVerificationEmail(api, body),
  });
}

// POST /api/auth/verify-email/confirm — 400 with MainCode_ invalid_token when the link is bad.
export function confirmVerifyEmail(api: ApiClient, body: TokenConfirmRequest): Promise<AuthResponse> {
  return api.post('/api/auth/verify-email/confirm', { schema: authResponseSchema, body });
}

export function useConfirmVerifyEmailMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: TokenConfirmRequest) => confirmVerifyEmail(api, body),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}
