import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, ElementContext, RunOptions } from 'axe-core';

/**
 * axe-core in a journey: the page as it stands (a dialog open, a verdict shown) against WCAG 2.1 A and AA (axe's
 * experimental rules left out), or the page less `exclude` (CSS selectors: a part another journey checks). axe's
 * source is evaluated through the browser's DevTools protocol, which the page's Content-Security-Policy does not
 * govern (an injected script tag would be refused). `expect(await axeViolations(page)).toEqual([])`: a failure lists
 * each rule broken with its elements and axe's summary, so it says what to fix.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const RUN_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
};

/**
 * Transitions still running (a dialog fading in over its overlay) would be measured half-drawn: colour contrast against
 * a blend of the two. Endless animations (a skeleton's pulse) are not waited for. A dialog just shown may not have
 * started its transition yet (Mantine starts it two animation frames after mounting the dialog), so "nothing running"
 * must hold for `SETTLED_FRAMES` frames in a row (the check runs once a frame); once was not enough (a CI run measured
 * a dialog's text at 1.39:1 while it faded in).
 */
const SETTLED_FRAMES = 6;
type Animations = {
  __settledFrames?: number;
  document: {
    getAnimations(): {
      playState: string;
      effect: { getComputedTiming(): { endTime?: number | string } } | null;
    }[];
  };
};
const settled = (frames: number) => {
  const page = globalThis as unknown as Animations;
  const still = page.document
    .getAnimations()
    .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity);
  page.__settledFrames = still ? (page.__settledFrames ?? 0) + 1 : 0;
  return page.__settledFrames >= frames;
};

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: string[] };

/** The page's global object as the evaluated function sees it (the e2e code is type-checked without the DOM's types). */
type AxeWindow = {
  axe?: { run: (context: ElementContext, options: RunOptions) => Promise<AxeResults> };
  document: ElementContext;
};

export async function axeViolations(
  page: Page,
  { exclude = [] }: { exclude?: string[] } = {},
): Promise<AxeViolation[]> {
  await page.evaluate(() => {
    (globalThis as unknown as Animations).__settledFrames = 0;
  });
  await page.waitForFunction(settled, SETTLED_FRAMES, { polling: 'raf' });
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ options, exclude }) => {
      const { axe, document } = globalThis as unknown as AxeWindow;
      if (!axe) throw new Error('axe-core did not load');
      const results = await axe.run(
        exclude.length > 0
          ? { include: [['html']], exclude: exclude.map((selector) => [selector]) }
          : document,
        options,
      );
      return results.violations
        .filter((v) => !v.tags.includes('experimental'))
        .map((v) => ({
          id: v.id,
          impact: v.impact ?? null,
          help: v.help,
          nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
        }));
    },
    { options: RUN_OPTIONS, exclude },
  );
}
