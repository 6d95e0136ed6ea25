import { createFileRoute, notFound, redirect } from '@tanstack/react-router';
import type { VerifyForm } from '@veriform/contracts';
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
    let form: VerifyForm;
    try {
      form = await context.queryClient.ensureQueryData(
        verifyFormQueryOptions(context.api, accountId, formId),
      );
    } catch (error) {
      if (error instanceof NotFoundError) throw notFound();
      throw error;
    }
    // The user's form in another of their accounts (opened before switching, or from Back): the current account's
    // forms instead, never one account's form inside another's pages.
    if (form.account !== accountId) throw redirect({ to: '/forms/', replace: true });
  },
  component: FormRoutePage,
});

function FormRoutePage() {
  const { verifyFormId } = Route.useParams();
  const formId = parseFormId(verifyFormId);
  if (formId === null) return <NotFoundScreen />;
  return <VerifyFormPage formId={formId} />;
}
