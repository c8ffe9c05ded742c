import { describe, expect, it } from 'vitest';
import { monitoringOptions } from './monitoring';

describe('monitoringOptions', () => {
  it('sends through the /monitoring tunnel with o and p from the DSN', () => {
    expect(monitoringOptions('https://abc@o4507.ingest.example.io/98765')).toEqual({
      dsn: 'https://abc@o4507.ingest.example.io/98765',
      tunnel: '/monitoring?o=4507&p=98765',
      environment: 'prod',
      tracesSampleRate: 0.1,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
    });
  });
  it('is off without a DSN or with one that names no organisation and project', () => {
    expect(monitoringOptions(undefined)).toBeNull();
    expect(monitoringOptions('')).toBeNull();
    expect(monitoringOptions('not a url')).toBeNull();
    expect(monitoringOptions('https://abc@sentry.example.io/98765')).toBeNull();
  });
});
