import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { readPageData } from './page-data';
import { VerifyPage } from './VerifyPage';
import './styles.css';

// The public verification page's own entry: nothing of the app (Mantine, router, query, zod) is imported from here.
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <VerifyPage data={readPageData(document)} />
    </StrictMode>,
  );
}
