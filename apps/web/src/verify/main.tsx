import { StrictMode } from 'react';
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
  createRoot(root).render(
    <StrictMode>
      <VerifyPage data={readPageData(document)} />
    </StrictMode>,
  );
}
