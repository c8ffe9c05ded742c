import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadGuards, shouldPreloadSignedIn } from './app/guards';
import { preloadShellPage } from './app/routes';
import { DEVICE_SUMMARY_PATH, receivesAlertPopups, SUMMARY_COLUMNS_QUERY } from '@wearable/domain';
import { paths } from './config/paths';
import { startEarlyAudio } from './lib/early-audio';
import { buildUrl, startEarlyGet } from './lib/early-get';
import { initI18n } from './lib/i18n';
import { getAccessToken, getStoredUser } from './lib/storage';
import './styles.css';

// Start loading translations and render at once: the app spinner covers the wait.
void initI18n();
preloadGuards(window.location.pathname);
if (shouldPreloadSignedIn(window.location.pathname)) preloadShellPage(window.location.pathname);
// /devices' data too, signed in (the demo's data is the browser's own): asked for now, not once
// the page's code, the user and the translations have arrived (issue 20: 10,000 wearers on screen
// within 1 s). The page's request takes this answer (lib/early-get.ts).
const token = getAccessToken();
if (token !== null && window.location.pathname === paths.devices.list.path) {
  startEarlyGet(buildUrl('', DEVICE_SUMMARY_PATH, SUMMARY_COLUMNS_QUERY), token);
}
// A staff console's alert sound: its AudioContext made now says whether the browser lets it play yet.
const storedUser = token === null ? null : getStoredUser();
if (storedUser !== null && receivesAlertPopups(storedUser.role)) startEarlyAudio();

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
// After the first render, so the monitoring SDK never delays the console; a build without a DSN
// (the constant is replaced at build time) carries no monitoring code at all.
const monitoringDsn = import.meta.env.VITE_MONITORING_DSN as string | undefined;
if (monitoringDsn) {
  setTimeout(
    () => void import('./lib/monitoring').then((m) => m.startMonitoring(monitoringDsn)),
    0,
  );
}
