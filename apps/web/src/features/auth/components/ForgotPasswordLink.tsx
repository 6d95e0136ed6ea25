import { AnchorLink } from '../../../components/links';

/** The login form's "Forgot password?" inside the app (a router link). */
export function ForgotPasswordLink() {
  return (
    <AnchorLink to="/auth/reset-password/" size="sm">
      Forgot password?
    </AnchorLink>
  );
}
