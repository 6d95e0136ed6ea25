import { Alert, Group, Switch } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import type { VerificationMode } from '@veriform/contracts';
import { useState } from 'react';

/**
 * Live or test data in the activity log (issue #33, ADR 29), as Stripe's dashboard toggles it: the log shows live
 * verifications unless the switch asks for test ones (`?mode=test`, kept in the link), and says so in a banner that
 * cannot be missed. Test data is what was made for the account's test numbers, with a `vf_test_` key or on the
 * hosted page: nothing was sent to a real consumer.
 */
export function TestModeSwitch({
  mode,
  onChange,
}: {
  mode: VerificationMode;
  onChange: (mode: VerificationMode) => void;
}) {
  const test = mode === 'test';
  // The switch moves at once; the page follows when the navigation (and its data) lands. What was asked holds only
  // while the URL still says the mode it was asked from.
  const [asked, setAsked] = useState<{ from: VerificationMode; to: VerificationMode } | null>(null);
  const shown = asked !== null && asked.from === mode ? asked.to : mode;
  return (
    <>
      <Group justify="flex-end" mb="xs">
        <Switch
          label="View test data"
          color="orange"
          checked={shown === 'test'}
          onChange={(event) => {
            const next = event.currentTarget.checked ? 'test' : 'live';
            setAsked({ from: mode, to: next });
            onChange(next);
          }}
        />
      </Group>
      {test && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconFlask />}
          title="Viewing test data"
          mb="md"
          role="status"
          c="dark.6"
        >
          Verifications made for your test numbers (with a test API key or on the hosted page): no code was
          sent to a real consumer. Turn off “View test data” to see live data.
        </Alert>
      )}
    </>
  );
}
