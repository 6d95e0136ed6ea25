import { queryOptions, useMutation } from '@tanstack/react-query';
import {
  type CheckDeleteResponse,
  PROFILE_IMAGE_FIELD,
  type UpdateUserRequest,
  type User,
  userEndpoints,
} from '@veriform/contracts';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services';

/**
 * One place per user endpoint (SPEC §7): the fetcher, then its query options or mutation hook. The endpoints
 * themselves (method, path, schemas) are the contract's `userEndpoints`, which the server registers. Every user
 * answer replaces the session's user, so the shell (top-bar avatar, account menu) re-renders with it.
 */

/** The signed-in user's id; the calls below are only offered to a signed-in user. */
function requireId(user: User): number {
  if (user.id === null) throw new Error('No signed-in user');
  return user.id;
}

export function updateUser(api: ApiClient, userId: number, body: UpdateUserRequest): Promise<User> {
  return api.call(userEndpoints.update, { params: { id: userId }, body });
}

export function useUpdateUserMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (body: UpdateUserRequest) => updateUser(api, requireId(session.get().user), body),
    onSuccess: (user) => session.replaceUser(user),
  });
}

/** The multipart field of the profile-image upload (the server reads the same constant). */
export { PROFILE_IMAGE_FIELD };

export function uploadProfileImage(api: ApiClient, userId: number, file: File): Promise<User> {
  const formData = new FormData();
  formData.append(PROFILE_IMAGE_FIELD, file, file.name);
  return api.call(userEndpoints.uploadProfileImage, { params: { id: userId }, formData });
}

export function useUploadProfileImageMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: (file: File) => uploadProfileImage(api, requireId(session.get().user), file),
    onSuccess: (user) => session.replaceUser(user),
  });
}

export function deleteProfileImage(api: ApiClient, userId: number): Promise<User> {
  return api.call(userEndpoints.deleteProfileImage, { params: { id: userId } });
}

export function useDeleteProfileImageMutation() {
  const { api, session } = useServices();
  return useMutation({
    mutationFn: () => deleteProfileImage(api, requireId(session.get().user)),
    onSuccess: (user) => session.replaceUser(user),
  });
}

// A read (it changes nothing), so it is offered as a query.
export function checkDeleteUser(api: ApiClient, userId: number): Promise<CheckDeleteResponse> {
  return api.call(userEndpoints.checkDelete, { params: { id: userId } });
}

export function checkDeleteQueryOptions(api: ApiClient, userId: number) {
  return queryOptions({
    queryKey: ['users', userId, 'check-delete'] as const,
    queryFn: () => checkDeleteUser(api, userId),
  });
}
