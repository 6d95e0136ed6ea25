import { Button, Group, TextInput } from '@mantine/core';
import { updateUserRequestSchema } from '@veriform/contracts';
import { type FocusEvent, type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useUpdateUserMutation } from '../../users/api';

const LABEL = 'Name';

/**
 * SPEC §2: the name is read-only until "Edit name"; submitting (Enter or "Save name") saves it; leaving the field
 * without submitting (blur, Escape) puts the saved name back. Focus moving to "Save name" is not leaving, and a
 * pressed "Save name" never takes the focus, so a click saves rather than reverts.
 */
export function NameField() {
  const { user } = useSession();
  const update = useUpdateUserMutation();
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(user.name);
  const [error, setError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!editing) setValue(user.name);
  }, [editing, user.name]);

  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  const revert = () => {
    setEditing(false);
    setValue(user.name);
    setError(null);
    update.reset();
  };

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

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && editing) {
      event.preventDefault();
      revert();
    }
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
    <Button
      type="button"
      variant="default"
      onClick={(event) => {
        // React reuses this element as "Save name" (type submit) in the same click: without this, the browser's
        // default action would then submit the form at once.
        event.preventDefault();
        setEditing(true);
      }}
    >
      Edit name
    </Button>
  );

  return (
    <form ref={formRef} onSubmit={submit} onBlur={onBlur} noValidate>
      <TextInput
        ref={inputRef}
        label={LABEL}
        value={value}
        onChange={(event) => {
          setValue(event.currentTarget.value);
          setError(null);
        }}
        onKeyDown={onKeyDown}
        readOnly={!editing}
        variant={editing ? 'default' : 'filled'}
        autoComplete="name"
        required
        error={error}
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
