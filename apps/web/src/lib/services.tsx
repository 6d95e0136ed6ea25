import type { QueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import type { ApiClient } from './api-client';
import type { SessionStore } from './session';

/** The app's long-lived objects, shared by components (this context) and route guards (router context). */
export interface Services {
  api: ApiClient;
  session: SessionStore;
  queryClient: QueryClient;
}

const ServicesContext = createContext<Services | null>(null);

export function ServicesProvider({ services, children }: { services: Services; children: ReactNode }) {
  return <ServicesContext.Provider value={services}>{children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesProvider>');
  return services;
}
