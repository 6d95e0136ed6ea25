import type { ComboboxData } from '@mantine/core';
import { LabelledMultiSelect } from './LabelledMultiSelect';

/**
 * A list filter on any of several values (forms, categories, delivery statuses): it reads "Any" while nothing is
 * picked, and nothing picked is no filter at all (`undefined`, so the parameter leaves the URL).
 */
export function AnyOfFilter({
  label,
  data,
  value,
  onChange,
  w,
  searchable = true,
}: {
  label: string;
  data: ComboboxData;
  value: string[];
  onChange: (picked: string[] | undefined) => void;
  w: number;
  searchable?: boolean;
}) {
  return (
    <LabelledMultiSelect
      label={label}
      data={data}
      value={value}
      onChange={(picked) => onChange(picked.length ? picked : undefined)}
      placeholder={value.length ? undefined : 'Any'}
      clearable
      searchable={searchable}
      w={w}
    />
  );
}
