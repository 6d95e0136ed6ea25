import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const resolve = (color: string, variant: string) =>
  merged.variantColorResolver({ color, variant, theme: merged });

describe('the theme’s colours meet WCAG AA (4.5:1) for text on white', () => {
  it('a red filled button is red.9 (hover red.8) under its white label', () => {
    expect(resolve('red', 'filled')).toMatchObject({
      background: 'var(--mantine-color-red-9)',
      hover: 'var(--mantine-color-red-8)',
    });
  });

  it('red text (subtle, light, outline and default buttons) is red.9', () => {
    for (const variant of ['subtle', 'light', 'outline', 'default']) {
      expect(resolve('red', variant).color).toBe('var(--mantine-color-red-9)');
    }
  });

  it('other colours keep Mantine’s own', () => {
    expect(resolve('indigo', 'filled').background).not.toContain('red');
  });
});
