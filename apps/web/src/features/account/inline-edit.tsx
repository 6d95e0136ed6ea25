import { Button } from '@mantine/core';
import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * A field of the account page that is read-only until its "Edit" button (SPEC §2): while not editing it shows the
 * saved value (and follows it when it changes elsewhere); starting to edit focuses it; `stop` (Escape too) leaves the
 * edit and puts the saved value back, with `onStop` clearing whatever else the field holds (a password, a mutation's
 * state). `inputProps` wire a Mantine TextInput to it.
 */
export function useInlineEdit(saved: string, onStop: () => void) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!editing) setValue(saved);
  }, [editing, saved]);

  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  const stop = () => {
    setEditing(false);
    setValue(saved);
    setError(null);
    onStop();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && editing) {
      event.preventDefault();
      stop();
    }
  };

  const inputProps = {
    ref: inputRef,
    value,
    onChange: (event: { currentTarget: HTMLInputElement }) => {
      setValue(event.currentTarget.value);
      setError(null);
    },
    onKeyDown,
    readOnly: !editing,
    variant: editing ? 'default' : 'filled',
    error,
  } as const;

  return { editing, setEditing, value, setError, inputRef, stop, onKeyDown, inputProps };
}

/** The button that starts editing an inline field ("Edit name", "Edit email"). */
export function EditButton(props: { onEdit: () => void; children: ReactNode }) {
  return (
    <Button
      type="button"
      variant="default"
      onClick={(event) => {
        // React reuses this element as the field's submit button in the same click: without this, the browser's
        // default action would then submit the form at once.
        event.preventDefault();
        props.onEdit();
      }}
    >
      {props.children}
    </Button>
  );
}
