/**
 * What a link to /verify carries, read from the URL fragment (never sent to a server, so no log
 * holds the token). The fragment names its kind: `#signin=<token>` (email-link sign-in) or
 * `#invite=<token>` (an invitation: registration). We chose the fragment over a kind returned by
 * the server so the page knows what to show before any request, and each kind posts to its own
 * endpoint; a new kind is one entry here and one in verify-page's table.
 */
export const VERIFY_KINDS = ['signin', 'invite'] as const;
export type VerifyKind = (typeof VERIFY_KINDS)[number];

export interface VerifyLink {
  kind: VerifyKind;
  token: string;
}

export function parseVerifyFragment(hash: string): VerifyLink | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const kind of VERIFY_KINDS) {
    const token = params.get(kind);
    if (token) return { kind, token };
  }
  return null;
}
