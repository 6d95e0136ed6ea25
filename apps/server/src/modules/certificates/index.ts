/**
 * The certificates module's public entry: what app.ts, services.ts and other modules may use (ADR 0036). Everything else in
 * the folder is the module's own.
 */
export { type CertificateChecker, createCertificateCheck } from './check.ts';
export { createPublicCertificates, type PublicCertificates } from './public.ts';
export { tombstoneCertificates } from './purge.ts';
export { type CertificateRevocation, createCertificateRevocation } from './revocation.ts';
export {
  certificatePdfResponse,
  certificateRoutes,
  sendCertificate,
  signedCertificateResponse,
} from './routes.ts';
export { type CertificateService, createCertificateService } from './service.ts';
