import { Veriform } from '@veriform/sdk';

/** The client every example uses: your key, and the address of your Veriform, from the environment. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name} first (see the README).`);
  return value;
}

export const veriform = new Veriform({
  apiKey: required('VERIFORM_API_KEY'),
  baseUrl: required('VERIFORM_BASE_URL'),
});
