import cookie from '@fastify/cookie';
import { installSpecErrorMessages } from '@veriform/contracts';
import type { DatabaseHandle } from '@veriform/db';
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { openDatabase } from './database.ts';
import { createJobWork } from './job-handlers.ts';
import { createJobs } from './jobs/queue.ts';
import { loadJobDefinitions } from './jobs/registry.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { redactUrl, serializeLoggedError } from './lib/redact.ts';
import { REQUEST_ID_HEADER, requestIdGenerator } from './lib/request-id.ts';
import type { HostResolver } from './lib/webhook-url.ts';
import { createMailer, type Mailer } from './messaging/email.ts';
import { createSmsSender, type SmsSender } from './messaging/sms.ts';
import { accountRoutes } from './modules/accounts/index.ts';
import { apiKeyRoutes } from './modules/api-keys/index.ts';
import {
  apiDocsRoutes,
  apiV1Routes,
  isApiV1,
  PROBLEM_CONTENT_TYPE,
  problemOfAppError,
  problemOfStatus,
  registerOpenApi,
} from './modules/api-v1/index.ts';
import { auditRoutes } from './modules/audit/index.ts';
import { authRoutes, viewerState } from './modules/auth/index.ts';
import { authSessionRoutes } from './modules/auth-sessions/index.ts';
import { certificateRoutes } from './modules/certificates/index.ts';
import { twilioStatusRoutes } from './modules/code-delivery/index.ts';
import { consentRoutes } from './modules/consent/index.ts';
import { contactabilitySessionRoutes } from './modules/contactability/index.ts';
import { devRoutes } from './modules/dev/index.ts';
import { domainRoutes, type TxtLookup } from './modules/domains/index.ts';
import { invitationRoutes } from './modules/invitations/index.ts';
import { legalHoldRoutes } from './modules/legal-holds/index.ts';
import { lookupRoutes } from './modules/lookups/index.ts';
import { mediaRoutes } from './modules/media/index.ts';
import { membershipRoutes } from './modules/memberships/index.ts';
import { mfaRoutes } from './modules/mfa/index.ts';
import { passkeyRoutes } from './modules/passkeys/index.ts';
import { privacyRequestRoutes } from './modules/privacy-requests/index.ts';
import { publicVerifyRoutes } from './modules/public-verify/index.ts';
import { refreshLinkRoutes } from './modules/refresh-links/index.ts';
import { retentionRoutes } from './modules/retention/index.ts';
import { revocationRoutes, twilioInboundRoutes } from './modules/revocations/index.ts';
import { ssoRoutes } from './modules/sso/index.ts';
import { testNumberRoutes } from './modules/test-numbers/index.ts';
import { userRoutes } from './modules/users/index.ts';
import { verificationAttemptRoutes } from './modules/verification-attempts/index.ts';
import {
  verificationDetailReportRoutes,
  verificationRedactionRoutes,
  verificationRoutes,
} from './modules/verifications/index.ts';
import { verifyFormRoutes } from './modules/verify-forms/index.ts';
import { webhookEndpointRoutes } from './modules/webhooks/index.ts';
import { registerCsrf } from './plugins/csrf.ts';
import { answerFrameworkError, registerErrorHandler } from './plugins/error-handler.ts';
import { registerHealth } from './plugins/health.ts';
import { registerJsonBody } from './plugins/json-body.ts';
import { registerMultipart } from './plugins/multipart.ts';
import { registerNullCharacterGuard } from './plugins/null-characters.ts';
import { registerSecurity } from './plugins/security.ts';
import { registerSessions } from './plugins/session.ts';
import { registerSpa, registerViteDev } from './plugins/spa.ts';
import { registerStepUp } from './plugins/step-up.ts';
import { registerTenancy } from './plugins/tenancy.ts';
import { createServices, type Services } from './services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
    /**
     * Every route registered (method, URL pattern and its schema): lets tests check that a table of routes is
     * complete, and the security tests fuzz and CSRF-check every route without a list of their own.
     */
    routeList: { method: string; url: string; schema: FastifySchema | undefined }[];
  }
}

export type AppDeps = {
  /** An open, migrated database. Without it the app opens one from the config and closes it with the app. */
  db?: DatabaseHandle;
  clock?: Clock;
  mailer?: Mailer;
  sms?: SmsSender;
  /** Where the log goes (tests read it); default stdout. */
  logStream?: { write(line: string): void };
  /** Resolves webhook URLs' and domain proof files' host names (default: the operating system's resolver). */
  resolveHost?: HostResolver;
  /** Looks up company domains' TXT records (default: node:dns's resolver with the system's DNS servers). */
  lookupTxt?: TxtLookup;
};

/** A hop count means "trust that many proxies in front of us" (proxy-addr's semantics). */
function trustProxyOption(value: Config['trustProxy']) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

/**
 * Slow clients (issue #13 item 10b). Fastify sets no request timeout of its own, so a client sending a byte now and
 * then held a connection (and a handler waiting for its body) forever. A request must arrive whole within
 * `requestTimeoutMs` (Node answers 408 and closes), its headers within a third of that; a connection on which
 * nothing moves for twice that is closed. Node checks these at `connectionsCheckingInterval` (30 s by default, far
 * coarser than the limit), so the check runs at a quarter of the limit, at most every 5 s.
 */
