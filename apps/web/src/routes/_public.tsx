import { Box, Center, Container } from '@mantine/core';
import { createFileRoute, Outlet } from '@tanstack/react-router';
import { BrandMark } from '../components/layout/BrandMark';

/** The public (auth) pages: a narrow column that fits a phone. Each page guards itself as the spec says. */
export const Route = createFileRoute('/_public')({
  component: PublicLayout,
});

function PublicLayout() {
  return (
    <Box bg="gray.0" mih="100dvh" py={{ base: 'md', xs: 48 }}>
      <Container size={460} px="md" component="main">
        <Center mb="lg">
          <BrandMark />
        </Center>
        <Outlet />
      </Container>
    </Box>
  );
}
