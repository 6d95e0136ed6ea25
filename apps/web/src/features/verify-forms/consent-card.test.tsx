import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ConsentVersion, defaultConsentTexts, type VerifyForm } from '@veriform/contracts';
import { describe, expect, it } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../test/fake-server';
import { renderApp } from '../../test/render';
import { wordDiff } from './word-diff';

const ada = makeUser();
const owner = makeMembership();
const signedIn = () => makeInitialData({ user: ada, memberships: [owner], currentMembership: owner });

const form: VerifyForm = {
  id: 7,
  publicId: 'pub-7',
  name: 'Onboarding check',
  account: owner.account.id,
  isLive: true,
  language: 'en',
  category: '',
  created: '2026-01-05T10:00:00Z',
  bannerImage: null,
  publicUrl: '/f/pub-7',
};

function version(over: Partial<ConsentVersion>): ConsentVersion {
  return {
    id: 'cv_1',
    version: 1,
    language: 'en',
    text: 'You agree that we may text you.',
    sha256: 'a'.repeat(64),
    requireCheckbox: true,
    created: '2026-02-01T10:00:00Z',
    createdBy: 'ada@example.com',
    ...over,
  };
}

function server(versions: ConsentVersion[], extra: Parameters<typeof createFakeServer>[0] = {}) {
  return createFakeServer({
    'GET /api/verify-forms/7': [200, form],
    'GET /api/verify-forms/categories': [200, { results: [] }],
    'GET /api/verify-forms/7/stats': [
      200,
      { verifications: 0, verificationsLast30Days: 0, codesSentLast30Days: 0, lastVerifiedAt: null },
    ],
    'GET /api/verifications': [200, { count: 0, pageNumber: 1, pageSize: 5, results: [] }],
    'GET /api/verify-forms/7/consent-versions': [200, { results: versions }],
    ...extra,
  });
}

describe('word diff', () => {
  it('marks removed and added words and re-joins to each side', () => {
    const parts = wordDiff('You agree that we may text you.', 'You agree that Acme may call or text you.');
    expect(parts).toEqual([
      { kind: 'same', text: 'You agree that ' },
      { kind: 'removed', text: 'we' },
      { kind: 'added', text: 'Acme' },
      { kind: 'same', text: ' may ' },
      { kind: 'added', text: 'call or ' },
      { kind: 'same', text: 'text you.' },
    ]);
    const side = (kind: 'added' | 'removed') =>
      parts
        .filter((p) => p.kind !== kind)
        .map((p) => p.text)
        .join('');
    expect(side('added')).toBe('You agree that we may text you.');
    expect(side('removed')).toBe('You agree that Acme may call or text you.');
  });
});

