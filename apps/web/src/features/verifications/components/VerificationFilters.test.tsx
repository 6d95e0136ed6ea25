import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type DatePreset, verificationFilterSchema } from '@veriform/contracts';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createFakeServer, makeInitialData, makeMembership, makeUser } from '../../../test/fake-server';
import { renderWithRouter } from '../../../test/render';
import {
  clearedVerificationFilters,
  hasActiveVerificationFilters,
  methodChoice,
  type VerificationFilterPatch,
  VerificationFilters,
  type VerificationFilterValue,
} from './VerificationFilters';

const owner = makeMembership();
const signedIn = () => makeInitialData({ user: makeUser(), memberships: [owner], currentMembership: owner });

function server() {
  return createFakeServer({
    'GET /api/verify-forms': [
      200,
      {
        count: 2,
        pageNumber: 1,
        pageSize: 100,
        results: [7, 8].map((id) => ({
          id,
          publicId: `pub-${id}`,
          name: id === 7 ? 'Onboarding check' : 'Payments check',
          account: 21,
          isLive: true,
          language: 'en',
          category: id === 7 ? 'Onboarding' : 'Payments',
          created: '2026-01-05T10:00:00Z',
          bannerImage: null,
          publicUrl: `/f/pub-${id}`,
        })),
      },
    ],
    'GET /api/verify-forms/categories': [200, { results: ['Onboarding', 'Payments'] }],
  });
}

/** The bar as a route uses it: the value lives outside (here in state), patches are merged in. */
function Harness<P extends DatePreset>({
  initial,
  presets,
  spy,
}: {
  initial: VerificationFilterValue<P>;
  presets?: readonly P[];
  spy: (patch: VerificationFilterPatch<P>) => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <VerificationFilters
      accountId={21}
      value={value}
      presets={presets}
      onChange={(patch) => {
        spy(patch);
        setValue((previous) => ({ ...previous, ...patch }));
      }}
    />
  );
}

describe('VerificationFilters', () => {
  it('forms, categories, method, date preset with a custom range, and a debounced search', {
    timeout: 15_000,
  }, async () => {
    const user = userEvent.setup();
    const spy = vi.fn();
    const fake = server();
    renderWithRouter(<Harness initial={verificationFilterSchema.parse({})} spy={spy} />, {
      initialData: signedIn(),
      server: fake,
    });
    expect(await screen.findByRole('search', { name: 'Filter verifications' })).toBeInTheDocument();
    // The form options are the account's forms, by name.
    const formsCall = await waitFor(() => {
      const call = fake.calls('GET /api/verify-forms')[0];
      if (!call) throw new Error('no forms call');
      return call;
    });
    expect(Object.fromEntries(formsCall.url.searchParams)).toMatchObject({ account: '21', pageSize: '100' });

    await user.click(screen.getByLabelText('Forms'));
    await user.click(await screen.findByRole('option', { name: 'Payments check' }));
    expect(spy).toHaveBeenLastCalledWith({ verifyFormId__in: [8] });

    await user.click(screen.getByLabelText('Categories'));
    await user.click(await screen.findByRole('option', { name: 'Onboarding' }));
    expect(spy).toHaveBeenLastCalledWith({ verifyFormCategory__in: ['Onboarding'] });

    await user.click(screen.getByRole('combobox', { name: 'Method' }));
    await user.click(await screen.findByRole('option', { name: 'E-mail' }));
    expect(spy).toHaveBeenLastCalledWith({ verificationMethod__in: ['email'] });
    await user.click(screen.getByRole('combobox', { name: 'Method' }));
    await user.click(await screen.findByRole('option', { name: 'All' }));
    expect(spy).toHaveBeenLastCalledWith({ verificationMethod__in: undefined });

    await user.click(screen.getByRole('combobox', { name: 'Source' }));
    await user.click(await screen.findByRole('option', { name: 'API' }));
    expect(spy).toHaveBeenLastCalledWith({ source: 'api' });
    await user.click(screen.getByRole('combobox', { name: 'Source' }));
    await user.click(await screen.findByRole('option', { name: 'All' }));
    expect(spy).toHaveBeenLastCalledWith({ source: undefined });

    await user.click(screen.getByRole('combobox', { name: 'Created' }));
    const labels = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(labels).toEqual([
      'All time',
      'Today',
      'Yesterday',
      'Last 3 days',
      'Last 7 days',
      'Last 30 days',
      'This month',
      'Last month',
      'Custom range',
    ]);
    await user.click(screen.getByRole('option', { name: 'Custom range' }));
    expect(spy).toHaveBeenLastCalledWith({
      created__date__preset: 'custom',
      created__date__gte: undefined,
      created__date__lte: undefined,
    });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    expect(spy).toHaveBeenLastCalledWith({ created__date__gte: '2026-01-01' });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-01-31' } });
    expect(spy).toHaveBeenLastCalledWith({ created__date__lte: '2026-01-31' });

    const search = screen.getByRole('searchbox', { name: 'Search' });
    expect(search).toHaveAttribute('placeholder', 'Phone, reference or form name');
    spy.mockClear();
    await user.type(search, ' 555 ');
    // Debounced: one patch after typing stops, trimmed.
    await waitFor(() => expect(spy).toHaveBeenCalledWith({ q: '555' }), { timeout: 2000 });
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('the dashboard restricts the presets', async () => {
    const user = userEvent.setup();
    renderWithRouter(
      <Harness
        initial={{ ...verificationFilterSchema.parse({}), created__date__preset: 'last7d' as const }}
        presets={['last7d', 'last30d', 'custom'] as const}
        spy={vi.fn()}
      />,
      { initialData: signedIn(), server: server() },
    );
    await user.click(await screen.findByRole('combobox', { name: 'Created' }));
    const labels = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(labels).toEqual(['Last 7 days', 'Last 30 days', 'Custom range']);
  });

  it('a form id from a shared link that is not an option stays visible and removable', async () => {
    renderWithRouter(
      <Harness initial={verificationFilterSchema.parse({ verifyFormId__in: '999' })} spy={vi.fn()} />,
      { initialData: signedIn(), server: server() },
    );
    // The pill in the field (the option list also names it).
    expect((await screen.findAllByText('Form #999')).length).toBeGreaterThan(0);
  });

  it('helpers: method choice and active filters', () => {
    expect(methodChoice(undefined)).toBe('all');
    expect(methodChoice(['all'])).toBe('all');
    expect(methodChoice(['sms'])).toBe('sms');
    expect(methodChoice(['sms', 'email'])).toBe('all');
    expect(hasActiveVerificationFilters(verificationFilterSchema.parse({}))).toBe(false);
    expect(hasActiveVerificationFilters(verificationFilterSchema.parse({ q: 'x' }))).toBe(true);
    expect(
      hasActiveVerificationFilters(verificationFilterSchema.parse({ verificationMethod__in: 'all' })),
    ).toBe(false);
    expect(hasActiveVerificationFilters(verificationFilterSchema.parse({ source: 'hosted' }))).toBe(true);
    expect(hasActiveVerificationFilters(verificationFilterSchema.parse({ source: 'all' }))).toBe(false);
    expect(clearedVerificationFilters('all')).toMatchObject({ source: undefined });
  });
});
