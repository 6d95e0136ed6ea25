import type { EmailChangeStatus } from './account-self-service.ts';

/**
 * What the server decided for "My Account" where the spec is silent (additions to account-self-service.ts; nothing
 * there changes). The web app may show these texts verbatim.
 */

/** A password-reset link works for this long, and only once. */
export const RESET_PASSWORD_VALID_HOURS = 1;
/** An e-mail change request is pending this long after `requestedAt`, then `expired` (a resend re-arms it). */
export const EMAIL_CHANGE_VALID_DAYS = 3;
/** The least time between two change-e-mail sends (request or resend) of one user. */
export const EMAIL_CHANGE_RESEND_SECONDS = 30;

/** `status_display` of each e-mail change status (SPEC §3). */
export const emailChangeStatusDisplay: Record<EmailChangeStatus, string> = {
  '': '',
  pending: 'Pending',
  expired: 'Expired',
  successfully_changed: 'Successfully changed',
};

/** The multipart field of POST /api/users/{id}/update-uploaded-profile-image (SPEC §7). */
export const PROFILE_IMAGE_FIELD = 'uploadedProfileImage';

/**
 * Images larger than this many pixels (width × height, first frame) are refused before they are decoded: a tiny file
 * declaring a gigantic image ("pixel bomb") never reaches the decoder. Uploads are shrunk to fit IMAGE_MAX_SIDE, so
 * nothing near this is needed for the output; the bound is what people upload: every phone's default photo (12 MP) and
 * a 24 MP camera's (6000 × 4000) pass, while a 6300 × 6300 PNG (40 MP: 0.8 s of CPU and 40 MB to decode) or a 48 MP
 * full-resolution phone photo is refused with a clear message (issue #13 item 10c).
 */
export const IMAGE_MAX_INPUT_PIXELS = 25_000_000;

/** Upload refusals beyond uploadTexts (400, on the upload's field). */
export const imageUploadRefusalTexts = {
  /** The content starts like an allowed image but cannot be decoded (truncated, corrupt). */
  unreadable: 'The file is damaged or is not a readable image.',
  tooManyPixels: `The image is too large: at most ${IMAGE_MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
  /** The multipart body itself is broken (cut short, no boundary, too many parts): a client problem. */
  malformed: 'The upload could not be read. Please try again.',
} as const;

/** Uploaded images are served here (content-addressed WebP, cached for a year). */
export const MEDIA_PATH_PREFIX = '/media/';
