import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type AuthResponse,
  accountSelfServiceEndpoints,
  authEndpoints,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type DetailResponse,
  type EmailChangeRequest,
  type LoginRequest,
  type LoginResponse,
  type ResendVerificationEmailRequest,
  type ResetPasswordConfirmRequest,
  type ResetPasswordRequest,
  type SignupRequest,
  type TokenConfirmRequest,
} from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';
import { type Services, useServices } from '../../lib/services';
import { sessionQueryKey } from '../../lib/session';

/**
 * One place per auth endpoint (SPEC §7, DESIGN §5): the fetcher, then its query options or mutation hook. The
 * endpoints themselves (method, path, schemas) are the contract's `authEndpoints` and `accountSelfServiceEndpoints`,
 * which the server registers.
 */

const selfService = accountSelfServiceEndpoints;

/** Exposed as the session query. */
export function refreshMe(api: ApiClient): Promise<AuthResponse> {
  return api.call(authEndpoints.refreshMe, {});
}

/** The session query with a real fetcher: observe it to re-check the session (polling, window focus). */
export function sessionQueryOptions({ api, session }: Pick<Services, 'api' | 'session'>) {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: async () => session.fromAuthResponse(await refreshMe(api), 'keep'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The sign-in's answer as the server gives it: signed in, or `{mfaRequired, methods}` (issue #38, a second step). */
export function loginStep(api: ApiClient, body: LoginRequest): Promise<LoginResponse> {
  return api.call(authEndpoints.login, { body });
}

/** A sign-in that must end signed in; the second factor's step is the sign-in screens' (issue #38). */
export async function login(api: ApiClient, body: LoginRequest): Promise<AuthResponse> {
  const response = await loginStep(api, body);
  if ('mfaRequired' in response) throw new Error('A second factor is required to finish signing in.');
  return response;
}

export function useLoginMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: LoginRequest) => login(api, body),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

export function logout(api: ApiClient): Promise<AuthResponse> {
  return api.call(authEndpoints.logout, {});
}

export function useLogoutMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: () => logout(api),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

export function signup(api: ApiClient, body: SignupRequest): Promise<AuthResponse> {
  return api.call(authEndpoints.signup, { body });
}

export function useSignupMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: SignupRequest) => signup(api, body),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

export function resendVerificationEmail(
  api: ApiClient,
  body: ResendVerificationEmailRequest,
): Promise<DetailResponse> {
  return api.call(authEndpoints.resendVerificationEmail, { body });
}

export function useResendVerificationEmailMutation() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (body: ResendVerificationEmailRequest) => resendVerificationEmail(api, body),
  });
}

export function confirmVerifyEmail(api: ApiClient, body: TokenConfirmRequest): Promise<AuthResponse> {
  return api.call(authEndpoints.confirmVerifyEmail, { body });
}

export function useConfirmVerifyEmailMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: TokenConfirmRequest) => confirmVerifyEmail(api, body),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

export function requestPasswordReset(api: ApiClient, body: ResetPasswordRequest): Promise<DetailResponse> {
  return api.call(selfService.resetPassword, { body });
}

export function useRequestPasswordResetMutation() {
  const { api } = useServices();
  return useMutation({ mutationFn: (body: ResetPasswordRequest) => requestPasswordReset(api, body) });
}

// The caller is usually anonymous after: every session of that user ends.
export function confirmPasswordReset(
  api: ApiClient,
  body: ResetPasswordConfirmRequest,
): Promise<AuthResponse> {
  return api.call(selfService.confirmPasswordReset, { body });
}

export function useConfirmPasswordResetMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: ResetPasswordConfirmRequest) => confirmPasswordReset(api, body),
    onSuccess: (response) => session.applyAuthResponse(response, 'reset'),
  });
}

export function changePassword(api: ApiClient, body: ChangePasswordRequest): Promise<AuthResponse> {
  return api.call(selfService.changePassword, { body });
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

export function retrieveEmailChangeRequest(
  api: ApiClient,
  signal?: AbortSignal,
): Promise<EmailChangeRequest> {
  return api.call(selfService.retrieveEmailChange, { signal });
}

export function emailChangeRequestQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: emailChangeRequestQueryKey,
    queryFn: ({ signal }) => retrieveEmailChangeRequest(api, signal),
  });
}

export function requestEmailChange(api: ApiClient, body: ChangeEmailRequest): Promise<EmailChangeRequest> {
  return api.call(selfService.requestEmailChange, { body });
}

export function useRequestEmailChangeMutation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: ChangeEmailRequest) => requestEmailChange(api, body),
    onSuccess: (request) => queryClient.setQueryData(emailChangeRequestQueryKey, request),
  });
}

export function resendEmailChange(api: ApiClient): Promise<EmailChangeRequest> {
  return api.call(selfService.resendEmailChange, {});
}

export function useResendEmailChangeMutation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: () => resendEmailChange(api),
    onSuccess: (request) => queryClient.setQueryData(emailChangeRequestQueryKey, request),
  });
}

export function cancelEmailChange(api: ApiClient, body: TokenConfirmRequest): Promise<DetailResponse> {
  return api.call(selfService.cancelEmailChange, { body });
}

export function useCancelEmailChangeMutation() {
  const { api, queryClient } = useServices();
  return useMutation({
    mutationFn: (body: TokenConfirmRequest) => cancelEmailChange(api, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: emailChangeRequestQueryKey }),
  });
}

export function confirmEmailChange(api: ApiClient, body: TokenConfirmRequest): Promise<AuthResponse> {
  return api.call(selfService.confirmEmailChange, { body });
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
