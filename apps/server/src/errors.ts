/** An error a service throws to refuse a request; the error handler turns it into a 4xx. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly issues?: { path: string; message: string }[],
    /** For a 429: when the request may be tried again (the body's field and the Retry-After header). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') =>
  new ApiError(400, code, message);
export const unauthorized = (message = 'Sign-in required', code = 'UNAUTHORIZED') =>
  new ApiError(401, code, message);
export const forbidden = (message = 'Not allowed', code = 'FORBIDDEN') =>
  new ApiError(403, code, message);
export const notFound = (message: string, code = 'NOT_FOUND') => new ApiError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new ApiError(409, code, message);
