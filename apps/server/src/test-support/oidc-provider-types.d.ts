/**
 * The few parts of `oidc-provider` (a development dependency: the test OpenID provider, test-support/oidc-provider.ts)
 * that the tests use. The package ships no types of its own.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type ClaimsAnswer = { sub: string; [claim: string]: unknown };
  export type FoundAccount = { accountId: string; claims(): ClaimsAnswer | Promise<ClaimsAnswer> };

  export type GrantInstance = {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  };

  export type ProviderContext = {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string };
      provider: Provider;
    };
  };

  export type Configuration = {
    clients: Record<string, unknown>[];
    findAccount(ctx: unknown, id: string): Promise<FoundAccount | undefined>;
    claims?: Record<string, string[]>;
    features?: Record<string, unknown>;
    interactions?: { url(ctx: unknown, interaction: { uid: string }): string };
    loadExistingGrant?(ctx: ProviderContext): Promise<GrantInstance | undefined>;
    cookies?: { keys: string[] };
    jwks?: { keys: JsonWebKey[] };
    ttl?: Record<string, number>;
    conformIdTokenClaims?: boolean;
    pkce?: { required(): boolean };
  };

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(
      req: IncomingMessage,
      res: ServerResponse,
    ): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: new (init: {
      clientId: string;
      accountId: string;
    }) => GrantInstance;
    on(event: string, listener: (...args: unknown[]) => void): void;
  }
}
