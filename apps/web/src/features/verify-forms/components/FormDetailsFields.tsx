import { TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Language } from '@veriform/contracts';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import { LabelledAutocomplete } from '../../../components/form/LabelledFields';
import { LabelledSelect } from '../../../components/form/LabelledSelect';
import { languageOptions } from '../languages';

const labels = { name: 'Name', language: 'Language', category: 'Category' };

export type FormDetailsValues = { name: string; language: Language; category: string };

/** The contract's verdict on the details, said beside the name: "Required" for any name that is not one. */
function errors(result: z.ZodSafeParseResult<unknown>): Record<string, string> {
  if (result.success) return {};
  const issue = result.error.issues[0];
  return { name: issue?.path[0] === 'name' ? 'Required' : (issue?.message ?? 'Invalid') };
}

/** The labels of the details, the fields whose errors show inline (only the name can be wrong: the language is
 * chosen from a list, the category cut to its length), and the contract's verdict as the form's errors. */
export const formDetails = { labels, inlineFields: ['name'], errors };

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
        label={labels.name}
        required
        maxLength={120}
        data-autofocus={autoFocus || undefined}
        {...form.getInputProps('name')}
      />
      {row(
        <>
          <LabelledSelect
            label={labels.language}
            data={languageOptions}
            {...form.getInputProps('language')}
          />
          <LabelledAutocomplete
            label={labels.category}
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
