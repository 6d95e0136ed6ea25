import { Group, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiValidationError } from '../../lib/api-client';
import { errorDisplayText } from '../../lib/error-text';
import { notify } from '../../lib/notify';
import { LabelledSelect } from './LabelledSelect';

export type SavedSelectProps = {
  /** The words before the select, read as a sentence around it ("Keep events for [3 years]"); its hidden label too. */
  label: string;
  /** The choices: a number each (years, months…) with its words. */
  data: { value: string; label: string }[];
  /** The value as last read from the server; a fresher read (another owner changed it) shows at once. */
  saved: number;
  /** The body field the server names in a refusal of it. */
  field: string;
  /** Saves a chosen value; resolves with the toast that says it was saved. */
  save: (value: number) => Promise<{ title: string; message: string }>;
  /** A save is under way: a second choice waits for it. */
  pending: boolean;
  /** The input's width: it keeps it, and a refusal is written below it at full length. */
  width: number;
  maxDropdownHeight?: number;
  /**
   * Asked before a choice is saved (a warning to confirm, e.g. a retention below the TCPA's four years): false goes back
   * to the saved value without a word. None: every choice is saved.
   */
  confirm?: (value: number) => Promise<boolean>;
};

/**
 * One setting chosen from a short list and saved as soon as it changes (a Save button would be one more step for one
 * value): the audit log's retention, the consent age. The choice shows at once and goes back to the saved value when
 * the server refuses it, with the server's words below the select.
 */
export function SavedSelect({
  label,
  data,
  saved,
  field,
  save,
  pending,
  width,
  maxDropdownHeight,
  confirm,
}: SavedSelectProps) {
  const [value, setValue] = useState(saved);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setValue(saved), [saved]);

  const choose = async (chosen: string | null) => {
    const next = Number(chosen);
    if (!chosen || next === value || pending) return;
    setValue(next);
    setError(null);
    if (confirm && !(await confirm(next))) {
      setValue(saved);
      return;
    }
    try {
      const done = await save(next);
      notify.success(done.title, done.message);
    } catch (failure) {
      setValue(saved);
      const fieldError = failure instanceof ApiValidationError ? failure.fieldErrors[field] : undefined;
      setError(fieldError ?? errorDisplayText(failure, { [field]: label }));
    }
  };

  return (
    <Group gap="xs" align="flex-start">
      {/* The words read as a sentence around the select; the select's own (hidden) label says the same. */}
      <Text size="sm" component="span" aria-hidden="true" mt={7}>
        {label}
      </Text>
      <LabelledSelect
        label={label}
        hideLabel
        data={data}
        value={String(value)}
        onChange={(chosen) => void choose(chosen)}
        error={error}
        {...(maxDropdownHeight === undefined ? {} : { maxDropdownHeight })}
        styles={{ wrapper: { width } }}
      />
    </Group>
  );
}
