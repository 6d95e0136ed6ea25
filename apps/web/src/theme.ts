import { createTheme, PasswordInput, TextInput } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
  components: {
    // No asterisk in labels: our forms mark the exception (optional fields), and the label text stays exactly the
    // field's name for assistive technology and tests. `required` still sets aria-required on the input.
    TextInput: TextInput.extend({ defaultProps: { withAsterisk: false } }),
    PasswordInput: PasswordInput.extend({
      defaultProps: {
        withAsterisk: false,
        // A label without the word "password", so "the Password field" names exactly one control on the page
        // (Mantine's default is "Toggle password visibility"); aria-pressed tells whether the text is shown.
        visibilityToggleButtonProps: { 'aria-label': 'Show characters' },
      },
    }),
  },
});
