import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * A cell phone number as an account member types it (unlocking a certificate, adding a test number): the server reads
 * a US number without its country code, and nothing of the browser's own numbers is offered.
 */
export function CellPhoneInput(props: TextInputProps) {
  return (
    <TextInput
      description="US numbers need no country code"
      type="tel"
      inputMode="tel"
      autoComplete="off"
      required
      maxLength={40}
      {...props}
    />
  );
}