function socketTimeouts(requestTimeoutMs: number) {
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: 2 * requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.ceil(requestTimeoutMs / 3),
      connectionsCheckingInterval: Math.min(5_000, Math.max(50, Math.floor(requestTimeoutMs / 4))),
    },
  };
}

/** The development outbox (and its API) is used whenever a message channel has no real provider, never in production. */
function outboxActive(config: Config): boolean {
  return !config.isProduction && (!config.smtpUrl || !config.twilio);
}

/**
 * Builds the whole application: plugins, then modules, then the pages. Production and the tests boot exactly this.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  installSpecErrorMessages();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: {
        // No personal data or secrets in the log (lib/redact.ts): URLs lose token links' secrets and query values that
        // are not the app's own filters; errors lose the values of failed queries.
        req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }),
        err: serializeLoggedError,
      },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    trustProxy: trustProxyOption(config.trustProxy),
    ...socketTimeouts(config.requestTimeoutMs),
    frameworkErrors: answerFrameworkError,
    genReqId: requestIdGenerator(config),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, {
    applies: isApiV1,
    contentType: PROBLEM_CONTENT_TYPE,
    ofAppError: problemOfAppError,
    ofStatus: problemOfStatus,
  });
  // Every answer names its request id, as every log line of the request does (lib/request-id.ts).
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  registerJsonBody(app);
  registerNullCharacterGuard(app);

  const ownsDb = !deps.db;
  const database = deps.db ?? openDatabase(config);
  const clock = deps.clock ?? systemClock;
  const mailer = deps.mailer ?? createMailer(config, database.db, clock, app.log);
  const sms = deps.sms ?? createSmsSender(config, database.db, clock, app.log);
  const jobs = createJobs(database, app.log, await loadJobDefinitions(), {
    pollingMinSeconds: config.jobPollingMinSeconds,
  });
  const services = createServices({
    config,
    db: database.db,
    clock,
    mailer,
    sms,
    jobs,
    streamCsv: database.streamCsv,
    resolveHost: deps.resolveHost,
    lookupTxt: deps.lookupTxt,
  });
  app.decorate('services', services);
  const routeList: FastifyInstance['routeList'] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routeList.push({ method, url: route.url, schema: route.schema });
  });
  // Workers start with the app and stop before the database closes, letting jobs in progress finish. Maintenance
  // (expired sessions, old rate-limit events and outbox rows) is scheduled jobs (jobs/definitions/prune-*.ts).
  app.addHook('onReady', () => jobs.start(createJobWork(services, database.executeSql)));
  // Draining (SIGTERM): requests in flight finish, but their keep-alive connections must not keep the server open
  // until the client lets go (Fastify's keep-alive timeout is 72 s): answers sent while closing say Connection: close.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => {
    await jobs.stop();
    if (!deps.mailer) await mailer.close();
    if (ownsDb) await database.close();
  });

  await app.register(cookie);
  await registerSecurity(app);
  // After the rate-limit plugin, so the probes' own limits (none for /healthz, PROBE_RATE_LIMIT for /readyz) apply.
  registerHealth(app, database);
  const devTemplate = config.viteDevServer ? await registerViteDev(app) : undefined;
  registerCsrf(app);
  registerSessions(app);
  registerTenancy(app, { apiKeys: services.apiKeys });
  // After tenancy: a sensitive route's step-up check runs after its account is resolved (a stranger's id stays 404).
  registerStepUp(app, clock);
  await registerMultipart(app);
  await registerOpenApi(app);

  await app.register(authRoutes);
  await app.register(mfaRoutes);
  await app.register(passkeyRoutes);
  await app.register(authSessionRoutes);
  await app.register(userRoutes);
  await app.register(mediaRoutes);
  await app.register(accountRoutes);
  await app.register(domainRoutes);
  await app.register(ssoRoutes);
  await app.register(lookupRoutes);
  await app.register(retentionRoutes);
  await app.register(membershipRoutes);
  await app.register(invitationRoutes);
  await app.register(verifyFormRoutes);
  await app.register(consentRoutes);
  await app.register(testNumberRoutes);
  await app.register(apiKeyRoutes);
  await app.register(webhookEndpointRoutes);
  await app.register(auditRoutes);
  await app.register(verificationRoutes);
  await app.register(verificationDetailReportRoutes);
  await app.register(verificationRedactionRoutes);
  await app.register(refreshLinkRoutes);
  await app.register(certificateRoutes);
  await app.register(verificationAttemptRoutes);
  await app.register(publicVerifyRoutes);
  await app.register(twilioStatusRoutes);
  await app.register(twilioInboundRoutes);
  await app.register(revocationRoutes);
  await app.register(privacyRequestRoutes);
  await app.register(legalHoldRoutes);
  await app.register(contactabilitySessionRoutes);
  await app.register(apiV1Routes);
  await app.register(apiDocsRoutes);
  if (outboxActive(config)) await app.register(devRoutes);

  await registerSpa(app, devTemplate, viewerState);
  return app;
}
