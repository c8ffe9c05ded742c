import { DEMO_ACCOUNTS, DEMO_ORGANIZATIONS } from './demo-data.js';

/**
 * The demo's accounts and gateways have credentials published in the README (demo-pass-2026, the
 * demo gateway secrets). A first start listens on every address, so unless DEMO_PUBLIC=true they
 * work only from this machine: nobody on the network signs in as the demo's platform owner or puts
 * an SOS into the sign-in-free /demo (issue 35).
 */
const DEMO_ACCOUNT_IDS = new Set(DEMO_ACCOUNTS.map((a) => a.id));
const DEMO_GATEWAY_IDS = new Set(DEMO_ORGANIZATIONS.flatMap((o) => o.gateways.map((g) => g.id)));

export const isDemoAccount = (userId: string): boolean => DEMO_ACCOUNT_IDS.has(userId);
export const isDemoGateway = (gatewayId: string): boolean => DEMO_GATEWAY_IDS.has(gatewayId);

/** An address of this machine itself (IPv4 127/8, IPv6 ::1, and IPv4-mapped 127/8). */
export const isLoopbackAddress = (address: string): boolean =>
  address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);

/** Whether a demo credential may be used from `address`. */
export const demoUsableFrom = (demoPublic: boolean, address: string): boolean =>
  demoPublic || isLoopbackAddress(address);
