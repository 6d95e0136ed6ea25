import type { PublicLanguage } from './public-verify-texts.ts';

/**
 * The link to a form's revocation page `/f/{publicId}/revoke` (issue #35): on the hosted verification page, a
 * certificate's public page and every e-mail a consumer gets from us, in the consumer's language. Zod-free and tiny:
 * the app and the public page share it (apps/web/vite.config.ts puts it in their common chunk), so neither carries
 * the other's texts to show one link.
 */
export const revokePagePath = (publicId: string): string => `/f/${encodeURIComponent(publicId)}/revoke`;

/** Whether a location's path is a revocation page (the public page's entry picks its screen by it). */
export const isRevokePagePath = (pathname: string): boolean => /^\/f\/[^/]+\/revoke\/?$/.test(pathname);

export const revokeLinkTexts: Record<PublicLanguage, string> = {
  en: 'Changed your mind? Revoke consent',
  es: '¿Cambió de opinión? Revoque su consentimiento',
};
