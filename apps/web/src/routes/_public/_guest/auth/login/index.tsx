import { createFileRoute, useRouter } from '@tanstack/react-router';
import { z } from 'zod';
import { AuthPage } from '../../../../../components/layout/AuthPage';
import { AnchorLink } from '../../../../../components/links';
import { SsoSignIn } from '../../../../../components/sso/SsoSignIn';
import { ForgotPasswordLink } from '../../../../../features/auth/components/ForgotPasswordLink';
import { LoginForm } from '../../../../../features/auth/components/LoginForm';
import { useLoginSubmit } from '../../../../../features/auth/components/use-login-submit';
import { safeNext } from '../../../../../lib/safe-next';

const loginSearchSchema = z.object({ next: z.string().optional().catch(undefined) });

export const Route = createFileRoute('/_public/_guest/auth/login/')({
  validateSearch: loginSearchSchema,
  component: LoginPage,
});

function LoginPage() {
  const { next } = Route.useSearch();
  const router = useRouter();
  const calls = useLoginSubmit(
    () => void router.navigate({ href: safeNext(next, window.location.origin), replace: true }),
  );
  return (
    <AuthPage
      title="Log in"
      description="Welcome back. Log in to review your verifications."
      footer={
        <>
          New to Veriform? <AnchorLink to="/auth/signup">Create an account</AnchorLink>
        </>
      }
    >
      <LoginForm {...calls} forgotPassword={<ForgotPasswordLink />} />
      <SsoSignIn />
    </AuthPage>
  );
}
