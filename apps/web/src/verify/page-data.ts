import type { PublicConsent, PublicPageData, PublicVerifyForm } from '@veriform/contracts';
import { PUBLIC_PAGE_DATA_ELEMENT_ID } from '@veriform/contracts/public-verify-texts';

/**
 * Reads the data the server embeds in the page (`<script id="initial-data" type="application/json">`). Checked by
 * hand rather than with the contract's zod schema: zod alone would cost more than this whole page's own code. Anything
 * missing or malformed reads as "no form", which shows the polite not-available page instead of crashing.
 */

const EMPTY: PublicPageData = { csrfToken: '', form: null, externalRefId: null, language: null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A malformed consent reads as none: the server then refuses the send as stale, and a reload shows the text. */
function readConsent(value: unknown): PublicConsent | null {
  if (!isRecord(value)) return null;
  const { versionId, text, requireCheckbox } = value;
  if (typeof versionId !== 'string' || typeof text !== 'string') return null;
  return { versionId, text, requireCheckbox: requireCheckbox === true };
}

function readForm(value: unknown): PublicVerifyForm | null {
  if (!isRecord(value)) return null;
  const { publicId, name, company, companyDomain, language, bannerImage, preview, consent, pageViewId } =
    value;
  if (typeof publicId !== 'string' || typeof name !== 'string' || typeof company !== 'string') return null;
  if (language !== 'en' && language !== 'es') return null;
  return {
    publicId,
    name,
    company,
    // Shown only as the server gave it: anything else reads as no verified domain.
    companyDomain: typeof companyDomain === 'string' && companyDomain ? companyDomain : null,
    language,
    bannerImage: typeof bannerImage === 'string' && bannerImage ? bannerImage : null,
    preview: preview === true,
    consent: readConsent(consent),
    // A malformed view id reads as none: the code is still sent, only not linked to this opening of the page.
    pageViewId: typeof pageViewId === 'string' && pageViewId ? pageViewId : null,
  };
}

export function parsePageData(json: string | null | undefined): PublicPageData {
  if (!json) return EMPTY;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return EMPTY;
  }
  if (!isRecord(raw)) return EMPTY;
  return {
    csrfToken: typeof raw.csrfToken === 'string' ? raw.csrfToken : '',
    form: readForm(raw.form),
    externalRefId: typeof raw.externalRefId === 'string' && raw.externalRefId ? raw.externalRefId : null,
    language: raw.language === 'en' || raw.language === 'es' ? raw.language : null,
  };
}

export function readPageData(doc: Document): PublicPageData {
  return parsePageData(doc.getElementById(PUBLIC_PAGE_DATA_ELEMENT_ID)?.textContent);
}
