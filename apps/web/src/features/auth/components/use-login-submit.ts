import { useLoginMutation } from '../api';
import type { LoginValues } from './LoginForm';

/** LoginForm's `submit` inside the app: the login mutation (the session takes the answer), then `onSuccess`. */
export function useLoginSubmit(onSuccess: () => void) {
  const login = useLoginMutation();
  return async (values: LoginValues) => {
    await login.mutateAsync(values);
    onSuccess();
  };
}
