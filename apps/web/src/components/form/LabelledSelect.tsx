import { Input, type SelectProps, VisuallyHidden } from '@mantine/core';
import { useId } from 'react';
import { SelectStandIn } from './ComboboxStandIn';
import { comboboxes, useStandInReach } from './comboboxes';

interface LabelledSelectProps extends Omit<SelectProps, 'label' | 'id'> {
  label: string;
  /** The label is for assistive technology only (a select in a table row). */
  hideLabel?: boolean;
  id?: string;
}

/**
 * A Mantine Select whose label names the input only. Mantine also names its (always mounted) options list with the
 * Select's `label` or `aria-label`, so "the control labelled X" would find two elements; here the label is a plain
 * `<label for>` outside the Select, and the list takes its meaning from the combobox that opens it. Until the select's
 * code has arrived (comboboxes.ts) a stand-in field of the same look and name is shown.
 *
 * Picking the chosen option again keeps it (`allowDeselect` false unless asked): every select here always has a value,
 * its "All" option included, so a click must never leave it empty.
 */
export function LabelledSelect({
  label,
  hideLabel = false,
  id,
  required,
  allowDeselect = false,
  ...props
}: LabelledSelectProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const code = comboboxes.useModule();
  const reach = useStandInReach(inputId, code !== undefined);
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
      {code ? (
        <code.Select id={inputId} required={required} allowDeselect={allowDeselect} {...props} />
      ) : (
        <SelectStandIn
          id={inputId}
          data={props.data}
          value={props.value ?? props.defaultValue}
          size={props.size}
          w={props.w}
          disabled={props.disabled}
          error={props.error}
          placeholder={props.placeholder}
          required={required}
          style={typeof props.style === 'object' && !Array.isArray(props.style) ? props.style : undefined}
          handlers={reach.handlers}
        />
      )}
    </div>
  );
}
