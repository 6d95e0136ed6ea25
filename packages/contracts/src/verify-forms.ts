import { z } from 'zod';
import { csvList, localDateSchema, timeZoneSchema } from './date-filters.ts';
import { anyIdParams, created, endpoint, noContent, ok } from './endpoints.ts';
import { listResponseSchema } from './lists.ts';
import { singleLineName } from './names.ts';
import type { Capability } from './teams.ts';

export const languages = ['en', 'es'] as const;
export const languageSchema = z.enum(languages);
export type Language = z.infer<typeof languageSchema>;
export const languageLabels: Record<Language, string> = { en: 'English', es: 'Spanish' };

export const formNameSchema = singleLineName(120);
export const formCategorySchema = z.string().trim().max(60);

/**
 * A form's settings as every reader sees them: the session API's form, API v1's `Form` and the `form.*` webhook
 * events all take these fields from here, so a new setting is added once (issue #34's newcomer test).
 */
export const formSettingsSchema = z.object({
  name: z.string(),
  category: z.string(),
  language: languageSchema,
  isLive: z.boolean().meta({ description: 'Only live forms start verifications.' }),
});
export type FormSettings = z.infer<typeof formSettingsSchema>;

/** A verification form (DESIGN §5). `bannerImage` is a `/media/…` URL; `publicUrl` the consumer page. */
export const verifyFormSchema = z.object({
  id: z.number().int(),
  publicId: z.string(),
  account: z.number().int(),
  ...formSettingsSchema.shape,
  created: z.string(),
  bannerImage: z.string().nullable(),
  publicUrl: z.string(),
});
export type VerifyForm = z.infer<typeof verifyFormSchema>;

/** POST /api/verify-forms (SPEC §7: name, account; language and category optional). New forms are not live. */
export const createVerifyFormRequestSchema = z.object({
  name: formNameSchema,
  account: z.number().int().positive(),
  language: languageSchema.default('en'),
  category: formCategorySchema.default(''),
});
export type CreateVerifyFormRequest = z.input<typeof createVerifyFormRequestSchema>;

/** PATCH /api/verify-forms/{id}: partial fields. */
export const updateVerifyFormRequestSchema = z
  .object({
    name: formNameSchema,
    isLive: z.boolean(),
    language: languageSchema,
    category: formCategorySchema,
  })
  .partial()
  .strict();
export type UpdateVerifyFormRequest = z.infer<typeof updateVerifyFormRequestSchema>;

/** The banner upload's one file field (`verifyFormEndpoints.uploadBanner`). */
export const BANNER_IMAGE_FIELD = 'bannerImage';

export const formStatuses = ['all', 'inactive', 'active'] as const;
export const formListPresets = [
  'all',
  'today',
  'yesterday',
  'last3d',
  'last7d',
  'last30d',
  'custom',
] as const;
export const formSorts = ['name', '-name', 'created', '-created', 'category', '-category'] as const;

/**
 * The forms list's search params (SPEC §2), shared by the /forms/ route and GET /api/verify-forms. Every bad value
 * falls back to its default: a shared link never crashes the page or the call.
 * `status` active|inactive maps to isLive true|false; an explicit isLive wins.
 */
export const formListSearchSchema = z.object({
  isLive: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
    .optional()
    .catch(undefined),
  status: z.enum(formStatuses).catch('all').default('all'),
  language: z
    .enum(['all', ...languages])
    .catch('all')
    .default('all'),
  category__in: csvList(formCategorySchema).optional().catch(undefined),
  created__date__preset: z.enum(formListPresets).catch('all').default('all'),
  created__date__gte: localDateSchema.optional().catch(undefined),
  created__date__lte: localDateSchema.optional().catch(undefined),
  tz: timeZoneSchema.optional(),
  q: z.string().trim().max(200).optional().catch(undefined),
  o: z.enum(formSorts).catch('-created').default('-created'),
  pageNumber: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).catch(25).default(25),
});
export type FormListSearch = z.infer<typeof formListSearchSchema>;

