import {
  anonymousUser,
  INITIAL_DATA_ELEMENT_ID,
  type InitialData,
  initialDataSchema,
} from '@veriform/contracts';

/** What the app assumes when the page carries no (or unreadable) initial data: an anonymous visitor. */
export const anonymousInitialData: InitialData = {
  user: anonymousUser,
  memberships: [],
  currentMembership: null,
  csrfToken: '',
  extra: {},
};

/** Parses the `<script id="initial-data" type="application/json">` the server injects (SPEC §3, DESIGN §4). */
export function parseInitialData(doc: Document): InitialData {
  const text = doc.getElementById(INITIAL_DATA_ELEMENT_ID)?.textContent;
  if (!text) return anonymousInitialData;
  try {
    const parsed = initialDataSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    console.error('Initial page data does not match the contract', parsed.error.issues);
  } catch (error) {
    console.error('Initial page data is not valid JSON', error);
  }
  return anonymousInitialData;
}

let cached: InitialData | undefined;

/** The initial page data, read and parsed once per page load. */
export function getInitialData(): InitialData {
  cached ??= typeof document === 'undefined' ? anonymousInitialData : parseInitialData(document);
  return cached;
}
