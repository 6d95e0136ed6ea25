import { z } from 'zod';
import { roleSchema } from './memberships.ts';

/**
 * A membership as the `membership.created` and `membership.removed` webhook events carry it. API v1 has no
 * memberships endpoint yet; this is the shape one would answer: the team screen's membership (role and the two
 * switches a member's rights come from) with its person, flattened to ids and names as API v1's objects are
 * (`account` is the account's id, as `Form` and the endpoints name it).
 */
export const apiMembershipSchema = z
  .object({
    id: z.number().int(),
    account: z.number().int(),
    user: z.object({ id: z.number().int(), email: z.string(), name: z.string() }),
    role: roleSchema,
    canSearchData: z.boolean().meta({ description: 'A member may see full numbers and the activity log.' }),
    canViewReports: z.boolean().meta({ description: 'A member may see the reports.' }),
    created: z.string().meta({ description: 'When the person joined (ISO 8601).' }),
  })
  .meta({ id: 'Membership' });
export type ApiMembership = z.infer<typeof apiMembershipSchema>;
