import { Alert, List, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { ApiValidationError } from '../../lib/api-client';
import { errorDisplayText, type FieldLabels, otherErrorsHeading } from '../../lib/error-text';

interface FormErrorAlertProps {
  error: unknown;
  labels: FieldLabels;
  /** Fields whose errors the form already shows beside the input. */
  inlineFields: readonly string[];
}

/**
 * The form error block (SPEC §8): field errors the form cannot show inline, as "Label: message", and non-field errors
 * under "Other Error" / "Other Errors". Any other failure (server error, rate limit, network) shows its text.
 */
export function FormErrorAlert({ error, labels, inlineFields }: FormErrorAlertProps) {
  if (!error) return null;
  const icon = <IconAlertCircle aria-hidden="true" />;

  if (!(error instanceof ApiValidationError)) {
    return (
      <Alert color="red" icon={icon} role="alert">
        {errorDisplayText(error, labels)}
      </Alert>
    );
  }

  const fieldEntries = Object.entries(error.fieldErrors).filter(([field]) => !inlineFields.includes(field));
  const others = error.nonFieldErrors;
  if (fieldEntries.length === 0 && others.length === 0) return null;

  return (
    <Alert color="red" icon={icon} role="alert">
      <Stack gap={4}>
        {fieldEntries.map(([field, message]) => (
          <Text key={field} size="sm">
            <Text span fw={600} inherit>
              {labels[field] ?? field}:
            </Text>{' '}
            {message}
          </Text>
        ))}
        {others.length === 1 && (
          <Text size="sm">
            <Text span fw={600} inherit>
              {otherErrorsHeading(1)}:
            </Text>{' '}
            {others[0]}
          </Text>
        )}
        {others.length > 1 && (
          <>
            <Text size="sm" fw={600}>
              {otherErrorsHeading(others.length)}:
            </Text>
            <List size="sm">
              {others.map((message) => (
                <List.Item key={message}>{message}</List.Item>
              ))}
            </List>
          </>
        )}
      </Stack>
    </Alert>
  );
}
