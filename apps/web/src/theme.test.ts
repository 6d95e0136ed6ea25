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

  it('red text (subtle, light, outline and default buttons) is the light variant’s, readable on its hover shade', () => {
    for (const variant of ['subtle', 'light', 'outline', 'default']) {
      expect(resolve('red', variant).color).toBe('var(--mantine-color-red-light-color)');
    }
    const light = cssVariablesResolver(merged).light;
    const red = light['--mantine-color-red-light-color'] ?? '';
    expect(contrastRatio(red, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('other colours keep Mantine’s own', () => {
    expect(resolve('indigo', 'filled').background).not.toContain('red');
  });
});

describe('the light variant’s text meets WCAG AA on its background, and on its hover shade', () => {
  const light = cssVariablesResolver(merged).light;
  it.each(Object.keys(DEFAULT_THEME.colors))('%s', (name) => {
    const shades = DEFAULT_THEME.colors[name];
    if (!shades) throw new Error(name);
    const text = light[`--mantine-color-${name}-light-color`] ?? shades[9];
    expect(contrastRatio(text, shades[1])).toBeGreaterThanOrEqual(4.5);
    // A light or subtle button under the pointer: shade 2 (`--mantine-color-*-light-hover`).
    expect(contrastRatio(text, shades[2])).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps Mantine’s shade 9 where it is enough, and darkens only the colours that need it', () => {
    // Gray, dark, pink and grape read on their hover shade as they are; red, violet, indigo, blue and cyan need it
    // there only (shade 9 on shade 2), the greens, yellow and orange on shade 1 already.
    expect(Object.keys(light).filter((key) => key.endsWith('-light-color'))).toEqual([
      '--mantine-color-red-light-color',
      '--mantine-color-violet-light-color',
      '--mantine-color-indigo-light-color',
      '--mantine-color-blue-light-color',
      '--mantine-color-cyan-light-color',
      '--mantine-color-teal-light-color',
      '--mantine-color-green-light-color',
      '--mantine-color-lime-light-color',
      '--mantine-color-yellow-light-color',
      '--mantine-color-orange-light-color',
    ]);
  });
});
