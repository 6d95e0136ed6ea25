import { useDocumentTitle } from '@mantine/hooks';
import { pageTitle } from './page-title-text';

// The text alone is in its own module for the login page's first paint, which shows before Mantine is loaded.
export { APP_NAME, pageTitle } from './page-title-text';

/** Sets `document.title` for the page being shown. */
export function usePageTitle(title: string): void {
  useDocumentTitle(pageTitle(title));
}
