import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/**
 * The browser's part of a passkey ceremony (navigator.credentials), through @simplewebauthn/browser,
 * loaded only when a passkey button is pressed: /login does not carry it until then.
 */
export async function createPasskey(
  optionsJSON: PublicKeyCredentialCreationOptionsJSON,
): Promise<RegistrationResponseJSON> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON });
}

export async function getPasskey(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
): Promise<AuthenticationResponseJSON> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON });
}

/** This browser can make and use passkeys at all (WebAuthn is there). */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/**
 * The i18n key of a ceremony the browser ended: cancelled or timed out (NotAllowedError), the passkey
 * already registered here (InvalidStateError), anything else.
 */
export function ceremonyErrorKey(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'passkeys.errors.cancelled';
  if (name === 'InvalidStateError') return 'passkeys.errors.PASSKEY_ALREADY_REGISTERED';
  return 'passkeys.errors.browser';
}
