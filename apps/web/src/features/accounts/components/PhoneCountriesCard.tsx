import { Button, Group, Stack, Text } from '@mantine/core';
import { type Membership, PHONE_COUNTRIES, phoneCountriesSchema } from '@veriform/contracts';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { LabelledMultiSelect } from '../../../components/form/LabelledMultiSelect';
import { ApiValidationError } from '../../../lib/api-client';
import { errorDisplayText } from '../../../lib/error-text';
import { notify } from '../../../lib/notify';
import { useUpdatePhoneCountriesMutation } from '../api';
import { CompanySettingCard } from './CompanySettingCard';

const LABEL = 'Countries';

export const PHONE_COUNTRIES_TEXT =
  'Verification codes, by text message or e-mail, go only to mobile numbers of these countries; a number of any other country is refused on the form. Premium-rate, satellite and other numbers that are not mobiles are always refused.';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
/** "Canada (CA)": the name people look for, the code that tells look-alikes apart. */
export const countryLabel = (code: string) => `${regionNames.of(code) ?? code} (${code})`;

/** Every country libphonenumber knows, by name. */
function useCountryOptions() {
  return useMemo(
    () =>
      PHONE_COUNTRIES.map((code) => ({ value: code, label: countryLabel(code) })).sort((a, b) =>
        a.label.localeCompare(b.label, 'en'),
      ),
    [],
  );
}

/** Owners: choose the countries; nothing is sent until Save. */
function PhoneCountriesForm({ accountId, saved }: { accountId: number; saved: string[] }) {
  const update = useUpdatePhoneCountriesMutation(accountId);
  const options = useCountryOptions();
  const [value, setValue] = useState(saved);
  const [error, setError] = useState<string | null>(null);

  // A fresher read (another owner changed the list) shows here.
  useEffect(() => setValue(saved), [saved]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    const parsed = phoneCountriesSchema.safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Required');
      return;
    }
    setError(null);
    try {
      const info = await update.mutateAsync(parsed.data);
      const count = info.phoneCountries.length;
      notify.success(
        'Countries saved',
        `Codes go to numbers of ${count === 1 ? '1 country' : `${count} countries`}.`,
      );
    } catch (failure) {
      const fieldErrors = failure instanceof ApiValidationError ? Object.entries(failure.fieldErrors) : [];
      const fieldError = fieldErrors.find(([field]) => field.startsWith('phoneCountries'))?.[1];
      setError(fieldError ?? errorDisplayText(failure, { phoneCountries: LABEL }));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <LabelledMultiSelect
          label={LABEL}
          data={options}
          value={value}
          onChange={setValue}
          error={error}
          searchable
          hidePickedOptions
          nothingFoundMessage="No country by that name"
          placeholder={value.length ? undefined : 'Search for a country'}
          maxDropdownHeight={260}
          // 245 options: mounted only while the list is open, so the rest of the page renders as fast as before.
          comboboxProps={{ keepMounted: false }}
        />
        <Group>
          <Button type="submit" loading={update.isPending}>
            Save countries
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Company Info's country allow-list (toll fraud, issue 13): every member sees which countries the forms send codes
 * to; owners change the list (the server refuses anyone else).
 */
export function PhoneCountriesCard({ membership }: { membership: Membership }) {
  const accountId = membership.account.id;
  return (
    <CompanySettingCard
      membership={membership}
      title="Countries for verification codes"
      description={PHONE_COUNTRIES_TEXT}
      loading="Loading countries"
      edit={(info) => <PhoneCountriesForm accountId={accountId} saved={info.phoneCountries} />}
      readOnly={(info) => (
        <ul aria-label="Countries codes are sent to" style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
          {info.phoneCountries.map((code) => (
            <li key={code}>
              <Text size="sm">{countryLabel(code)}</Text>
            </li>
          ))}
        </ul>
      )}
      ownersOnly="Only owners can change the countries."
    />
  );
}
