import { expect, type Page } from '@playwright/test';

/**
 * Nothing on the page is wider than its window: the document does not scroll sideways. Polled, because a width can
 * still be settling when the page is read: after a resize the app shell's navbar slides away for 200 ms and the
 * dashboard's chart takes its new width from a ResizeObserver (each seen measured mid-way under load in CI: 392 and
 * 436 px at 390). A page that stays wider still fails, after the poll's timeout, with the width it kept.
 */
export async function expectNoSidewaysScroll(page: Page) {
  const width = page.viewportSize()?.width;
  if (width === undefined) throw new Error('the page has no viewport size to compare against');
  await expect
    .poll(() => page.evaluate<number>('document.documentElement.scrollWidth'), {
      message: `the page is no wider than its ${width} px window`,
    })
    .toBeLessThanOrEqual(width);
}
