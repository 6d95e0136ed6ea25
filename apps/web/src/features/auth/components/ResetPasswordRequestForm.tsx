import { useRequestPasswordResetMutation } from '../api';
import { EmailRequestForm } from './EmailRequestForm';

/** Asks for a password-reset link; the answer is the same whether or not an account uses the address. */
export function ResetPasswordRequestForm(props: {
  initialEmail: string;
  onSuccess: (email: string) => void;
}) {
  const mutation = useRequestPasswordResetMutation();
  return (
    <EmailRequestForm
      mutation={mutation}
      formLabel="Reset your password"
      submitLabel="Send reset link"
      {...props}
    />
  );
}
