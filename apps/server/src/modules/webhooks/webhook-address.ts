import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may be sent (SSRF): the host is resolved and every address it resolves to must be
 * public. Loopback, private (RFC 1918, IPv6 ULA) and carrier-grade NAT ranges are allowed only when
 * the operator says so (WEBHOOKS_ALLOW_PRIVATE, for development and tests); unspecified, link-local,
 * cloud metadata, multicast and reserved addresses never are. Checked at registration and again at
 * each delivery, whose request then goes to the address checked (DNS may change in between).
 */
const NEVER = new BlockList();
NEVER.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network", unspecified
NEVER.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, cloud metadata 169.254.169.254
NEVER.addSubnet('192.0.0.0', 24, 'ipv4'); // IETF protocol assignments
NEVER.addSubnet('192.0.2.0', 24, 'ipv4'); // documentation
NEVER.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking
NEVER.addSubnet('198.51.100.0', 24, 'ipv4');
NEVER.addSubnet('203.0.113.0', 24, 'ipv4');
NEVER.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
NEVER.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, broadcast
NEVER.addAddress('::', 'ipv6'); // unspecified
NEVER.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6
NEVER.addSubnet('fe80::', 10, 'ipv6'); // link-local
NEVER.addSubnet('ff00::', 8, 'ipv6'); // multicast
NEVER.addSubnet('2001:db8::', 32, 'ipv6'); // documentation

const PRIVATE = new BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4'); // carrier-grade NAT
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6'); // loopback
PRIVATE.addSubnet('fc00::', 7, 'ipv6'); // unique local

/** An IPv4 address carried in IPv6 (::ffff:a.b.c.d, 64:ff9b::a.b.c.d), as IPv4; else null. */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why this address may not receive webhooks, or null if it may. */
export function refusedAddress(address: string, allowPrivate: boolean): string | null {
  const v4 = embeddedIpv4(address);
  if (v4) return refusedAddress(v4, allowPrivate);
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (isIP(address) === 0) return 'not an IP address';
  if (NEVER.check(address, family))
    return `${address} is a reserved, link-local or metadata address`;
  if (!allowPrivate && PRIVATE.check(address, family))
    return `${address} is a loopback or private address`;
  return null;
}

export interface ResolvedHost {
  address: string;
  family: 4 | 6;
}

/** The URL's host, as the request will use it (brackets off an IPv6 literal). */
export function hostOf(url: string): string {
  const host = new URL(url).hostname;
  return host.startsWith('[') ? host.slice(1, -1) : host;
}

/**
 * Resolves the URL's host and checks every address; the first is the one to connect to.
 * Throws an Error whose message says why the host is refused or cannot be resolved.
 */
export async function resolvePublicHost(url: string, allowPrivate: boolean): Promise<ResolvedHost> {
  const host = hostOf(url);
  const found =
    isIP(host) !== 0
      ? [{ address: host, family: isIP(host) }]
      : await lookup(host, { all: true, verbatim: true }).catch(() => {
          throw new Error(`the host ${host} could not be resolved`);
        });
  if (!found.length) throw new Error(`the host ${host} could not be resolved`);
  for (const a of found) {
    const why = refusedAddress(a.address, allowPrivate);
    if (why) throw new Error(`the host ${host} resolves to a refused address: ${why}`);
  }
  const first = found[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
