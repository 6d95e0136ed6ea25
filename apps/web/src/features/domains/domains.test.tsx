import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type AccountDomain, domainTexts } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { DOMAINS_INTRO } from './components/DomainsCard';

const ada = makeUser();
const owner = makeMembership();
const member = makeMembership({ role: 'member', canSearchData: true, canViewReports: true });
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

const TOKEN = 'veriform-domain-verification=AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const LIST = 'GET /api/accounts/21/domains';
const ADD = 'POST /api/accounts/21/domains';

function makeDomain(over: Partial<AccountDomain> = {}): AccountDomain {
  const domain = over.domain ?? 'acme.example';
  return {
    id: 5,
    domain,
    token: TOKEN,
    dnsRecord: { type: 'TXT', name: `_veriform.${domain}`, value: TOKEN },
    fileUrl: `https://${domain}/.well-known/veriform-domain-verification.txt`,
    created: '2026-11-01T00:00:00Z',
    verifiedAt: null,
    verifiedBy: null,
    lastCheckedAt: null,
    lastCheckResult: null,
    ...over,
  };
}

/** A server that keeps its list, so a refetch after a change shows the change. */
function server(initial: AccountDomain[] = []) {
  let domains = [...initial];
  const fake = createFakeServer({ [LIST]: () => [200, { results: domains }] });
  return {
    fake,
    set(next: AccountDomain[]) {
      domains = next;
    },
  };
}

const card = () => screen.findByRole('region', { name: 'Domains' });

describe('Company Info: domains', { timeout: 20_000 }, () => {
  it('owners add a domain: checked first as typed, the server’s refusal beside the field; then the record and file to publish', async () => {
    const user = userEvent.setup();
    const s = server();
    let answer: [number, unknown] = [400, { domain: [domainTexts.duplicate], MainCode_: 'validation_error' }];
    s.fake.on(ADD, () => answer);
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const section = await card();
    expect(within(section).getByText(DOMAINS_INTRO)).toBeInTheDocument();
    expect(await within(section).findByText(/No domains yet/)).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Add domain' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add domain' });
    const input = within(dialog).getByRole('textbox', { name: /^Domain/ });
    await user.type(input, 'https://acme.example');
    await user.click(within(dialog).getByRole('button', { name: 'Add domain' }));
    expect(await within(dialog).findByText(domainTexts.scheme)).toBeInTheDocument();
    expect(s.fake.calls(ADD)).toHaveLength(0);

    await user.clear(input);
    await user.type(input, 'acme.example');
    await user.click(within(dialog).getByRole('button', { name: 'Add domain' }));
    expect(await within(dialog).findByText(domainTexts.duplicate)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');

    const added = makeDomain();
    answer = [201, added];
    s.set([added]);
    await user.click(within(dialog).getByRole('button', { name: 'Add domain' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add domain' })).toBeNull());
    expect(s.fake.calls(ADD).at(-1)?.body).toEqual({ domain: 'acme.example' });
    const item = await within(section).findByRole('article', { name: 'acme.example' });
    expect(within(item).getByText('Not verified')).toBeInTheDocument();
    expect(within(item).getByRole('textbox', { name: 'Name' })).toHaveValue('_veriform.acme.example');
    expect(within(item).getByRole('textbox', { name: 'Value' })).toHaveValue(TOKEN);
    expect(within(item).getByRole('textbox', { name: 'File address' })).toHaveValue(
      'https://acme.example/.well-known/veriform-domain-verification.txt',
    );
    expect(within(item).getByRole('button', { name: 'Copy value' })).toBeInTheDocument();
  });

  it('"Check now" shows what was found inline, then the Verified badge once the proof is there', async () => {
    const user = userEvent.setup();
    const s = server([makeDomain()]);
    const findings = [
      'DNS: no TXT record _veriform.acme.example.',
      'File: https://acme.example/.well-known/veriform-domain-verification.txt answered 404.',
    ];
    let answer: [number, unknown] = [400, { nonFieldErrors: findings, MainCode_: 'validation_error' }];
    s.fake.on('POST /api/accounts/21/domains/5/check', () => answer);
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const item = await within(await card()).findByRole('article', { name: 'acme.example' });

    await user.click(within(item).getByRole('button', { name: 'Check now: acme.example' }));
    const alert = await within(item).findByRole('alert');
    expect(alert).toHaveTextContent('Not verified yet');
    for (const finding of findings) expect(within(alert).getByText(finding)).toBeInTheDocument();

    const verified = makeDomain({
      verifiedAt: '2026-11-29T10:00:00Z',
      verifiedBy: 'file',
      lastCheckedAt: '2026-11-29T10:00:00Z',
      lastCheckResult: 'Verified by the file.',
    });
    answer = [200, verified];
    s.set([verified]);
    await user.click(within(item).getByRole('button', { name: 'Check now: acme.example' }));
    expect(await within(item).findByText('Verified')).toBeInTheDocument();
    expect(within(item).getByText(/by the file\./)).toBeInTheDocument();
    expect(within(item).queryByRole('button', { name: /Check/ })).toBeNull();
    expect(within(item).queryByRole('alert')).toBeNull();
    expect(await screen.findByText('Domain verified')).toBeInTheDocument();
  });

  it('too many checks: the wait is said inline', async () => {
    const user = userEvent.setup();
    const s = server([makeDomain()]);
    s.fake.on('POST /api/accounts/21/domains/5/check', () => [
      429,
      { detail: 'This domain was checked too often. Try again in 12 minutes.', MainCode_: 'rate_limited' },
    ]);
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const item = await within(await card()).findByRole('article', { name: 'acme.example' });
    await user.click(within(item).getByRole('button', { name: 'Check now: acme.example' }));
    expect(await within(item).findByRole('alert')).toHaveTextContent(
      'This domain was checked too often. Try again in 12 minutes.',
    );
  });

  it('owners remove a domain after confirming', async () => {
    const user = userEvent.setup();
    const s = server([makeDomain({ verifiedAt: '2026-11-29T10:00:00Z', verifiedBy: 'dns' })]);
    s.fake.on('DELETE /api/accounts/21/domains/5', () => {
      s.set([]);
      return [204];
    });
    renderApp('/settings/company-info', { initialData: signedIn(), server: s.fake });
    const item = await within(await card()).findByRole('article', { name: 'acme.example' });
    expect(within(item).getByText(/by the DNS TXT record\./)).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Remove acme.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove acme.example?' });
    expect(s.fake.calls('DELETE /api/accounts/21/domains/5')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(await card()).findByText(/No domains yet/)).toBeInTheDocument();
    expect(s.fake.calls('DELETE /api/accounts/21/domains/5')).toHaveLength(1);
  });

  it('members see the domains and whether they are verified, and nothing to change', async () => {
    const s = server([makeDomain({ verifiedAt: '2026-11-29T10:00:00Z', verifiedBy: 'dns' })]);
    renderApp('/settings/company-info', { initialData: signedIn(member), server: s.fake });
    const section = await card();
    const item = await within(section).findByRole('article', { name: 'acme.example' });
    expect(within(item).getByText('Verified')).toBeInTheDocument();
    expect(within(section).queryByRole('button')).toBeNull();
    expect(within(section).getByText('Only owners can add, check or remove domains.')).toBeInTheDocument();
  });
});