/** GET /api/verify-forms?account={id}&…search params. */
export const formListQuerySchema = formListSearchSchema.extend({
  account: z.coerce.number().int().positive(),
});
export type FormListQuery = z.input<typeof formListQuerySchema>;
export const verifyFormListSchema = listResponseSchema(verifyFormSchema);
export type VerifyFormList = z.infer<typeof verifyFormListSchema>;

/** GET /api/verify-forms/categories?account={id}: the account's categories in use, for suggestions. */
export const formCategoriesQuerySchema = z.object({ account: z.coerce.number().int().positive() });
export const formCategoriesSchema = z.object({ results: z.array(z.string()) });

/** GET /api/verify-forms/{id}/stats: the form page's counts. */
export const verifyFormStatsSchema = z.object({
  verifications: z.number().int(),
  verificationsLast30Days: z.number().int(),
  codesSentLast30Days: z.number().int(),
  lastVerifiedAt: z.string().nullable(),
});
export type VerifyFormStats = z.infer<typeof verifyFormStatsSchema>;

/**
 * A form's routes (its consent versions' too): the path id names the form's account, where the caller needs `can`
 * (docs/roles.md: every member reads and manages forms; the counts need `viewReports`).
 */
export const onVerifyForm = (can: Capability) =>
  ({ account: { from: { pathObject: 'verifyForms' }, can } }) as const;

/** The session API's form routes (SPEC §2 /forms/, §7). */
export const verifyFormEndpoints = {
  /** `{name, account, language?, category?}` → 201; new forms are not live. */
  create: endpoint('POST /api/verify-forms', {
    body: createVerifyFormRequestSchema,
    response: created(verifyFormSchema),
    access: { account: { from: 'body.account', can: 'manageForms' } },
  }),
  /** The account's forms, as the forms list's search params filter, sort and page them. */
  list: endpoint('GET /api/verify-forms', {
    query: formListQuerySchema,
    response: ok(verifyFormListSchema),
    access: { account: { from: 'query.account', can: 'readForms' } },
  }),
  /** The account's categories in use, for suggestions. */
  categories: endpoint('GET /api/verify-forms/categories', {
    query: formCategoriesQuerySchema,
    response: ok(formCategoriesSchema),
    access: { account: { from: 'query.account', can: 'readForms' } },
  }),
  /** One form. */
  get: endpoint('GET /api/verify-forms/:id', {
    params: anyIdParams,
    response: ok(verifyFormSchema),
    access: onVerifyForm('readForms'),
  }),
  /** The form page's counts: owners, or members with canViewReports (the same right as the dashboard). */
  stats: endpoint('GET /api/verify-forms/:id/stats', {
    params: anyIdParams,
    response: ok(verifyFormStatsSchema),
    access: onVerifyForm('viewReports'),
  }),
  /** Partial fields; the form as it now is. */
  update: endpoint('PATCH /api/verify-forms/:id', {
    params: anyIdParams,
    body: updateVerifyFormRequestSchema,
    response: ok(verifyFormSchema),
    access: onVerifyForm('manageForms'),
  }),
  /** 204; 400 with a message when the form has verifications. */
  remove: endpoint('DELETE /api/verify-forms/:id', {
    params: anyIdParams,
    response: noContent,
    access: onVerifyForm('manageForms'),
  }),
  /** Multipart `bannerImage` (the profile-picture rules and refusal texts); the form with its new banner. */
  uploadBanner: endpoint('PATCH /api/verify-forms/:id/update-banner-image', {
    params: anyIdParams,
    body: 'multipart',
    response: ok(verifyFormSchema),
    access: onVerifyForm('manageForms'),
  }),
  /** The form without its banner. */
  deleteBanner: endpoint('PATCH /api/verify-forms/:id/delete-banner-image', {
    params: anyIdParams,
    response: ok(verifyFormSchema),
    access: onVerifyForm('manageForms'),
  }),
};
