import {
  type CSSVariablesResolver,
  createTheme,
  defaultVariantColorsResolver,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Red (delete, cancel, revoke) at the primary shade 7 is #f03e3e: 3.8:1 against white, below WCAG AA's 4.5:1 for the
 * white label of a filled button and for red text on white. Shade 9 (#c92a2a) is 5.5:1, shade 8 (#e03131, the
 * hover) 4.5:1. Found by axe on open confirmation dialogs, which Lighthouse's page loads never show.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.color !== 'red') return colors;
  if (input.variant === 'filled') {
    return {
      ...colors,
      background: 'var(--mantine-color-red-9)',
      hover: 'var(--mantine-color-red-8)',
    };
  }
  return { ...colors, color: 'var(--mantine-color-red-9)' };
};

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 7 in light mode: Mantine's default 6 (#4c6ef5) is 4.32:1 against white, below WCAG AA's 4.5:1 for text,
  // and it colours links and the white labels of filled buttons; shade 7 (#4263eb) is 4.98:1.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  variantColorResolver,
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif',
  // Plain objects rather than `Modal.extend(…)`: `extend` needs the component itself, which put Modal (with its scroll
  // area, focus trap and floating-ui), Notification and the inputs into the entry of every page, the login page's too.
  components: {
    // Mantine's close buttons are an icon without a name: screen readers would announce only "button".
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      // A toast's message under its title is gray.6 by default (3.3:1 on white); `dimmed` is gray.7 (8.2:1).
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
    // No asterisk in labels: our forms mark the exception (optional fields), and the label text stays exactly the
    // field's name for assistive technology and tests. `required` still sets aria-required on the input.
    TextInput: { defaultProps: { withAsterisk: false } },
    PasswordInput: {
      defaultProps: {
        withAsterisk: false,
        // A label without the word "password", so "the Password field" names exactly one control on the page
        // (Mantine's default is "Toggle password visibility"); aria-pressed tells whether the text is shown.
        visibilityToggleButtonProps: { 'aria-label': 'Show characters' },
      },
    },
  },
});

/**
 * `c="dimmed"` (secondary text, 39 places) is gray.6 by default, 3.3:1 on white: below WCAG AA's 4.5:1 for text.
 * gray.7 is 8.2:1 (the dashboard already used it for the same reason); dark mode keeps Mantine's value.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