describe('/forms/$verifyFormId: consent text', () => {
  it('no version yet: says so, offers the default text with the company name, and publishes version 1', async () => {
    const user = userEvent.setup();
    const published = version({ text: 'Our own words.', requireCheckbox: false });
    const fake = server([], { 'POST /api/verify-forms/7/consent-versions': [201, published] });
    renderApp('/forms/7', { initialData: signedIn(), server: fake });
    const card = await screen.findByRole('region', { name: 'Consent text' });
    expect(await within(card).findByText(/No consent text in English yet/)).toBeInTheDocument();
    const textarea = within(card).getByRole('textbox', { name: /First version/ });
    expect(textarea).toHaveValue(defaultConsentTexts.en(owner.account.displayName));

    await user.clear(textarea);
    await user.click(within(card).getByRole('button', { name: 'Publish version 1' }));
    expect(await within(card).findByText('Write the consent text.')).toBeInTheDocument();
    expect(fake.calls('POST /api/verify-forms/7/consent-versions')).toHaveLength(0);

    await user.type(textarea, 'Our own words.');
    await user.click(within(card).getByRole('switch', { name: /Require an “I agree” checkbox/ }));
    await user.click(within(card).getByRole('button', { name: 'Publish version 1' }));
    expect(await screen.findByText('Consent version 1 published')).toBeInTheDocument();
    expect(fake.calls('POST /api/verify-forms/7/consent-versions')[0]?.body).toEqual({
      language: 'en',
      text: 'Our own words.',
      requireCheckbox: false,
    });
  });

  it('the preview of the public page reloads once a new version is published, not when the versions are first read', async () => {
    const user = userEvent.setup();
    let versions = [version({})];
    const v2 = version({ id: 'cv_2', version: 2, text: 'Version two.', created: '2026-03-01T10:00:00Z' });
    const fake = createFakeServer({
      'GET /api/verify-forms/7': [200, form],
      'GET /api/verify-forms/categories': [200, { results: [] }],
      'GET /api/verify-forms/7/stats': [
        200,
        { verifications: 0, verificationsLast30Days: 0, codesSentLast30Days: 0, lastVerifiedAt: null },
      ],
      'GET /api/verifications': [200, { count: 0, pageNumber: 1, pageSize: 5, results: [] }],
      'GET /api/verify-forms/7/consent-versions': () => [200, { results: versions }],
      'POST /api/verify-forms/7/consent-versions': () => {
        versions = [v2, ...versions];
        return [201, v2];
      },
    });
    renderApp('/forms/7', { initialData: signedIn(), server: fake });
    const share = await screen.findByRole('region', { name: 'Share' });
    const frame = () => within(share).getByTitle('Preview of Onboarding check');
    const first = frame();
    const card = await screen.findByRole('region', { name: 'Consent text' });
    expect(await within(card).findByText('Current: version 1')).toBeInTheDocument();
    // Reading the versions is not a change: the frame already shows version 1.
    expect(frame()).toBe(first);

    await user.type(within(card).getByRole('textbox', { name: /New version/ }), ' More.');
    await user.click(within(card).getByRole('button', { name: 'Publish version 2' }));
    expect(await screen.findByText('Consent version 2 published')).toBeInTheDocument();
    await waitFor(() => expect(frame()).not.toBe(first));
    expect(within(card).getByText('Current: version 2')).toBeInTheDocument();
  });

  it('shows the current version with its link, the history per language, and a diff of two versions', async () => {
    const user = userEvent.setup();
    const v1 = version({});
    const v2 = version({
      id: 'cv_2',
      version: 2,
      text: 'You agree that Acme may text you. See https://acme.example/terms',
      requireCheckbox: false,
      created: '2026-03-01T10:00:00Z',
    });
    const es1 = version({ id: 'cv_es', language: 'es', text: 'Acepto.' });
    renderApp('/forms/7', { initialData: signedIn(), server: server([v2, es1, v1]) });
    const card = await screen.findByRole('region', { name: 'Consent text' });
    const current = await within(card).findByRole('region', { name: 'Current version' });
    expect(within(current).getByText('Current: version 2')).toBeInTheDocument();
    expect(within(current).getByRole('link', { name: 'https://acme.example/terms' })).toHaveAttribute(
      'href',
      'https://acme.example/terms',
    );
    expect(within(card).getByRole('button', { name: 'Publish version 3' })).toBeInTheDocument();

    const diff = within(card).getByRole('region', { name: 'Changes from version 1 to version 2' });
    expect(diff.querySelector('del')?.textContent).toBe('removed: we');
    expect([...diff.querySelectorAll('ins')].map((n) => n.textContent)).toEqual([
      'added: Acme',
      'added:  See https://acme.example/terms',
    ]);
    expect(within(diff).getByText('Checkbox: required → none')).toBeInTheDocument();

    await user.click(within(card).getByRole('radio', { name: 'Spanish' }));
    expect(await within(card).findByText('Current: version 1')).toBeInTheDocument();
    const spanish = within(card).getByRole('region', { name: 'Current version' });
    expect(within(spanish).getByText('Acepto.')).toBeInTheDocument();
    // The new version starts from the current text.
    expect(within(card).getByRole('textbox', { name: /New version/ })).toHaveValue('Acepto.');
    expect(within(card).queryByRole('region', { name: /Changes from/ })).not.toBeInTheDocument();
  });
});
