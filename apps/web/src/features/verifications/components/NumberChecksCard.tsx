import { Alert, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPhoneCheck, IconRefresh } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import {
  type ApiReassignment,
  type ApiSimSwap,
  carrierLineTypeLabels,
  reassignmentAnswerLabels,
  type VerificationDetail,
} from '@veriform/contracts';
import { useId } from 'react';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useServices } from '../../../lib/services';
import { checkReassignment, verificationKeys } from '../api';
import { DetailField, Instant } from './DetailField';

const utcDateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
/** A `YYYY-MM-DD` date as the reader's locale writes it (the date itself, whatever the reader's zone). */
const formatIsoDate = (date: string) => utcDateFormat.format(new Date(`${date}T00:00:00Z`));

const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

function SimSwapValue({ simSwap }: { simSwap: ApiSimSwap }) {
  return (
    <Stack gap={4}>
      <Text span size="sm">
        {simSwap.lastSwapAt ? (
          <>
            Last swapped <Instant iso={simSwap.lastSwapAt} />
          </>
        ) : (
          'The carrier gave no date, only whether a swap fell within its own period'
        )}
      </Text>
      {simSwap.withinWindow ? (
        <Badge
          variant="light"
          color="orange"
          // Dark text on the tint: Mantine's light orange falls below AA's 4.5:1.
          c="dark.6"
          tt="none"
          leftSection={<IconAlertTriangle size={12} aria-hidden="true" />}
          style={{ alignSelf: 'flex-start' }}
        >
          SIM swapped within {days(simSwap.windowDays)} before the code
        </Badge>
      ) : (
        <Text span size="sm" c="dimmed">
          Not within the account’s {days(simSwap.windowDays)} window
        </Text>
      )}
    </Stack>
  );
}

const answerColors: Record<ApiReassignment['answer'], string> = { yes: 'red', no: 'green', no_data: 'gray' };

function ReassignmentValue({ check }: { check: ApiReassignment }) {
  return (
    <Stack gap={4}>
      <Badge
        variant="light"
        color={answerColors[check.answer]}
        c="dark.6"
        tt="none"
        leftSection={check.answer === 'yes' ? <IconAlertTriangle size={12} aria-hidden="true" /> : undefined}
        style={{ alignSelf: 'flex-start' }}
      >
        {reassignmentAnswerLabels[check.answer]}
      </Badge>
      {check.answer === 'yes' && (
        <Text span size="sm">
          The number was disconnected since the consent date: the consent does not cover whoever holds it now.
        </Text>
      )}
      {check.answer === 'no_data' && (
        <Text span size="sm">
          The database had no data for this number and date. This is not a “no”: there is no safe-harbour
          proof.
        </Text>
      )}
      {check.errorCode !== null && (
        <Text span size="sm" c="dimmed">
          Provider code {check.errorCode}
        </Text>
      )}
    </Stack>
  );
}

/** Why a check could not be made, in the server's words (SPEC §8's format: a non-field error, the ceiling, a retry). */
function checkErrorText(error: Error): string {
  if (error instanceof ApiError && error.status === 503)
    return error.detail ?? 'The lookup provider did not answer. Try again in a moment.';
  return error instanceof ApiError ? (error.detail ?? error.message) : error.message;
}

/**
 * Whether the number is still the consumer's (issue #36): what the carrier said when the code was requested (line
 * type and carrier, the last SIM swap against the account's window) and the latest reassigned-number check, with
 * "Check for reassignment" for an approved verification by text to a live number. After a check the verification
 * reads again, so the card shows the check it made.
 */
export function NumberChecksCard({
  verification: v,
  accountId,
}: {
  verification: VerificationDetail;
  accountId: number;
}) {
  const heading = useId();
  const { api, queryClient } = useServices();
  const check = useMutation({
    mutationFn: () => checkReassignment(api, accountId, v.id),
    onSuccess: async (made) => {
      notify.success('Reassigned-number check made', reassignmentAnswerLabels[made.answer]);
      await queryClient.invalidateQueries({ queryKey: verificationKeys.detail(accountId, v.id) });
    },
  });
  const checkable = v.verificationMethod === 'sms' && v.verifiedAt !== null && !v.isTest && !v.redactedAt;
  const nothing = v.carrier === null && v.simSwap === null && v.reassignment === null;
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby={heading}>
      <Group justify="space-between" align="center" mb="md" gap="sm">
        <Title order={3} size="h4" id={heading}>
          Number checks
        </Title>
        {checkable && (
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden="true" />}
            loading={check.isPending}
            onClick={() => check.mutate()}
          >
            Check for reassignment
          </Button>
        )}
      </Group>
      {check.error && (
        <Alert color="red" mb="md" title="The check could not be made" role="alert">
          {checkErrorText(check.error)}
        </Alert>
      )}
      {nothing ? (
        <Group gap="xs" wrap="nowrap">
          <IconPhoneCheck size={18} aria-hidden="true" />
          <Text size="sm" c="dimmed">
            No carrier lookups or reassigned-number checks for this verification yet.
          </Text>
        </Group>
      ) : (
        <SimpleGrid component="dl" cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" m={0}>
          <DetailField label="Line type">
            {v.carrier ? carrierLineTypeLabels[v.carrier.lineType] : 'Not looked up'}
          </DetailField>
          <DetailField label="Carrier">
            {v.carrier ? (v.carrier.name ?? 'Not named') : 'Not looked up'}
          </DetailField>
          <DetailField label="SIM swap">
            {v.simSwap ? <SimSwapValue simSwap={v.simSwap} /> : 'Not looked up'}
          </DetailField>
          <DetailField label="Reassigned number">
            {v.reassignment ? <ReassignmentValue check={v.reassignment} /> : 'Never checked'}
          </DetailField>
          {v.reassignment && (
            <>
              <DetailField label="Checked at">
                <Instant iso={v.reassignment.checkedAt} />
              </DetailField>
              <DetailField label="Consent date asked">
                <time dateTime={v.reassignment.lastVerifiedDate}>
                  {formatIsoDate(v.reassignment.lastVerifiedDate)}
                </time>
              </DetailField>
            </>
          )}
        </SimpleGrid>
      )}
    </Paper>
  );
}
