import { createFileRoute, notFound } from '@tanstack/react-router';
import { NotFoundScreen } from '../../../components/errors/NotFoundScreen';
import { verifyFormQueryOptions } from '../../../features/verify-forms/api';
import { VerifyFormPage } from '../../../features/verify-forms/components/VerifyFormPage';
import { NotFoundError } from '../../../lib/api-client';

/** SPEC §2: one form by numeric id; anything else, or another account's form, is not found. */
export function parseFormId(raw: string): number | null {
  if (!/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 && Number.isSafeInteger(id) ? id : null;
}

export const Route = createFileRoute('/_authed/forms/$verifyFormId')({
  loader: async ({ context, params }) => {
    const formId = parseFormId(params.verifyFormId);
    if (formId === null) throw notFound();
    const accountId = context.session.get().currentMembership?.account.id;
    // Without a membership the page says so (VerifyFormPage): nothing to read.
    if (accountId === undefined) return;
    try {
      await context.queryClient.ensureQueryData(verifyFormQueryOptions(context.api, accountId, formId));
    } catch (error) {
      if (error instanceof NotFoundError) throw notFound();
      throw error;
    }
  },
  component: FormRoutePage,
});

function FormRoutePage() {
  const { verifyFormId } = Route.useParams();
  const formId = parseFormId(verifyFormId);
  if (formId === null) return <NotFoundScreen />;
  return <VerifyFormPage formId={formId} />;
}
