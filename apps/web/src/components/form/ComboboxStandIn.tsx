import {
  InputBase,
  type MantineSize,
  type MultiSelectProps,
  Pill,
  PillsInput,
  type SelectProps,
} from '@mantine/core';
import type {
  CSSProperties,
  FocusEventHandler,
  KeyboardEventHandler,
  MouseEventHandler,
  ReactNode,
} from 'react';

// Mantine's combobox chevron (Combobox.Chevron: its path, sizes and colour), drawn without the combobox's code.
const chevronSizes: Record<string, string> = {
  xs: '0.875rem',
  sm: '1.125rem',
  md: '1.25rem',
  lg: '1.5rem',
  xl: '1.75rem',
};

function Chevron({ size = 'sm' }: { size?: MantineSize | (string & {}) }) {
  const side = `calc(${chevronSizes[size] ?? chevronSizes.sm} * var(--mantine-scale))`;
  return (
    <svg
      viewBox="0 0 15 15"
      fill="none"
      xmlns="http://www.w3.org/2000/svg"
      aria-hidden="true"
      style={{ width: side, height: side, color: 'var(--mantine-color-gray-6)' }}
    >
      <path
        d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
    </svg>
  );
}

type Option = string | { value: string; label?: string } | { group: ReactNode; items: readonly Option[] };

/** An option's label as the select shows it (options given as strings, objects or groups of either). */
export function optionLabel(data: readonly Option[] | undefined, value: string): string {
  for (const item of data ?? []) {
    if (typeof item === 'string') {
      if (item === value) return item;
    } else if ('group' in item) {
      const found = optionLabel(item.items, value);
      if (found !== value) return found;
    } else if (item.value === value) return item.label ?? item.value;
  }
  return value;
}

/** What the stand-ins listen to (comboboxes.ts's useStandInReach). */
export interface StandInHandlers {
  onPointerEnter: () => void;
  onPointerDown: () => void;
  onFocus: FocusEventHandler;
  onBlur: FocusEventHandler;
  onClick: MouseEventHandler;
  onKeyDown: KeyboardEventHandler;
}

/** What makes a stand-in's field read as the closed combobox it stands in for (it cannot be typed in yet). */
const closedCombobox = {
  role: 'combobox',
  'aria-haspopup': 'listbox',
  'aria-expanded': false,
  autoComplete: 'off',
  readOnly: true,
} as const;

type Shared = {
  id: string;
  size?: MantineSize | (string & {});
  w?: SelectProps['w'];
  disabled?: boolean;
  error?: SelectProps['error'];
  placeholder?: string;
  required?: boolean;
  style?: CSSProperties;
  handlers: StandInHandlers;
};

/**
 * A Select's field as Mantine draws it (the chosen option's label, the chevron, the same size and name), shown until
 * the select's code has arrived. It cannot open yet; a press opens the real one as soon as it is there.
 */
export function SelectStandIn({
  id,
  data,
  value,
  placeholder,
  required,
  handlers,
  ...look
}: Shared & { data: SelectProps['data']; value: string | null | undefined }) {
  return (
    <InputBase
      id={id}
      {...closedCombobox}
      pointer
      value={value == null ? '' : optionLabel(data, value)}
      placeholder={placeholder}
      required={required}
      rightSection={<Chevron size={look.size} />}
      rightSectionPointerEvents="none"
      {...look}
      {...handlers}
    />
  );
}

/** A MultiSelect's field as Mantine draws it (the chosen options as pills), shown until its code has arrived. */
export function MultiSelectStandIn({
  id,
  data,
  value,
  placeholder,
  required,
  searchable,
  handlers,
  ...look
}: Shared & { data: MultiSelectProps['data']; value: readonly string[]; searchable?: boolean }) {
  const { disabled } = look;
  return (
    <PillsInput
      // As MultiSelect does: the field takes its id from the input wrapper's, which would otherwise make up its own
      // and leave the field apart from its `<label for>` (axe's label).
      id={id}
      pointer
      {...look}
      rightSection={<Chevron size={look.size} />}
      rightSectionPointerEvents="none"
      onClick={handlers.onClick}
      onPointerDown={handlers.onPointerDown}
      onPointerEnter={handlers.onPointerEnter}
    >
      <Pill.Group disabled={disabled}>
        {value.map((item) => (
          <Pill key={item} disabled={disabled}>
            {optionLabel(data, item)}
          </Pill>
        ))}
        <PillsInput.Field
          id={id}
          {...closedCombobox}
          placeholder={placeholder}
          // As MultiSelect's: the field is there to type a search or show the placeholder.
          type={!searchable && !placeholder ? 'hidden' : 'visible'}
          required={required}
          onFocus={handlers.onFocus}
          onBlur={handlers.onBlur}
          onKeyDown={handlers.onKeyDown}
        />
      </Pill.Group>
    </PillsInput>
  );
}
