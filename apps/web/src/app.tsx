import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { DeferredNotifications } from './components/DeferredNotifications';
import { SecondFactorGate } from './features/account/components/SecondFactorGate';
import { type Services, ServicesProvider } from './lib/services';
import type { AppRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

/** Providers shared by the app and the tests. */
interface ProvidersProps {
  services: Services;
  /** 'test' turns Mantine's transitions and portals off (component tests). */
  env?: 'default' | 'test';
}

export function AppProviders({ services, env, children }: ProvidersProps & { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={env}>
      <DeferredNotifications />
      <QueryClientProvider client={services.queryClient}>
        <ServicesProvider services={services}>
          {children}
          <SecondFactorGate />
        </ServicesProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}

export function App({ services, router, env }: ProvidersProps & { router: AppRouter }) {
  return (
    <AppProviders services={services} env={env}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
