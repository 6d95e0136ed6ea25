import { z } from 'zod';

/** What the server tells every page about the deployment (see client-config.ts): where to report errors, if at all. */
export const clientConfigSchema = z.object({
  errorReporting: z
    .object({
      dsn: z.url(),
      environment: z.string(),
    })
    .nullable(),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;
