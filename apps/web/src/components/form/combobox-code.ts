// The chunk comboboxes.ts fetches: Mantine's selects with their combobox, popover and floating-ui.
export { MultiSelect, Select } from '@mantine/core';
