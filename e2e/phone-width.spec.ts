import type { Locator, Page } from '@playwright/test';
import {
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  signUpVerified,
  test,
} from './fixtures.ts';

/**
 * Issue 13 items 15 and 16: at phone width the activity log and the team are lists of cards (nothing cut off, nothing
 * to scroll sideways), the settings tabs all in sight; the search placeholder is read in full; the activity log's
 * filters and Export stay in place while the rows load.
 */

const PHONE = { width: 375, height: 800 };

/** Nothing inside `locator` reaches past the right edge of the window. */
async function expectWithinWindow(page: Page, locator: Locator) {
  const { width } = page.viewportSize() ?? PHONE;
  const overflow = await locator.evaluate((root, windowWidth) => {
    // Visually hidden text (inside a 1 px box, for screen readers only) is not on screen, nor is what a sideways
    // scrolling box (the settings tabs) holds past its own edge while that box stays inside the window.
    const hidden = (element: typeof root) => {
      for (let at: typeof root | null = element; at; at = at.parentElement) {
        const box = at.getBoundingClientRect();
        if (box.width <= 1 && box.height <= 1) return true;
        const scrolls =
          at !== element && at.ownerDocument.defaultView?.getComputedStyle(at).overflowX === 'auto';
        if (scrolls && box.right <= windowWidth + 0.5) return true;
      }
      return false;
    };
    const late = [root, ...Array.from(root.querySelectorAll('*'))].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.right > windowWidth + 0.5 && !hidden(element);
    });
    return late.map((element) => `${element.tagName} ${element.textContent?.slice(0, 40)}`);
  }, width);
  expect(overflow).toEqual([]);
}

/** The placeholder's text is no wider than the room the input leaves for it. */
async function expectPlaceholderFits(input: Locator) {
  // The e2e project has no DOM types: the page's objects are reached through the element.
  const room = await input.evaluate((field) => {
    const placeholder = field.getAttribute('placeholder') ?? '';
    const style = field.ownerDocument.defaultView?.getComputedStyle(field);
    const context = field.ownerDocument.createElement('canvas').getContext('2d');
    if (!style || !context) throw new Error('no computed style or canvas');
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = context.measureText(placeholder).width;
    const inner =
      field.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return { text, inner, placeholder };
  });
  expect(room.placeholder.length).toBeGreaterThan(0);
  expect(room.text, `"${room.placeholder}" in ${room.inner}px`).toBeLessThanOrEqual(room.inner);
}

test('the activity log at phone width: a card per verification, sortable, each opening its page', async ({
  page,
  user,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Phone ${user.lastName}`);
  const form = await createLiveForm(page.request, {
    account: account.id,
    name: 'Consumer loan application',
    category: 'Lending',
  });
  const made = await createVerifications(page.request, {
    account: account.id,
    specs: [
      { publicId: form.publicId, externalRefId: 'CRM-000123' },
      { publicId: form.publicId, externalRefId: 'CRM-000124', method: 'email' },
    ],
  });

  await page.goto('/activity-log/');
  const list = page.getByRole('list', { name: 'Verifications' });
  await expect(list).toBeVisible();
  await expect(page.getByRole('table', { name: 'Verifications' })).toHaveCount(0);
  const cards = list.getByRole('listitem');
  await expect(cards).toHaveCount(2);
  // Newest first; every field of the row is on the card, inside the window.
  await expect(cards.first()).toContainText('CRM-000124');
  await expect(cards.first()).toContainText('Consumer loan application');
  await expect(cards.first()).toContainText('Lending');
  await expect(cards.first()).toContainText('E-mail');
  // Live data (issue #33): no Test badge.
  await expect(cards.first()).not.toContainText('Test');
  await expectWithinWindow(page, page.locator('main'));
  await expectPlaceholderFits(page.getByRole('searchbox', { name: 'Search' }));

  // Sorting has its own control where there are no column headers.
  await page.getByRole('combobox', { name: 'Sort by' }).click();
  await page.getByRole('option', { name: 'Oldest first' }).click();
  await expect(page).toHaveURL(/o=created/);
  await expect(cards.first()).toContainText('CRM-000123');

  await cards
    .first()
    .getByRole('link', { name: /\+1 \(415\)/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/activity-log/${made[0]?.verificationId}`));
  await expect(page.getByRole('heading', { name: 'Verification', level: 1 })).toBeVisible();
});

