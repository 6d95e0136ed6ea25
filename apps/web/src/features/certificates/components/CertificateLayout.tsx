import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { CERTIFICATE_KEYS_PATH } from '@veriform/contracts';
import type { ReactNode } from 'react';
import { BrandMark } from '../../../components/layout/BrandMark';

/**
 * The public check page's frame: wider than the auth pages' 460 px column (a certificate has a timeline, hashes and a
 * consent text), and still one column at phone width.
 */
export function CertificateLayout({ children }: { children: ReactNode }) {
  return (
    <Box bg="gray.0" mih="100dvh" py={{ base: 'md', sm: 40 }}>
      <Container size={820} px={{ base: 'sm', xs: 'md' }} component="main">
        <Group justify="space-between" mb="lg" wrap="wrap" gap="xs">
          <BrandMark />
          <Text size="sm" c="dimmed">
            Certificate check
          </Text>
        </Group>
        {children}
        <Text size="xs" c="dimmed" mt="xl" ta="center">
          Certificates are signed with Ed25519; the public keys are published at{' '}
          <Anchor href={CERTIFICATE_KEYS_PATH} size="xs" c="dark.4" underline="always">
            veriform-certificate-keys.json
          </Anchor>
          .
        </Text>
      </Container>
    </Box>
  );
}
