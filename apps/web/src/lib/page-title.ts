import { useDocumentTitle } from '@mantine/hooks';

export const APP_NAME = 'Veriform';

export function pageTitle(title: string): string {
  return title ? `${title} · ${APP_NAME}` : APP_NAME;
}

/** Sets `document.title` for the page being shown. */
export function usePageTitle(title: string): void {
  useDocumentTitle(pageTitle(title));
}
