import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  luminance,
  type MantineTheme,
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
  // Outline, subtle and light: the light variant's text colour (red's darkened below to read on its hover shade too).
  return { ...colors, color: 'var(--mantine-color-red-light-color)' };
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
    // A menu opens with the focus on its first item (ARIA's menu pattern), not on Mantine's focus placeholder: a
    // focusable element of role presentation, which a menu may not hold (axe's aria-required-children).
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // A hovered row of a table (the activity log's, the forms') is gray.0, not Mantine's gray.1: the row's links
    // (indigo.7) are 4.73:1 on gray.0, 4.48:1 on gray.1 (below WCAG AA). Dark mode keeps Mantine's (see
    // cssVariablesResolver).
    Table: { defaultProps: { highlightOnHoverColor: 'var(--veriform-table-hover-color)' } },
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

/** WCAG's contrast ratio of two colours. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
}

/**
 * The light variant (a badge, a light button or action icon, an alert's title) writes shade 9 on shade 1, and a light
 * or subtle button under the pointer on shade 2 (`--mantine-color-*-light-hover`). For green (3.8:1 on shade 1), teal
 * (4.3:1), orange, lime and yellow, and red on its hover shade (#c92a2a on #ffc9c9, 3.75:1: axe on the form page's
 * Delete form button, hovered as its dialog opened), that is below WCAG AA's 4.5:1 for text. Such a colour's text is
 * its shade 9 darkened until it reaches 4.5:1 on shade 2 (so on shade 1 too): the same hue, only its words darker.
 * The other colours keep Mantine's shade 9.
 */
function lightVariantTextColors(theme: MantineTheme): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(theme.colors)) {
    const [text, background] = [shades[9], shades[2]];
    let darkened = text;
    for (let amount = 0.05; contrastRatio(darkened, background) < 4.5 && amount < 1; amount += 0.05) {
      darkened = darken(text, amount);
    }
    if (darkened !== text) variables[`--mantine-color-${name}-light-color`] = darkened;
  }
  return variables;
}

/**
 * `c="dimmed"` (secondary text, 39 places) is gray.6 by default, 3.3:1 on white: below WCAG AA's 4.5:1 for text.
 * gray.7 is 8.2:1 (the dashboard already used it for the same reason); dark mode keeps Mantine's value.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--veriform-table-hover-color': 'var(--mantine-color-gray-0)',
    ...lightVariantTextColors(theme),
  },
  dark: { '--veriform-table-hover-color': 'var(--mantine-color-dark-5)' },
});
