import { Text, Title } from '@mantine/core';
import { ButtonLink } from '../links';
import { StatusScreen } from './StatusScreen';

/** SPEC §2: any unmatched path. */
export function NotFoundScreen() {
  return (
    <StatusScreen status={404} statusSize={120} pageTitle="Page Not Found">
      <Title order={1}>Page Not Found</Title>
      <Text c="dimmed" size="lg">
        Looks like this page was moved, deleted, or maybe... never even existed.
      </Text>
      <ButtonLink to="/dashboard" size="md">
        Back to home
      </ButtonLink>
    </StatusScreen>
  );
}

/** The plain fallback (a resource that could not be found inside a page). */
export function PlainNotFound() {
  return <Text p="md">Not Found</Text>;
}
