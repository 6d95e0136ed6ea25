import { Input, type MultiSelectProps } from '@mantine/core';
import { useId } from 'react';
import { MultiSelectStandIn } from './ComboboxStandIn';
import { comboboxes, useStandInReach } from './comboboxes';

/**
 * Mantine also names its always-mounted options list with a field's `label`; here the label is a plain `<label for>`
 * outside the field (as LabelledSelect does), so "the field labelled X" finds one element. Until the select's code has
 * arrived (comboboxes.ts) a stand-in field of the same look and name is shown.
 */
export function LabelledMultiSelect({
  label,
  ...props
}: Omit<MultiSelectProps, 'label' | 'id'> & { label: string }) {
  const id = useId();
  const code = comboboxes.useModule();
  const reach = useStandInReach(id, code !== undefined);
  return (
    <div>
      <Input.Label htmlFor={id}>{label}</Input.Label>
      {code ? (
        <code.MultiSelect id={id} {...props} />
      ) : (
        <MultiSelectStandIn
          id={id}
          data={props.data}
          value={props.value ?? props.defaultValue ?? []}
          size={props.size}
          w={props.w}
          disabled={props.disabled}
          error={props.error}
          placeholder={props.placeholder}
          searchable={props.searchable}
          style={typeof props.style === 'object' && !Array.isArray(props.style) ? props.style : undefined}
          handlers={reach.handlers}
        />
      )}
    </div>
  );
}
