/**
 * The domains module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { createTxtLookup, type TxtLookup } from './proof.ts';
export { domainRoutes } from './routes.ts';
export { createDomainService, type DomainService } from './service.ts';
export { verifiedDomainsOf } from './verified.ts';
