import { Title } from '@mantine/core';
import { AnchorLink } from '../links';
import { StatusScreen } from './StatusScreen';

/** SPEC §2: a permission error on a page. */
export function ForbiddenScreen() {
  return (
    <StatusScreen status={403} statusSize={80} pageTitle="Access denied">
      <Title order={1} size="h2">
        Sorry, you do not have access to this page.
      </Title>
      <AnchorLink to="/">Go to home</AnchorLink>
    </StatusScreen>
  );
}
