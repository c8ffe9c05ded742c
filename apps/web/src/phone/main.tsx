import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PhoneApp } from './app';
import { PhoneGateway } from './gateway';
import { initPhoneI18n } from './i18n';
import { openPhoneDb } from './store';
import './phone.css';

// The phone gateway (issue 16): nothing here imports the console's code (its own Vite build, vite.phone.config.ts).
async function boot(): Promise<void> {
  await initPhoneI18n();
  const gateway = new PhoneGateway(await openPhoneDb());
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <PhoneApp gateway={gateway} />
    </StrictMode>,
  );
  await gateway.start();
}

void boot();
