import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Language } from '@veriform/contracts';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { LabelledAutocomplete } from '../../../components/form/LabelledFields';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { languageOptions } from '../languages';

export const detailsLabels = { name: 'Name', language: 'Language', category: 'Category' };
/** Only the name can be wrong (the language is chosen from a list, the category is cut to its length). */
export const detailsInlineFields = ['name'];

export type FormDetailsValues = { name: string; language: Language; category: string };

/** The contract's verdict on the details, said beside the name: "Required" for any name that is not one. */
export function detailsErrors(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  if (result.success) return {};
  const issue = result.error.issues[0];
  return { name: issue?.path[0] === 'name' ? 'Required' : (issue?.message ?? 'Invalid') };
}

/** A form's name, language and category, as "New form" and its Details card ask them. */
export function FormDetailsFields({
  form,
  categories,
  autoFocus,
  placeholder,
  row = (fields) => fields,
}: {
  form: UseFormReturnType<FormDetailsValues>;
  categories: string[];
  autoFocus?: boolean;
  placeholder?: string;
  /** Lays out the language and category (side by side on the form's page). */
  row?: (fields: ReactNode) => ReactNode;
}) {
  return (
    <>
      <TextInput
        label={detailsLabels.name}
        required
        maxLength={120}
        data-autofocus={autoFocus || undefined}
        {...form.getInputProps('name')}
      />
      {row(
        <>
          <LabelledSelect
            label={detailsLabels.language}
            data={languageOptions}
            allowDeselect={false}
            {...form.getInputProps('language')}
          />
          <LabelledAutocomplete
            label={detailsLabels.category}
            data={categories}
            maxLength={60}
            placeholder={placeholder}
            {...form.getInputProps('category')}
          />
        </>,
      )}
    </>
  );
}
