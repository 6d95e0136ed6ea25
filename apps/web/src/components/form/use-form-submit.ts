import type { UseFormReturnType } from '@mantine/form';
import { useRef } from 'react';
import { focusFirstInvalid, showServerFieldErrors } from './server-errors';

/**
 * The one way a form submits (with @mantine/form and the contract's zod schema as its validation): nothing while a
 * save runs; invalid values put focus on the first invalid input; a 400's field errors go beside their inputs and
 * focus moves to the first (the rest stay in the mutation's error, for the FormErrorAlert), unless `onError` says
 * otherwise. Give `formRef` to the `<form>`.
 */
export function useFormSubmit<Values extends Record<string, unknown>>(
  form: UseFormReturnType<Values>,
  {
    isPending,
    inlineFields,
    onError,
  }: {
    isPending: boolean;
    inlineFields: readonly string[];
    onError?: (error: unknown) => void;
  },
) {
  const formRef = useRef<HTMLFormElement>(null);
  const onSubmit = (save: (values: Values) => Promise<unknown>) =>
    form.onSubmit(
      async (values) => {
        if (isPending) return;
        try {
          await save(values);
        } catch (error) {
          if (onError) onError(error);
          else showServerFieldErrors(form, error, inlineFields, formRef.current);
        }
      },
      () => focusFirstInvalid(formRef.current),
    );
  return { formRef, onSubmit };
}
