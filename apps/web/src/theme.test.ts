import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, theme } from './theme';

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

describe('the light variant’s text meets WCAG AA on its background', () => {
  const light = cssVariablesResolver(merged).light;
  it.each(Object.keys(DEFAULT_THEME.colors))('%s', (name) => {
    const shades = DEFAULT_THEME.colors[name];
    if (!shades) throw new Error(name);
    const text = light[`--mantine-color-${name}-light-color`] ?? shades[9];
    expect(contrastRatio(text, shades[1])).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps Mantine’s shade 9 where it is enough, and darkens only the colours that need it', () => {
    expect(Object.keys(light).filter((key) => key.endsWith('-light-color'))).toEqual([
      '--mantine-color-teal-light-color',
      '--mantine-color-green-light-color',
      '--mantine-color-lime-light-color',
      '--mantine-color-yellow-light-color',
      '--mantine-color-orange-light-color',
    ]);
  });
});
