import { z } from 'zod';

export const signInBody = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(256),
});
export type SignInBody = z.infer<typeof signInBody>;

export const tokenPair = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  tokenType: z.literal('Bearer'),
  /** Seconds until the access token expires. */
  expiresIn: z.number().int(),
  /** Seconds until the refresh token expires (the session's lifetime). */
  refreshExpiresIn: z.number().int(),
  /**
   * A sign-in of staff whose organisation requires a second factor they have not enrolled yet, in
   * the grace period: enrol one (a passkey or TOTP) before this time (ISO 8601), after it sign-in asks for it.
   */
  secondFactorEnrolBy: z.string().optional(),
});
export type TokenPair = z.infer<typeof tokenPair>;

export const refreshBody = z.object({ refreshToken: z.string().min(1).max(512) });
export const signOutBody = z.object({ refreshToken: z.string().min(1).max(512).optional() });
