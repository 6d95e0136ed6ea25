import {
  Autocomplete,
  type AutocompleteProps,
  Input,
  MultiSelect,
  type MultiSelectProps,
} from '@mantine/core';
import { languageLabels, languages } from '@veriform/contracts';
import { useId } from 'react';

/** The two form languages, labelled for people (SPEC §3). */
export const languageOptions = languages.map((value) => ({ value, label: languageLabels[value] }));

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

export function LabelledMultiSelect({
  label,
  ...props
}: Omit<MultiSelectProps, 'label' | 'id'> & { label: string }) {
  const id = useId();
  return (
    <div>
      <Input.Label htmlFor={id}>{label}</Input.Label>
      <MultiSelect id={id} {...props} />
    </div>
  );
}
