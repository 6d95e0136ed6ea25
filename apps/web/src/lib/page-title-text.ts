export const APP_NAME = 'Veriform';

/** The document title of a page: "Title · Veriform". */
export function pageTitle(title: string): string {
  return title ? `${title} · ${APP_NAME}` : APP_NAME;
}
