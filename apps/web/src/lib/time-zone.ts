import { FALLBACK_TIME_ZONE } from '@veriform/contracts';

/** The browser's time zone, so date presets mean the user's local days (DESIGN §5). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || FALLBACK_TIME_ZONE;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
}
