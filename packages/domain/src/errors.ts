/** Error body every 4xx/5xx of the API returns. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  /** Human-readable message naming what was wrong. */
  message: string;
  /** Machine code, e.g. VALIDATION_FAILED, INVALID_CREDENTIALS, TOO_MANY_ATTEMPTS. */
  code: string;
  /** For validation errors: each failing field path and its reason. */
  issues?: { path: string; message: string }[];
  /** For a 429: seconds until the refused request may be tried again (also the Retry-After header). */
  retryAfterSeconds?: number;
}
