import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type AuthResponse,
  authResponseSchema,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type DetailResponse,
  detailResponseSchema,
  type EmailChangeRequest,
  emailChangeRequestSchema,
  type LoginRequest,
  type ResendVerificationEmailRequest,
  type ResetPasswordConfirmRequest,
  type ResetPasswordRequest,
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

// POST /api/auth/reset-password — always the same 200 (no account enumeration); 429 when limited.
export function requestPasswordReset(api: ApiClient, body: ResetPasswordRequest): Promise<DetailResponse> {
  return api.post('/api/auth/reset-password', { schema: detailResponseSchema, body });
}

export function useRequestPasswordResetMutation() {
  const { api } = useServices();
  return useMutation({ mutationFn: (body: ResetPasswordRequest) => requestPasswordReset(api, body) });
}

// POST /api/auth/reset-password/confirm — ends every session of that user, so the caller is usually anonymous after.
export function confirmPasswordReset(
  api: ApiClient,
  body: ResetPasswordConfirmRequest,
): Promise<AuthResponse> {
  return api.post('/api/auth/reset-password/confirm', { schema: authResponseSchema, body });
}

export function useConfirmPasswordResetMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: ResetPasswordConfirmRequest) => confirmPasswordReset(api, body),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

// POST /api/auth/change-password — keeps this session (new CSRF token), ends the others.
export function changePassword(api: ApiClient, body: ChangePasswordRequest): Promise<AuthResponse> {
  return api.post('/api/auth/change-password', { schema: authResponseSchema, body });
}

export function useChangePasswordMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => changePassword(api, body),
    // SPEC §4: after a password change the current membership is reset from server data.
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

export const emailChangeRequestQueryKey = ['auth', 'change-email'] as const;

// GET /api/auth/change-email/retrieve — the user's e-mail change request (status '' when there is none).
export function retrieveEmailChangeRequest(
  api: ApiClient,
  signal?: AbortSignal,
): Promise<EmailChangeRequest> {
  return api.get('/api/auth/change-email/retrieve', { schema: emailChangeRequestSchema, signal });
}

export function emailChangeRequestQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: emailChangeRequestQueryKey,
    queryFn: ({ signal }) => retrieveEmailChangeRequest(api, signal),
  });
}

// POST /api/auth/change-email/request — 400 field errors on toEmail (taken, same as the current address).
export function requestEmailChange(api: ApiClient, body: ChangeEmailRequest): Promise<EmailChangeRequest> {
  return api.post('/api/auth/change-email/request', { schema: emailChangeRequestSchema, body });
}

export function useRequestEmailChangeMutation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: ChangeEmailRequest) => requestEmailChange(api, body),
    onSuccess: (request) => queryClient.setQueryData(emailChangeRequestQueryKey, request),
  });
}

// POST /api/auth/change-email/resend — sends the pending request's link again.
export function resendEmailChange(api: ApiClient): Promise<EmailChangeRequest> {
  return api.post('/api/auth/change-email/resend', { schema: emailChangeRequestSchema });
}

export function useResendEmailChangeMutation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: () => resendEmailChange(api),
    onSuccess: (request) => queryClient.setQueryData(emailChangeRequestQueryKey, request),
  });
}

// POST /api/auth/change-email/cancel — the link sent to the OLD address calls the pending change off; 400 with
// MainCode_ invalid_token when the link is bad (used, replaced, confirmed meanwhile, expired).
export function cancelEmailChange(api: ApiClient, body: TokenConfirmRequest): Promise<DetailResponse> {
  return api.post('/api/auth/change-email/cancel', { schema: detailResponseSchema, body });
}

export function useCancelEmailChangeMutation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: TokenConfirmRequest) => cancelEmailChange(api, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: emailChangeRequestQueryKey }),
  });
}

// POST /api/auth/change-email/confirm — 400 with MainCode_ invalid_token when the link is bad.
export function confirmEmailChange(api: ApiClient, body: TokenConfirmRequest): Promise<AuthResponse> {
  return api.post('/api/auth/change-email/confirm', { schema: authResponseSchema, body });
}

export function useConfirmEmailChangeMutation() {
  const { api, session, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: TokenConfirmRequest) => confirmEmailChange(api, body),
    onSuccess: (response) => {
      session.applyAuthResponse(response, 'keep');
      void queryClient.invalidateQueries({ queryKey: emailChangeRequestQueryKey });
    },
  });
}
