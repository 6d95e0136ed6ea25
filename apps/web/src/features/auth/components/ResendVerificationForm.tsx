import { useResendVerificationEmailMutation } from '../api';
import { EmailRequestForm } from './EmailRequestForm';

/** Asks for a new verification link for any address (the answer never says whether it exists). */
export function ResendVerificationForm(props: { initialEmail: string; onSuccess: (email: string) => void }) {
  const mutation = useResendVerificationEmailMutation();
  return (
    <EmailRequestForm
      mutation={mutation}
      formLabel="Request a new verification link"
      submitLabel="Send a new link"
      {...props}
    />
  );
}
