import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './locales/index.ts';
import { AppProviders } from './app/providers.tsx';
import { router } from './app/router.tsx';
import { loadSystemConfig } from './app/system-config.ts';
import { startVersionCheck } from './app/version-check.ts';
import './main.css';

void loadSystemConfig();
startVersionCheck();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
