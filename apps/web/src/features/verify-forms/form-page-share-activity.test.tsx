import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Verification, VerifyForm, VerifyFormStats } from '@veriform/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatPhoneForReading } from '../../lib/format';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { qrFileName } from './components/ShareCard';

const ada = makeUser();
const owner = makeMembership();
const signedIn = (membership = owner) =>
  makeInitialData({ user: ada, memberships: [membership], currentMembership: membership });

const form: VerifyForm = {
  id: 7,
  publicId: 'pub-7',
  name: 'Onboarding check',
  account: 21,
  isLive: false,
  language: 'en',
  category: 'Onboarding',
  created: '2026-01-05T10:00:00Z',
  bannerImage: null,
  publicUrl: '/f/pub-7',
};

function makeVerification(over: Partial<Verification> = {}): Verification {
  return {
    id: 101,
    cellPhone: '+12015550123',
    externalRefId: 'CRM-123',
    verifyFormId: 7,
    verifyFormName: 'Onboarding check',
    verifyFormCategory: 'Onboarding',
    verificationMethod: 'sms',
    isTest: false,
    source: 'hosted',
    created: '2026-03-01T15:30:00Z',
    revokedAt: null,
    revocationId: null,
    ...over,
  };
}

const stats: VerifyFormStats = {
  verifications: 12,
  verificationsLast30Days: 3,
  codesSentLast30Days: 4,
  lastVerifiedAt: '2026-03-01T15:30:00Z',
};

const page = (results: Verification[]) => ({ count: results.length, pageNumber: 1, pageSize: 5, results });

function server(extra: Parameters<typeof createFakeServer>[0] = {}) {
  return createFakeServer({
    'GET /api/verify-forms/7': [200, form],
    'GET /api/verify-forms/categories': [200, { results: [] }],
    'GET /api/verify-forms/7/stats': [200, stats],
    'GET /api/verifications': [200, page([])],
    ...extra,
  });
}

const section = (name: string) => screen.findByRole('region', { name });

afterEach(() => vi.restoreAllMocks());

describe('/forms/$verifyFormId: share', () => {
  it('shows a QR code of the public link, downloads it as an SVG named after the form, and previews the page', async () => {
    const user = userEvent.setup();
    const clicked: { download: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.href });
    });
    renderApp('/forms/7', { initialData: signedIn(), server: server() });
    const share = await section('Share');
    const qr = within(share).getByRole('img', { name: 'QR code of the public link' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    expect(within(share).getByRole('link', { name: 'Open form' })).toHaveAttribute(
      'href',
      'http://localhost:3000/f/pub-7',
    );
    expect(within(share).getByRole('link', { name: 'Open form' })).toHaveAttribute('target', '_blank');

    const preview = within(share).getByTitle('Preview of Onboarding check');
    expect(preview.tagName.toLowerCase()).toBe('iframe');
    expect(preview).toHaveAttribute('src', 'http://localhost:3000/f/pub-7');
    expect(preview).toHaveAttribute('width', '375');

    await user.click(within(share).getByRole('button', { name: 'Download QR code' }));
    expect(clicked).toEqual([
      { download: 'onboarding-check-qr-code.svg', href: expect.stringMatching(/^blob:/) },
    ]);
  });

  it('reloads the preview once the server has the change (activated, banner uploaded), not before', async () => {
    const user = userEvent.setup();
    let release: () => void = () => undefined;
    const fake = server({
      'PATCH /api/verify-forms/7': () =>
        new Promise((resolve) => {
          release = () => resolve([200, { ...form, isLive: true }]);
        }),
      'PATCH /api/verify-forms/7/update-banner-image': [
        200,
        { ...form, isLive: true, bannerImage: '/media/b.webp' },
      ],
    });
    renderApp('/forms/7', { initialData: signedIn(), server: fake });
    const share = await section('Share');
    const first = within(share).getByTitle('Preview of Onboarding check');

    await user.click(screen.getByRole('switch', { name: 'Active' }));
    await waitFor(() => expect(fake.calls('PATCH /api/verify-forms/7')).toHaveLength(1));
    // The switch shows the change at once; the frame waits for the server, or it would load the old page.
    expect(screen.getByRole('switch', { name: 'Active' })).toBeChecked();
    expect(within(share).getByTitle('Preview of Onboarding check')).toBe(first);
    release();
    expect(await screen.findByText('Form activated')).toBeInTheDocument();
    await waitFor(() => expect(within(share).getByTitle('Preview of Onboarding check')).not.toBe(first));
    const second = within(share).getByTitle('Preview of Onboarding check');

    await user.click(screen.getByRole('button', { name: 'Upload banner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload image' });
    fireEvent.change(within(dialog).getByLabelText('Image file'), {
      target: { files: [new File(['x'], 'banner.png', { type: 'image/png' })] },
    });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    expect(await screen.findByText('Banner uploaded')).toBeInTheDocument();
    await waitFor(() => expect(within(share).getByTitle('Preview of Onboarding check')).not.toBe(second));
  });

  it('announces a copied link to screen readers', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderApp('/forms/7', { initialData: signedIn(), server: server() });
    const share = await section('Share');
    const status = within(share).getByRole('status');
    expect(status).toHaveTextContent('');
    await user.click(within(share).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith('http://localhost:3000/f/pub-7');
    await waitFor(() => expect(status).toHaveTextContent('Public link copied'));
  });

  it('names the QR file after the form, safely', () => {
    expect(qrFileName('Sign-up (Spring ’26)')).toBe('sign-up-spring-26-qr-code.svg');
    expect(qrFileName('Café Menu')).toBe('cafe-menu-qr-code.svg');
    expect(qrFileName('***')).toBe('form-qr-code.svg');
  });
});

