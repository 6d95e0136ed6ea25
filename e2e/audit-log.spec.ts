import { readFile } from 'node:fs/promises';
import { invitationPages } from '@veriform/contracts/page-paths';
import {
  createCompany,
  createLiveForm,
  createVerifications,
  expect,
  latestEmailTo,
  linkIn,
  newUser,
  signUpVerified,
  test,
} from './fixtures.ts';

/**
 * Issue #16's browser journey: an owner changes a member's permission and exports the activity log's CSV, then finds
 * both in Settings → Audit log, with the right actor and the permission's before and after in the detail drawer. The
 * member joins as in teams.spec.ts (invited by e-mail, signing up from the link in a browser of their own).
 */
// A browser far from the server's fallback zone: the log's times must be the viewer's.
test.use({ timezoneId: 'Asia/Kolkata' });

test('an owner changes a member’s permission, exports CSV, and finds both events in the audit log', async ({
  page,
  browser,
  user,
}) => {
  test.setTimeout(120_000);
  await signUpVerified(page.request, user);
  const company = `Audit ${user.lastName}`;
  const { account } = await createCompany(page.request, company);
  const mate = newUser();
  const mateName = `${mate.firstName} ${mate.lastName}`;

  // The owner invites a teammate without the right to search data; the teammate joins from the e-mail.
  await page.goto('/settings/manage-team');
  await page.getByRole('button', { name: 'Invite teammate' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a teammate' });
  await invite.getByLabel('Email').fill(mate.email);
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent')).toBeVisible();
  const mateContext = await browser.newContext();
  const matePage = await mateContext.newPage();
  await matePage.goto(linkIn((await latestEmailTo(page.request, mate.email)).text, invitationPages.follow));
  await matePage.getByRole('link', { name: 'Sign up to accept' }).click();
  await matePage.getByLabel('First name').fill(mate.firstName);
  await matePage.getByLabel('Last name').fill(mate.lastName);
  await matePage.getByLabel('Password', { exact: true }).fill(mate.password);
  await matePage.getByLabel('Confirm password').fill(mate.password);
  await matePage.getByRole('button', { name: 'Sign up' }).click();
  await expect(matePage.getByRole('navigation').getByRole('link', { name: 'Forms' })).toBeVisible();
  await mateContext.close();

  // The owner lets them search data.
  await page.reload();
  await expect(page.getByRole('table', { name: 'Team members' }).getByText(mate.email)).toBeVisible();
  const canSearch = page.getByLabel(`Can search data for ${mateName}`);
  await expect(canSearch).not.toBeChecked();
  await canSearch.click();
  await expect(canSearch).toBeChecked();

  // One verification, and the owner exports the activity log.
  const form = await createLiveForm(page.request, { account: account.id, name: 'Audit trail' });
  await createVerifications(page.request, {
    account: account.id,
    specs: [{ publicId: form.publicId, externalRefId: 'AUD-1' }],
  });
  await page.goto('/activity-log/');
  await expect(page.getByRole('table', { name: 'Verifications' }).getByText('AUD-1')).toBeVisible();
  const csv = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await csv;
  await expect(page.getByText('Export ready')).toBeVisible();

  // Settings → Audit log: newest first, so the export is on top, by the owner, in this browser's zone.
  await page.goto('/settings/manage-team');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/settings\/audit-log$/);
  // Chromium names the zone by its older alias, Asia/Calcutta.
  await expect(page.getByText(/Times are in your time zone, Asia\/(Kolkata|Calcutta)\./)).toBeVisible();
  const events = page.getByRole('table', { name: 'Audit events' });
  const top = events.locator('tbody tr').first();
  await expect(top).toContainText('Exported verifications');
  await expect(top).toContainText(user.email);
  await expect(top).toContainText(company);
  await expect(top.getByRole('cell').nth(4)).toHaveText(/^198\.51\.\d+\.\d+$/);

  await top.getByRole('button', { name: 'Exported verifications' }).click();
  const exported = page.getByRole('dialog', { name: 'Exported verifications' });
  await expect(exported.getByText('verifications.exported')).toBeVisible();
  await expect(exported.getByText('rowCount')).toBeVisible();
  await expect(exported.getByText('GMT+5:30')).toBeVisible();
  await exported.getByRole('button', { name: 'Close details' }).click();
  await expect(exported).toBeHidden();

  // The filter finds the permission change; its drawer names the owner and shows before and after.
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Changed permissions' }).click();
  await expect(page).toHaveURL(/action=membership\.permissions_changed/);
  const rows = events.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(user.email);
  await expect(rows.first()).toContainText(mate.email);
  await rows.first().getByRole('button', { name: 'Changed permissions' }).click();
  const drawer = page.getByRole('dialog', { name: 'Changed permissions' });
  await expect(drawer.getByText('membership.permissions_changed')).toBeVisible();
  await expect(drawer.getByText(user.email)).toBeVisible();
  const change = drawer.getByRole('table', { name: 'Changes' }).getByRole('row', { name: /canSearchData/ });
  await expect(change.getByRole('cell')).toHaveText(['false', 'true']);

  // "Show all by this actor" adds the owner as a chip (by name, with the e-mail), beside the action filter.
  await drawer.getByRole('button', { name: 'Show all by this actor' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/actorType=user/);
  await expect(page.getByRole('list', { name: 'Chosen actor and target' })).toContainText(
    `Actor: ${user.firstName} ${user.lastName} (${user.email})`,
  );
  await expect(rows).toHaveCount(1);

  // The same view as JSON Lines: the one event, with its hash chain fields.
  const jsonl = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export JSON Lines' }).click();
  const file = await jsonl;
  expect(file.suggestedFilename()).toMatch(/\.jsonl$/);
  const lines = (await readFile(await file.path(), 'utf8')).trim().split('\n');
  expect(lines).toHaveLength(1);
  const event = JSON.parse(lines[0] ?? '{}') as { action: string; changes: unknown; hash: string };
  expect(event.action).toBe('membership.permissions_changed');
  expect(event.changes).toMatchObject({ canSearchData: [false, true] });
  expect(event.hash).toMatch(/^[0-9a-f]{64}$/);
});
