import { PROFILE_IMAGE_FIELD, userEndpoints } from '@veriform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { requireUser } from '../../plugins/auth-guard.ts';
import { declared } from '../../plugins/endpoints.ts';
import { toUserDto, type UserRow } from './repository.ts';

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

/**
 * SPEC §7 /api/users/{id}: the caller's own profile. Thin: parse, call the service, answer. The routes' paths and
 * schemas are their contract's (`userEndpoints`).
 */
export async function userRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users, media } = app.services;

  r.route({
    ...declared(userEndpoints.update),
    preValidation: ownUserOnly,
    handler: async (request) => toUserDto(await users.updateName(self(request), request.body.name)),
  });

  r.route({
    ...declared(userEndpoints.uploadProfileImage),
    preValidation: ownUserOnly,
    handler: async (request) => {
      const user = self(request);
      const url = await media.acceptImageUpload(request, PROFILE_IMAGE_FIELD, `user:${user.id}`);
      return toUserDto(await users.setProfileImage(user, url));
    },
  });

  r.route({
    ...declared(userEndpoints.deleteProfileImage),
    preValidation: ownUserOnly,
    handler: async (request) => toUserDto(await users.deleteProfileImage(self(request))),
  });

  r.route({
    ...declared(userEndpoints.checkDelete),
    preValidation: ownUserOnly,
    handler: async (request) => users.checkDelete(self(request)),
  });
}
