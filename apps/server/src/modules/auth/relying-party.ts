import { isIP } from 'node:net';

/** Who the passkeys belong to: the WebAuthn relying party, from the server's public URL. */
export interface RelyingParty {
  name: string;
  /** A domain name: WebAuthn takes none that is an IP address. */
  id: string;
  /** The origins the browser may have answered from. */
  origins: string[];
}

/**
 * The console's own address names the relying party: `https://console.example.jp` gives the RP ID
 * `console.example.jp`. A server reached by a loopback address (a laptop, the browser tests at
 * http://127.0.0.1:PORT) is `localhost` to WebAuthn, which accepts no IP address: the page must be opened
 * as http://localhost:PORT for passkeys.
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) return { name: 'Wearable console', id: host, origins: [url.origin] };
  const local = new URL(url.origin);
  local.hostname = 'localhost';
  return { name: 'Wearable console', id: 'localhost', origins: [local.origin, url.origin] };
}
