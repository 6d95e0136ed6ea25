import { Button, Group, TextInput } from '@mantine/core';
import { updateUserRequestSchema } from '@veriform/contracts';
import { type FocusEvent, type FormEvent, useRef } from 'react';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useUpdateUserMutation } from '../../users/api';
import { EditButton, useInlineEdit } from '../inline-edit';

const LABEL = 'Name';

/**
 * SPEC §2: the name is read-only until "Edit name"; submitting (Enter or "Save name") saves it; leaving the field
 * without submitting (blur, Escape) puts the saved name back. Focus moving to "Save name" is not leaving, and a
 * pressed "Save name" never takes the focus, so a click saves rather than reverts.
 */
export function NameField() {
  const { user } = useSession();
  const update = useUpdateUserMutation();
  const field = useInlineEdit(user.name, () => update.reset());
  const { editing, setEditing, value, setError, inputRef, stop: revert } = field;
  const formRef = useRef<HTMLFormElement>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!editing || update.isPending) return;
    const parsed = updateUserRequestSchema.safeParse({ name: value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Required');
      inputRef.current?.focus();
      return;
    }
    if (parsed.data.name === user.name) {
      revert();
      return;
    }
    try {
      await update.mutateAsync(parsed.data);
      setEditing(false);
      setError(null);
      notify.success('Name updated');
    } catch (failure) {
      setError(
        failure instanceof ApiValidationError && failure.fieldErrors.name
          ? failure.fieldErrors.name
          : errorDisplayText(failure, { name: LABEL }),
      );
      inputRef.current?.focus();
    }
  };

  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    if (!editing || update.isPending) return;
    const next = event.relatedTarget;
    if (next instanceof Node && formRef.current?.contains(next)) return;
    revert();
  };

  const button = editing ? (
    <Button
      type="submit"
      loading={update.isPending}
      // Keep the focus in the input so that pressing the button submits instead of first reverting on blur.
      onMouseDown={(event) => event.preventDefault()}
    >
      Save name
    </Button>
  ) : (
    <EditButton onEdit={() => setEditing(true)}>Edit name</EditButton>
  );

  return (
    <form ref={formRef} onSubmit={submit} onBlur={onBlur} noValidate>
      <TextInput
        {...field.inputProps}
        label={LABEL}
        autoComplete="name"
        required
        inputContainer={(input) => (
          <Group gap="sm" wrap="nowrap" align="flex-start">
            <div style={{ flex: 1, minWidth: 0 }}>{input}</div>
            {button}
          </Group>
        )}
      />
    </form>
  );
}
