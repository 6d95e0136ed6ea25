import { type ApiForm, formSettingsSchema, type VerifyForm } from '@veriform/contracts';

/**
 * A form as API v1 shows it (`Form`): `GET /api/v1/forms` and the `form.*` webhook events build it here, so an
 * event's `data` is what the list answers. Its settings are the contract's `formSettingsSchema`, read from the form as
 * the session API has it: a new setting reaches API v1 without a change here.
 */
export const toApiForm = (form: VerifyForm): ApiForm => ({
  id: form.id,
  ...formSettingsSchema.parse(form),
  hostedUrl: form.publicUrl,
  created: form.created,
});
