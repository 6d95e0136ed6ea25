import { type ContactabilitySearch, contactabilitySearchSchema } from '@veriform/contracts';

/**
 * The URL's search of Activity Log › Contactability: every bad value falls back (the contract's schema), defaults left
 * out of the URL. Its own light module: the route reads it in the entry chunk, where the API module would weigh.
 */
export const validateContactabilitySearch = (search: Record<string, unknown>): ContactabilitySearch =>
  contactabilitySearchSchema.parse(search);
export const contactabilitySearchDefaults = contactabilitySearchSchema.parse({});
