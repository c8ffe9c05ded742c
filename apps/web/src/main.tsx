import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadGuards, shouldPreloadSignedIn } from './app/guards';
import { preloadShellPage } from './app/routes';
import { initI18n } from './lib/i18n';
import { startMonitoring } from './lib/monitoring';
import './styles.css';

// Start loading translations and render at once: the app spinner covers the wait.
void initI18n();
preloadGuards(window.location.pathname);
if (shouldPreloadSignedIn(window.location.pathname)) preloadShellPage(window.location.pathname);

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
// After the first render, so the monitoring SDK never delays the console.
setTimeout(
  () => void startMonitoring(import.meta.env.VITE_MONITORING_DSN as string | undefined),
  0,
);
