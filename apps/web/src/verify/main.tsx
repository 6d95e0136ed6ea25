import { isRevokePagePath } from '@veriform/contracts/revoke-link';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startErrorReporting } from '../lib/error-reporting';
import { readPageData } from './page-data';
import { VerifyPage } from './VerifyPage';
import './styles.css';

// The public verification page's own entry: nothing of the app (Mantine, router, query, zod) is imported from here.
// Error reporting is the shared, zod-free module; its SDK is a separate chunk loaded only with a DSN, after the page.
startErrorReporting();
const root = document.getElementById('root');
if (root) {
  const data = readPageData(document);
  const show = (page: ReactNode) => createRoot(root).render(<StrictMode>{page}</StrictMode>);
  // The form's revocation page (`/f/{publicId}/revoke`, issue #35) is this entry too, its screen a chunk of its own:
  // the verification page, which every consumer opens, carries none of its code or texts.
  if (isRevokePagePath(window.location.pathname))
    void import('./RevokePage').then(({ RevokePage }) => show(<RevokePage data={data} />));
  else show(<VerifyPage data={data} />);
}
