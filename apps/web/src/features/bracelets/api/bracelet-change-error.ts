/** A refused change: the status and the server's error body ({ code, message, details }) for the form to show. */
export class BraceletChangeError extends Error {
  readonly code: string | null;
  readonly serverMessage: string | null;
  constructor(
    readonly status: number,
    body: unknown,
  ) {
    const b = (typeof body === 'object' && body !== null ? body : {}) as {
      code?: unknown;
      message?: unknown;
    };
    super(typeof b.message === 'string' ? b.message : `HTTP ${status}`);
    this.code = typeof b.code === 'string' ? b.code : null;
    this.serverMessage = typeof b.message === 'string' ? b.message : null;
  }
}
