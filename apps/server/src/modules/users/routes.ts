import {
  checkDeleteResponseSchema,
  PROFILE_IMAGE_FIELD,
  updateUserRequestSchema,
  userSchema,
} from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/auth-guard.ts';
import { toUserDto, type UserRow } from './repository.ts';

/** Any string: an id that is not the caller's own, numeric or not, is simply not found. */
const params = z.object({ id: z.string() });

/**
 * Runs before the body is validated or read: 401 when logged out, then 404 `{detail: "Not found."}` for any id but
 * the caller's own — another user's id and a nonexistent one answer alike, so ids cannot be probed.
 */
async function ownUserOnly(request: FastifyRequest): Promise<void> {
  const user = requireUser(request);
  const { id } = request.params as { id?: string };
  if (id !== String(user.id)) throw new AppError('not_found');
}

const self = (request: FastifyRequest): UserRow => requireUser(request);

/** SPEC §7 /api/users/{id}: the caller's own profile. Thin: parse, call the service, answer. */
export async function userRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users, media } = app.services;
  const response = { 200: userSchema };

  r.patch(
    '/api/users/:id',
    { preValidation: ownUserOnly, schema: { params, body: updateUserRequestSchema, response } },
    async (request) => toUserDto(await users.updateName(self(request), request.body.name)),
  );

  r.post(
    '/api/users/:id/update-uploaded-profile-image',
    { preValidation: ownUserOnly, schema: { params, response } },
    async (request) => {
      const user = self(request);
      const url = await media.acceptImageUpload(request, PROFILE_IMAGE_FIELD, `user:${user.id}`);
      return toUserDto(await users.setProfileImage(user, url));
    },
  );

  r.patch(
    '/api/users/:id/delete-uploaded-profile-image',
    { preValidation: ownUserOnly, schema: { params, response } },
    async (request) => toUserDto(await users.deleteProfileImage(self(request))),
  );

  r.patch(
    '/api/users/:id/check-delete',
    { preValidation: ownUserOnly, schema: { params, response: { 200: checkDeleteResponseSchema } } },
    async (request) => users.checkDelete(self(request)),
  );
}