describe('/forms/$verifyFormId: counts and recent verifications', () => {
  it('owners see the counts and the 5 newest verifications of the form', async () => {
    const fake = server({
      'GET /api/verifications': [
        200,
        page([
          makeVerification({ isTest: true, id: 102, cellPhone: '+12015550199', externalRefId: '' }),
          makeVerification({ verificationMethod: 'email', cellPhone: '+442079460123' }),
        ]),
      ],
    });
    renderApp('/forms/7', { initialData: signedIn(), server: fake });

    const counts = await section('Statistics');
    await waitFor(() => expect(within(counts).getByText('12')).toBeInTheDocument());
    const term = (label: string) => within(counts).getByText(label).nextElementSibling;
    expect(term('Verifications')).toHaveTextContent('12');
    expect(term('Last 30 days')).toHaveTextContent('3');
    expect(term('Codes sent (30 days)')).toHaveTextContent('4');
    expect(term('Conversion (30 days)')).toHaveTextContent('75%');
    expect(term('Last verified')).not.toHaveTextContent('Never');

    const recent = await section('Recent verifications');
    const table = await within(recent).findByRole('table', { name: 'Recent verifications' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('+1 (201) 555-0199');
    expect(within(rows[0] as HTMLElement).getByText('Test')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('+442079460123');
    expect(rows[1]).toHaveTextContent('CRM-123');
    expect(rows[1]).toHaveTextContent('E-mail');
    expect(within(rows[1] as HTMLElement).queryByText('Test')).not.toBeInTheDocument();
    expect(within(recent).getByRole('link', { name: 'View all in the activity log' })).toHaveAttribute(
      'href',
      '/activity-log/?verifyFormId__in=7',
    );

    const [request] = fake.calls('GET /api/verifications');
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
      account: '21',
      verifyFormId__in: '7',
      pageNumber: '1',
      pageSize: '5',
    });
  });

  it('no verifications yet: says how to get the first one; no codes sent: no conversion', async () => {
    const fake = server({
      'GET /api/verify-forms/7/stats': [
        200,
        { verifications: 0, verificationsLast30Days: 0, codesSentLast30Days: 0, lastVerifiedAt: null },
      ],
    });
    renderApp('/forms/7', { initialData: signedIn(), server: fake });
    const recent = await section('Recent verifications');
    expect(await within(recent).findByText('No verifications yet')).toBeInTheDocument();
    expect(within(recent).getByText(/Share the public link or the QR code/)).toBeInTheDocument();
    const counts = await section('Statistics');
    await waitFor(() =>
      expect(within(counts).getByText('Conversion (30 days)').nextElementSibling).toHaveTextContent('—'),
    );
    expect(within(counts).getByText('Last verified').nextElementSibling).toHaveTextContent('Never');
  });

  it('a failed load says so in its card (here: the rights were taken away after the page loaded)', async () => {
    const denied = { detail: 'You are not permitted to perform that action.' };
    const fake = server({
      'GET /api/verify-forms/7/stats': [403, denied],
      'GET /api/verifications': [403, denied],
    });
    renderApp('/forms/7', { initialData: signedIn(), server: fake });
    for (const name of ['Statistics', 'Recent verifications']) {
      const card = await section(name);
      expect(await within(card).findByRole('alert')).toHaveTextContent(denied.detail);
    }
  });

  it('a member without the rights sees neither card, and nothing is asked of the server', async () => {
    const fake = server();
    const member = makeMembership({ role: 'member', canSearchData: false, canViewReports: false });
    renderApp('/forms/7', { initialData: signedIn(member), server: fake });
    expect(await section('Share')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Statistics' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Recent verifications' })).not.toBeInTheDocument();
    expect(fake.calls('GET /api/verify-forms/7/stats')).toHaveLength(0);
    expect(fake.calls('GET /api/verifications')).toHaveLength(0);
  });

  it('each right shows its own card', async () => {
    const reporter = makeMembership({ role: 'member', canSearchData: false, canViewReports: true });
    renderApp('/forms/7', { initialData: signedIn(reporter), server: server() });
    expect(await section('Statistics')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Recent verifications' })).not.toBeInTheDocument();
  });
});

describe('formatPhoneForReading', () => {
  it('groups North American numbers and leaves others in E.164', () => {
    expect(formatPhoneForReading('+12015550123')).toBe('+1 (201) 555-0123');
    expect(formatPhoneForReading('+442079460123')).toBe('+442079460123');
  });
});
