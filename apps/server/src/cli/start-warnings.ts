import type { Config } from '../config.js';

import { isLoopbackHost } from '../public-address.js';

export { isLoopbackHost };

/**
 * What a start says once, as warnings, about a setup that works here but not for anyone else: a
 * DATA_DIR others could read (made private at this start), and links that point at this machine
 * while the server listens for others (SMS, mail and the phone enrolment QR code carry PUBLIC_URL).
 */
export function startWarnings(
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'host'>,
  dataDirWasOpen: boolean,
): string[] {
  const warnings: string[] = [];
  if (dataDirWasOpen) {
    warnings.push(
      `DATA_DIR ${config.dataDir} was readable by other users of this machine; it is now private (0700, files 0600). It holds health data, password hashes and working sign-in links: check who could read it before.`,
    );
  }
  const publicHost = new URL(config.publicUrl).hostname;
  if (isLoopbackHost(publicHost) && !isLoopbackHost(config.host)) {
    warnings.push(
      `PUBLIC_URL is ${config.publicUrl} while the server listens on ${config.host}: links in SMS, mail and the phone enrolment QR code point to the phone or computer that opens them, not to this server. Set PUBLIC_URL to the address people open (README, Configuration).`,
    );
  }
  return warnings;
}
