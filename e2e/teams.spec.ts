import { invitationPages } from '@veriform/contracts/page-paths';
import { expect, latestEmailTo, linkIn, newUser, signUpOwner, signUpVerified, test } from './fixtures.ts';

test('a new user creates a company, then a second one, and switches between them', async ({ page, user }) => {
  await signUpVerified(page.request, user);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/signup\/complete\/?$/);
  await page.getByLabel('Company name').fill('First Co');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page).toHaveURL(/\/dashboard\/?$/);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Create company' }).click();
  await expect(page).toHaveURL(/\/auth\/signup\/complete\/?$/);
  await page.getByLabel('Company name').fill('Second Co');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page).toHaveURL(/\/dashboard\/?$/);

  // The newest company is current; the other one is a click away.
  await page.goto('/settings/company-info');
  await expect(page.getByLabel('Company name')).toHaveValue('Second Co');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Current company: Second Co' }).click();
  await page.getByRole('menuitem', { name: 'First Co' }).click();
  await expect(page.getByLabel('Company name')).toHaveValue('First Co');

  // The choice is remembered across reloads.
  await page.reload();
  await expect(page.getByLabel('Company name')).toHaveValue('First Co');
});

test('an owner invites a teammate who joins from the e-mail and sees what the role allows', async ({
  page,
  browser,
  user,
}) => {
  const owner = await signUpOwner(page.request, user);
  const mate = newUser();
  const mateName = `${mate.firstName} ${mate.lastName}`;

  await page.goto('/settings/manage-team');
  await page.getByRole('button', { name: 'Invite teammate' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a teammate' });
  await invite.getByLabel('Email').fill(mate.email);
  await invite.getByLabel('Can search data').check();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Pending invitations' }).getByText(mate.email)).toBeVisible();

  // The teammate opens the e-mailed link in their own browser and signs up from it.
  const mateContext = await browser.newContext();
  const matePage = await mateContext.newPage();
  const mail = await latestEmailTo(page.request, mate.email);
  await matePage.goto(linkIn(mail.text, invitationPages.follow));
  await expect(matePage.getByRole('heading', { name: `Join ${owner.company}` })).toBeVisible();
  await matePage.getByRole('link', { name: 'Sign up to accept' }).click();
  await expect(matePage).toHaveURL(/\/auth\/signup\/from-invitation/);
  await expect(matePage.getByLabel('Email')).toHaveValue(mate.email);
  await matePage.getByLabel('First name').fill(mate.firstName);
  await matePage.getByLabel('Last name').fill(mate.lastName);
  await matePage.getByLabel('Password', { exact: true }).fill(mate.password);
  await matePage.getByLabel('Confirm password').fill(mate.password);
  await matePage.getByRole('button', { name: 'Sign up' }).click();

  // In the app as a member who may search data but not view reports.
  const mateNav = matePage.getByRole('navigation');
  await expect(mateNav.getByRole('link', { name: 'Forms' })).toBeVisible();
  await expect(mateNav.getByRole('link', { name: 'Activity Log' })).toBeVisible();
  await expect(mateNav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  await matePage.goto('/dashboard/');
  await expect(matePage.getByText('Sorry, you do not have access to this page.')).toBeVisible();

  // The owner sees the new member, promotes and demotes them, and grants report rights.
  await page.reload();
  const team = page.getByRole('table', { name: 'Team members' });
  await expect(team.getByText(mate.email)).toBeVisible();
  await page.getByLabel(`Role for ${mateName}`).click();
  await page.getByRole('option', { name: 'Owner' }).click();
  await matePage.goto('/settings/manage-team');
  await expect(matePage.getByRole('button', { name: 'Invite teammate' })).toBeVisible();
  await page.getByLabel(`Role for ${mateName}`).click();
  await page.getByRole('option', { name: 'Member' }).click();
  // An owner made a member: first what it takes from them (they made no keys or endpoints).
  const demotion = page.getByRole('dialog', { name: `Make ${mateName} a member?` });
  await expect(
    demotion.getByText(`${mateName} has no active API keys or enabled webhook endpoints.`),
  ).toBeVisible();
  await demotion.getByRole('button', { name: 'Make member' }).click();
  const reports = page.getByLabel(`Can view reports for ${mateName}`);
  await reports.click();
  await expect(reports).toBeChecked();
  await matePage.reload();
  await expect(matePage.getByRole('button', { name: 'Invite teammate' })).toHaveCount(0);
  await expect(mateNav.getByRole('link', { name: 'Dashboard' })).toBeVisible();

  // Removed, the teammate no longer has a company to be in.
  await page.getByRole('button', { name: `Remove ${mateName}` }).click();
  await page
    .getByRole('dialog', { name: `Remove ${mateName}?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(team.getByText(mate.email)).toHaveCount(0);
  await matePage.goto('/dashboard/');
  const noMembership = matePage.getByRole('alert').filter({ hasText: 'No membership found' });
  await expect(noMembership).toBeVisible();
  await noMembership.getByRole('link', { name: 'Create a company' }).click();
  await expect(matePage).toHaveURL(/\/auth\/signup\/complete\/?$/);
  await mateContext.close();
});

test('the last owner cannot leave the company', async ({ page, user }) => {
  await signUpOwner(page.request, user);
  await page.goto('/settings/manage-team');
  await page.getByRole('button', { name: 'Leave account' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByText('An account must keep at least one owner.')).toBeVisible();
});

test('a revoked invitation leads to the invitation error page', async ({ page, browser, user }) => {
  await signUpOwner(page.request, user);
  const mate = newUser();
  await page.goto('/settings/manage-team');
  await page.getByRole('button', { name: 'Invite teammate' }).click();
  await page.getByRole('dialog', { name: 'Invite a teammate' }).getByLabel('Email').fill(mate.email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent')).toBeVisible();
  const link = linkIn((await latestEmailTo(page.request, mate.email)).text, invitationPages.follow);

  await page.getByRole('button', { name: `Revoke invitation to ${mate.email}` }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /Revoke/ })
    .click();
  await expect(page.getByText('Invitation revoked')).toBeVisible();

  const mateContext = await browser.newContext();
  const matePage = await mateContext.newPage();
  await matePage.goto(link);
  await expect(matePage).toHaveURL(/\/follow-invitation\/error/);
  await expect(matePage.getByText('This invitation was withdrawn.', { exact: false })).toBeVisible();
  await mateContext.close();
});
