import { Input, Select, type SelectProps, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';

interface LabelledSelectProps extends Omit<SelectProps, 'label' | 'id'> {
  label: string;
  /** The label is for assistive technology only (a select in a table row). */
  hideLabel?: boolean;
  id?: string;
}

/**
 * A Mantine Select whose label names the input only. Mantine also names its (always mounted) options list with the
 * Select's `label` or `aria-label`, so "the control labelled X" would find two elements; here the label is a plain
 * `<label for>` outside the Select, and the list takes its meaning from the combobox that opens it.
 */
export function LabelledSelect({ label, hideLabel = false, id, required, ...props }: LabelledSelectProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  return (
    <div>
      {hideLabel ? (
        <VisuallyHidden>
          <label htmlFor={inputId}>{label}</label>
        </VisuallyHidden>
      ) : (
        <Input.Label htmlFor={inputId} required={required}>
          {label}
        </Input.Label>
      )}
      <Select id={inputId} required={required} {...props} />
    </div>
  );
}