test('the team and the settings tabs at phone width', async ({ page, user }) => {
  await page.setViewportSize(PHONE);
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Team ${user.lastName}`);
  const csrf = ((await (await page.request.post('/api/auth/csrf')).json()) as { csrfToken: string })
    .csrfToken;
  const invitee = `invitee-with-a-rather-long-address-${user.lastName.replace(/\W/g, '').toLowerCase()}@example.test`;
  const invited = await page.request.post('/api/invitations', {
    headers: { 'X-CSRFToken': csrf },
    data: { accountId: account.id, email: invitee, role: 'member' },
  });
  expect(invited.status(), await invited.text()).toBe(201);

  await page.goto('/settings/manage-team');
  const tabs = page.getByRole('tab');
  // An owner's nine (API keys, webhooks, the audit log, privacy requests, legal holds and single sign-on too): wider than a phone, so
  // they wrap onto more rows, every one in sight (issue #33 item 14: a sideways scroll hid the last ones).
  await expect(tabs).toHaveCount(9);
  await expectWithinWindow(page, page.getByRole('tablist'));
  for (const tab of await tabs.all()) await expect(tab).toBeInViewport({ ratio: 1 });

  const team = page.getByRole('list', { name: 'Team members' });
  await expect(team).toBeVisible();
  const me = team.getByRole('listitem').filter({ hasText: user.email });
  await expect(me).toContainText(`${user.firstName} ${user.lastName}`);
  await expect(me).toContainText('You');
  await expect(me.getByLabel(/^Role for/)).toHaveValue('Owner');
  await expect(me.getByRole('switch', { name: /^Can search data/ })).toBeVisible();
  const invitations = page.getByRole('list', { name: 'Pending invitations' });
  await expect(invitations.getByRole('listitem')).toContainText(invitee);
  await expect(invitations.getByRole('button', { name: `Revoke invitation to ${invitee}` })).toBeVisible();
  await expectWithinWindow(page, page.locator('main'));
});

test('the search placeholder is read in full on a wide screen', async ({ page, user }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Wide ${user.lastName}`);
  const form = await createLiveForm(page.request, { account: account.id, name: 'Loans' });
  await createVerifications(page.request, { account: account.id, specs: [{ publicId: form.publicId }] });
  await page.goto('/activity-log/');
  await expect(page.getByRole('table', { name: 'Verifications' })).toBeVisible();
  await expectPlaceholderFits(page.getByRole('searchbox', { name: 'Search' }));
  await page.goto('/dashboard/');
  await expectPlaceholderFits(page.getByRole('searchbox', { name: 'Search' }));
});

test('the activity log keeps its filters and Export in place while the rows load', async ({ page, user }) => {
  await signUpVerified(page.request, user);
  const { account } = await createCompany(page.request, `Slow ${user.lastName}`);
  const form = await createLiveForm(page.request, { account: account.id, name: 'Loans' });
  await createVerifications(page.request, { account: account.id, specs: [{ publicId: form.publicId }] });

  // The list answers only when the test says so: what shows meanwhile is the loading state.
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    (url) => url.pathname === '/api/verifications',
    async (route) => {
      await released;
      await route.continue();
    },
  );
  await page.goto('/forms/');
  await page.getByRole('link', { name: 'Activity Log' }).click();
  const search = page.getByRole('searchbox', { name: 'Search' });
  const exportButton = page.getByRole('button', { name: 'Export CSV' });
  await expect(page.getByRole('heading', { name: 'Activity Log', level: 1 })).toBeVisible();
  await expect(search).toBeVisible();
  await expect(exportButton).toBeVisible();
  await expect(exportButton).toBeDisabled();
  const before = await search.boundingBox();

  release();
  await expect(page.getByRole('table', { name: 'Verifications' })).toBeVisible();
  await expect(exportButton).toBeEnabled();
  expect(await search.boundingBox()).toEqual(before);
});
