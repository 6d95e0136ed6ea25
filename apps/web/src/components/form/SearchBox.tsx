import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A list's search box bound to a URL search param: typing sends the trimmed text 300 ms after the last key; a URL
 * change (Clear filters, Back) shows here.
 */
export function SearchBox({
  label,
  placeholder,
  q,
  onChange,
  flexBasis,
}: {
  label: string;
  placeholder?: string;
  q: string;
  onChange: (q: string) => void;
  /** The box's preferred width in px before it grows into the row's free room. */
  flexBasis: number;
}) {
  const [value, setValue] = useState(q);
  const [debounced] = useDebouncedValue(value, SEARCH_DEBOUNCE_MS);
  const lastSent = useRef(q);
  useEffect(() => {
    if (q !== lastSent.current) {
      lastSent.current = q;
      setValue(q);
    }
  }, [q]);
  useEffect(() => {
    const trimmed = debounced.trim();
    if (trimmed === lastSent.current) return;
    lastSent.current = trimmed;
    onChange(trimmed);
  }, [debounced, onChange]);
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      type="search"
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      value={value}
      onChange={(event) => setValue(event.currentTarget.value)}
      maxLength={200}
      style={{ flex: `1 1 ${flexBasis}px` }}
    />
  );
}
