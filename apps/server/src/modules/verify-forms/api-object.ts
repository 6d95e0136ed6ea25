import type { ApiForm, VerifyForm } from '@veriform/contracts';

/**
 * A form as API v1 shows it (`Form`): `GET /api/v1/forms` and the `form.*` webhook events build it here, so an
 * event's `data` is what the list answers.
 */
export const toApiForm = (form: VerifyForm): ApiForm => ({
  id: form.id,
  name: form.name,
  category: form.category,
  language: form.language,
  isLive: form.isLive,
  hostedUrl: form.publicUrl,
  created: form.created,
});
