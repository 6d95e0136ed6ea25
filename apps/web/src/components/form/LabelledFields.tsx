import { Autocomplete, type AutocompleteProps, Input } from '@mantine/core';
import { useId } from 'react';

/**
 * Mantine also names its always-mounted options list with a field's `label`; here the label is a plain `<label for>`
 * outside the field (as LabelledSelect does), so "the field labelled X" finds one element.
 */
export function LabelledAutocomplete({
  label,
  ...props
}: Omit<AutocompleteProps, 'label' | 'id'> & { label: string }) {
  const id = useId();
  return (
    <div>
      <Input.Label htmlFor={id}>{label}</Input.Label>
      <Autocomplete id={id} {...props} />
    </div>
  );
}
